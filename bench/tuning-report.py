#!/usr/bin/env python3
"""make bench-tuning: the Markdown tables of the tuning variants (bench/tpbench/tuning.py)."""
import sys

from tpbench.tuning import main

if __name__ == "__main__":
    sys.exit(main())
