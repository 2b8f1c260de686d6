"""idle-and-slow-uploads: 1,000 idle keep-alive connections and 100 slow uploaders at once in a 128 MiB
pod: a normal client on new connections is never refused (p99 < 50 ms), /healthz always 200, peak
RSS < 100 MiB.

Run by resilience.py (--only idle-and-slow-uploads); the scenario is in capacity.py.
"""

import capacity


NAME = "idle-and-slow-uploads"


def run(binary, report, options):
    capacity.SCENARIOS[NAME](binary, report, options.quick)
