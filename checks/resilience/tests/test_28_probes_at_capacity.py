"""probes-at-capacity: Every slot held by uploads that keep their rate: /healthz and /readyz still
answer 200 (on the main port and on --metrics-port, its 64 slots held by idle scrapers that another
scraper displaces), anything else gets 503.

Run by resilience.py (--only probes-at-capacity); the scenario is in capacity.py.
"""

import capacity


NAME = "probes-at-capacity"


def run(binary, report, options):
    capacity.SCENARIOS[NAME](binary, report, options.quick)
