"""connect-storm: 20,000 connect-and-close cycles from one client as fast as it can: a normal client
beside it is never refused (a closed connection leaves the count at once).

Run by resilience.py (--only connect-storm); the scenario is in capacity.py.
"""

import capacity


NAME = "connect-storm"


def run(binary, report, options):
    capacity.SCENARIOS[NAME](binary, report, options.quick)
