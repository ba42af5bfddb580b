#!/usr/bin/env python3
"""make bench-report: docs/benchmarks.md, docs/bench/ (bench/tpbench/report.py)."""
import sys

from tpbench.report import main

sys.exit(main())
