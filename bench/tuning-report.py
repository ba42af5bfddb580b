#!/usr/bin/env python3
"""make bench-tuning: the Markdown tables of the tuning variants (bench/tpbench/tool.py)."""
import sys

from tpbench.tool import tuning_main

sys.exit(tuning_main())
