#!/usr/bin/env python3
"""make bench: gen / parse / table (bench/tpbench/tool.py; ci/bench/perf-bench.sh calls it)."""
import sys

from tpbench.tool import main

sys.exit(main())
