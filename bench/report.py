#!/usr/bin/env python3
"""make bench-report: docs/benchmarks.md, its plots (docs/bench/) and the plain-text
summary docs/bench/summary.txt from `make bench` results (bench/tpbench/report.py)."""
import sys

from tpbench.report import main

if __name__ == "__main__":
    sys.exit(main())
