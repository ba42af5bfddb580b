# mk/bench.mk - benchmarks (included by the top-level Makefile).
#
#   make perf [ARCH=x86_64|arm64]   static perf from the series tree -> build/perf/<arch>/perf
#                                   (ci/perf-build.sh; needs the perf patch in kernel/patches/)
#   make bench [ARCH=x86_64|arm64] [BENCH=quick|full|smp8|smp16] [BENCH_CPUS=2] [PERF=file]
#                                   perf bench futex mutex over bench/<BENCH>.matrix in the
#                                   guest via `make run`; results in build/bench/<arch>/,
#                                   BENCH=full also copies them to results/<arch>/.
#                                   No ARCH: both arches (like the other targets).
#   make bench-tuning [ARCH=] [VARIANTS="base no-spin ..."] [TUNING_SAVE=1]
#                                   one kernel per bench/tuning/*.patch variant (+ base, and
#                                   host-busy = base beside one busy loop per host CPU), the
#                                   BENCH=tuning matrix in each; table: ci/bench-tuning-report.py,
#                                   write-up: docs/bench-tuning.md (TUNING_SAVE=1: results
#                                   also copied to results/tuning/, which that page quotes)
#   make bench-exit [ARCH=] [ROUNDS=4] [BENCH_SAVE=1]
#                                   fork+exit rate with the series against the same kernel
#                                   without it (TPF_STOCK=1) and the A/A control (that kernel
#                                   booted again), boots rotating; results in
#                                   build/bench-exit/<arch>/ (BENCH_SAVE=1: results/<arch>/exit-cost/)
#   make bench-baseline REV=<commit> [ARCH=] [BENCH=full]
#                                   the same bench on the series of an earlier commit with
#                                   today's perf -> results/<arch>/previous/ (the baseline of
#                                   the report's TP/WW goal)
#   make evidence REV=<commit> [ARCH=] [RUNS=3] [EVIDENCE_SAVE=1]
#                                   today's TP tests booted on the kernel of an earlier series
#                                   (what the current series fixes) -> build/evidence/<arch>/
#                                   (EVIDENCE_SAVE=1: docs/evidence/old-series-<arch>-*.log)
#   make bench-report               docs/benchmarks.md + docs/bench/*.svg from results/
#                                   (BENCH_RESULTS=build/bench to report the last runs)
#
# Packages: ci/packages-bench.txt.  Everything runs from the repository root.

tpf_bench_saved_goal := $(.DEFAULT_GOAL)

TPF_BENCH_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

.PHONY: perf bench bench-report bench-tuning bench-exit bench-baseline evidence

TPF_BENCH_ARCHES = $(or $(ARCH),x86_64 arm64)

perf:
	@for a in $(TPF_BENCH_ARCHES); do $(TPF_BENCH_ROOT)/ci/bench.sh --build-perf $$a || exit 1; done

# Each arch is benchmarked even if the other one failed.
bench:
	@rc=0; for a in $(TPF_BENCH_ARCHES); do \
		BENCH_CPUS=$(or $(BENCH_CPUS),2) $(TPF_BENCH_ROOT)/ci/bench.sh $$a $(or $(BENCH),quick) || rc=1; \
	done; exit $$rc

bench-tuning:
	@rc=0; for a in $(TPF_BENCH_ARCHES); do \
		BENCH_CPUS=$(or $(BENCH_CPUS),2) TUNING_SAVE=$(TUNING_SAVE) $(TPF_BENCH_ROOT)/ci/bench-tuning.sh $$a $(VARIANTS) || rc=1; \
	done; $(TPF_BENCH_ROOT)/ci/bench-tuning-report.py $(TPF_BENCH_ROOT)/build/bench-tuning || rc=1; exit $$rc

bench-exit:
	@rc=0; for a in $(TPF_BENCH_ARCHES); do \
		BENCH_SAVE=$(BENCH_SAVE) $(TPF_BENCH_ROOT)/ci/bench-exit.sh $$a $(or $(ROUNDS),4) || rc=1; \
	done; exit $$rc

bench-baseline:
	@[ -n "$(REV)" ] || { echo "make bench-baseline: set REV= to the commit whose kernel/patches/ is the baseline, e.g. REV=3c49ebd" >&2; exit 2; }
	@rc=0; for a in $(TPF_BENCH_ARCHES); do \
		$(TPF_BENCH_ROOT)/ci/bench-baseline.sh $$a $(REV) $(or $(BENCH),full) || rc=1; \
	done; exit $$rc

evidence:
	@[ -n "$(REV)" ] || { echo "make evidence: set REV= to the commit whose kernel/patches/ is the earlier series, e.g. REV=3c49ebd" >&2; exit 2; }
	@rc=0; for a in $(TPF_BENCH_ARCHES); do \
		EVIDENCE_SAVE=$(EVIDENCE_SAVE) $(TPF_BENCH_ROOT)/ci/evidence.sh $$a $(REV) $(or $(RUNS),3) || rc=1; \
	done; exit $$rc

bench-report:
	$(TPF_BENCH_ROOT)/ci/bench-report.py --results $(or $(BENCH_RESULTS),$(TPF_BENCH_ROOT)/results) \
		--out $(TPF_BENCH_ROOT)/docs/benchmarks.md --plots $(TPF_BENCH_ROOT)/docs/bench

.DEFAULT_GOAL := $(tpf_bench_saved_goal)
