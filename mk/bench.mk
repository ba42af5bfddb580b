# mk/bench.mk - benchmarks (included by the top-level Makefile).
#
#   make perf [ARCH=x86_64|arm64]   static perf from the series tree -> build/perf/<arch>/perf
#                                   (ci/perf-build.sh; needs the perf patch in kernel/patches/)
#   make bench [ARCH=x86_64|arm64] [BENCH=quick|full] [BENCH_CPUS=2]
#                                   perf bench futex mutex over bench/<BENCH>.matrix in the
#                                   guest via `make run`; results in build/bench/<arch>/,
#                                   BENCH=full also copies them to results/<arch>/
#   make bench-report               docs/benchmarks.md + docs/bench/*.svg from results/
#                                   (BENCH_RESULTS=build/bench to report the last runs)
#
# Packages: ci/packages-bench.txt.  Everything runs from the repository root.

tpf_bench_saved_goal := $(.DEFAULT_GOAL)

TPF_BENCH_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

.PHONY: perf bench bench-report

perf:
	$(TPF_BENCH_ROOT)/ci/bench.sh --build-perf $(or $(ARCH),x86_64)

bench:
	BENCH_CPUS=$(or $(BENCH_CPUS),2) $(TPF_BENCH_ROOT)/ci/bench.sh $(or $(ARCH),x86_64) $(or $(BENCH),quick)

bench-report:
	$(TPF_BENCH_ROOT)/ci/bench-report.py --results $(or $(BENCH_RESULTS),$(TPF_BENCH_ROOT)/results) \
		--out $(TPF_BENCH_ROOT)/docs/benchmarks.md --plots $(TPF_BENCH_ROOT)/docs/bench

.DEFAULT_GOAL := $(tpf_bench_saved_goal)
