#!/usr/bin/env python3
"""The modules' size targets (docs/wasm.md, "Size, speed, memory"): each
module's raw bytes and its bytes after `gzip -9 -n` (as a web server would
send it), each at most its limit (1 MB and 350 KB, decimal), or this fails.

usage: checks/wasm/size.py MODULE... [--max-raw-bytes 1000000] [--max-gzip-bytes 350000]
"""

import argparse
import subprocess
import sys
from pathlib import Path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("modules", type=Path, nargs="+")
    parser.add_argument("--max-raw-bytes", type=int, default=1_000_000)
    parser.add_argument("--max-gzip-bytes", type=int, default=350_000)
    args = parser.parse_args()
    failed = checked = 0
    for module in args.modules:
        data = module.read_bytes()
        sizes = {"raw": (len(data), args.max_raw_bytes),
                 "gzip -9": (len(subprocess.run(["gzip", "-9", "-n", "-c"], input=data, capture_output=True,
                                                check=True).stdout), args.max_gzip_bytes)}
        for name, (size, limit) in sizes.items():
            over = size > limit
            failed += over
            checked += 1
            print(f"{'FAIL ' if over else ''}{module.name} {name}: {size:,} bytes, "
                  f"{size / limit:.0%} of the {limit:,} allowed")
    print(f"size: {checked - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
