"""The tp-futex benchmark code: `make bench`, `make bench-report`, `make bench-tuning`.

  data      the results on disk (summary.csv, meta.json, ...) and the one list of mutex types
  goals     the report's goals as data: metric, comparison, threshold -> met / missed / n/a
  plots     gnuplot data files and SVG plots
  text      number formats, Markdown tables and the templates of bench/templates/
  report    docs/benchmarks.md, docs/bench/summary.txt (the cover letter's block)
  tool      gen / parse / table for `make bench` (ci/bench/perf-bench.sh)
  tuning    the Markdown tables of `make bench-tuning` (docs/bench-tuning.md)

The entry points are bench/report.py, bench/tool.py and bench/tuning-report.py.  Plain
Python 3 standard library.
"""
