"""rfc9112-hosts: RFC 9112 section 3.2: an invalid Host is 400 invalid-host; absolute-form targets are
accepted when their authority is the Host.

Run by resilience.py (--only rfc9112-hosts); the scenario is in capacity.py.
"""

import capacity


NAME = "rfc9112-hosts"


def run(binary, report, options):
    capacity.SCENARIOS[NAME](binary, report, options.quick)
