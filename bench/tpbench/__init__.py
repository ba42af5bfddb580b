"""The benchmark code of `make bench` (tool), `make bench-report` (report: goals, plots, text)
and `make bench-tuning` (tool); data reads the results.  Python 3 standard library only."""
