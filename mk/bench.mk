# mk/bench.mk - benchmarks (included by the top-level Makefile).
#
#   make perf [ARCH=x86_64|arm64] [BASE=7.2]
#                                   static perf from the series tree -> build/perf/<arch>/perf
#                                   (ci/kernel/perf.sh; needs the perf patch in the series)
#   make bench [ARCH=x86_64|arm64] [BASE=7.2] [BENCH=quick|full|smp8|smp16] [BENCH_CPUS=2] [PERF=file]
#                                   perf bench futex mutex over bench/<BENCH>.matrix in the
#                                   guest via `make run`; results in build/bench/<arch>/,
#                                   BENCH=full also copies them to results/<arch>/.
#                                   No ARCH: both arches (like the other targets).  No BASE:
#                                   the first base of ci/bases.tsv (6.12) only; BASE=7.2: its
#                                   kernel and perf, every dir with -7.2 (build/perf/<arch>-7.2/,
#                                   build/bench/<arch>-7.2/, build/bench-real/<arch>-7.2/,
#                                   results/<arch>-7.2/), a section of its own in the report.
#                                   [REAL=0|1|only] [REAL_ROUNDS=n] [REAL_SECONDS=s]: the real
#                                   programs (sysbench, stress-ng; glibc vs lib/'s TP shim, one
#                                   boot, interleaved; ci/bench/real.sh) after perf bench: on by
#                                   default for BENCH=quick (1 x 1 s) and full (5 x 3 s)
#   bench-tuning, bench-exit, bench-baseline and evidence measure the first base (6.12) only
#   and refuse any other BASE=.
#   make bench-tuning [ARCH=] [VARIANTS="base no-spin ..."] [TUNING_SAVE=1]
#                                   one kernel per bench/tuning/*.patch variant (+ base, and
#                                   host-busy = base beside one busy loop per host CPU), the
#                                   BENCH=tuning matrix in each; table: bench/tuning-report.py,
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
#   make bench-report               docs/benchmarks.md + docs/bench/*.svg + docs/bench/summary.txt
#                                   (the cover letter's block) from results/ (bench/report.py):
#                                   6.12 from results/<arch>/, then a section per other base
#                                   with results/<arch>-<base>/; summary.txt quotes the submit
#                                   base of ci/bases.tsv (7.2) when it has results, else 6.12
#                                   (BENCH_RESULTS=build/bench to report the last runs)
#
# Packages: ci/deps/packages-bench.txt.  Everything runs from the repository root.

tpf_bench_saved_goal := $(.DEFAULT_GOAL)

TPF_BENCH_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

.PHONY: perf bench bench-report bench-tuning bench-exit bench-baseline evidence

# perf and bench take BASE= through TPF_BASE (the Makefile exports it); without BASE they run
# the first base only, never a loop over the bases.  The targets that measure the first base
# only refuse any other BASE (the scripts refuse TPF_BASE too).
tpf_bench_first_base = @$(if $(filter-out $(firstword $(ALL_BASES)),$(BASE)),echo "make $@: BASE=$(BASE) is not supported; $@ measures the $(firstword $(ALL_BASES)) base only: leave BASE unset" >&2; exit 2,:)

perf:
	@for a in $(ARCHES); do $(TPF_BENCH_ROOT)/ci/bench/perf-bench.sh --build-perf $$a || exit 1; done

# Each arch is benchmarked even if the other one failed.  REAL: the real programs too
# (ci/bench/real.sh): BENCH=quick 1 round of 1 s, BENCH=full 5 rounds of 3 s (saved with the
# rest of BENCH=full), other matrices none unless REAL=1; REAL=0 never, REAL=only nothing else.
tpf_bench_mode = $(or $(BENCH),quick)
tpf_real = $(or $(REAL),$(if $(filter quick full,$(tpf_bench_mode)),1,0))
tpf_real_rounds = $(or $(REAL_ROUNDS),$(if $(filter full,$(tpf_bench_mode)),5,1))
tpf_real_seconds = $(or $(REAL_SECONDS),$(if $(filter full,$(tpf_bench_mode)),3,1))
bench: deps-ensure
	@case "$(tpf_real)" in 0|1|only) ;; *) echo "make bench: REAL=$(REAL) is not 0, 1 or only" >&2; exit 2 ;; esac
	@rc=0; for a in $(ARCHES); do \
		if [ "$(tpf_real)" != only ]; then \
			BENCH_CPUS=$(or $(BENCH_CPUS),2) $(TPF_BENCH_ROOT)/ci/bench/perf-bench.sh $$a $(tpf_bench_mode) || rc=1; \
		fi; \
		if [ "$(tpf_real)" != 0 ]; then \
			BENCH_CPUS=$(or $(BENCH_CPUS),2) BENCH_SAVE=$(or $(BENCH_SAVE),$(if $(filter full,$(tpf_bench_mode)),1,0)) \
			$(TPF_BENCH_ROOT)/ci/bench/real.sh $$a bench $(tpf_real_rounds) $(tpf_real_seconds) || rc=1; \
		fi; \
	done; exit $$rc

bench-tuning:
	$(tpf_bench_first_base)
	@rc=0; for a in $(ARCHES); do \
		BENCH_CPUS=$(or $(BENCH_CPUS),2) TUNING_SAVE=$(TUNING_SAVE) $(TPF_BENCH_ROOT)/ci/bench/tuning.sh $$a $(VARIANTS) || rc=1; \
	done; $(TPF_BENCH_ROOT)/bench/tuning-report.py $(TPF_BENCH_ROOT)/build/bench-tuning || rc=1; exit $$rc

bench-exit:
	$(tpf_bench_first_base)
	@rc=0; for a in $(ARCHES); do \
		BENCH_SAVE=$(BENCH_SAVE) $(TPF_BENCH_ROOT)/ci/bench/exit.sh $$a $(or $(ROUNDS),4) || rc=1; \
	done; exit $$rc

bench-baseline:
	$(tpf_bench_first_base)
	@[ -n "$(REV)" ] || { echo "make bench-baseline: set REV= to the commit whose kernel/patches/ is the baseline, e.g. REV=3c49ebd" >&2; exit 2; }
	@rc=0; for a in $(ARCHES); do \
		$(TPF_BENCH_ROOT)/ci/bench/baseline.sh $$a $(REV) $(or $(BENCH),full) || rc=1; \
	done; exit $$rc

evidence:
	$(tpf_bench_first_base)
	@[ -n "$(REV)" ] || { echo "make evidence: set REV= to the commit whose kernel/patches/ is the earlier series, e.g. REV=3c49ebd" >&2; exit 2; }
	@rc=0; for a in $(ARCHES); do \
		EVIDENCE_SAVE=$(EVIDENCE_SAVE) $(TPF_BENCH_ROOT)/ci/bench/evidence.sh $$a $(REV) $(or $(RUNS),3) || rc=1; \
	done; exit $$rc

bench-report:
	$(TPF_BENCH_ROOT)/bench/report.py --results $(or $(BENCH_RESULTS),$(TPF_BENCH_ROOT)/results) \
		--out $(TPF_BENCH_ROOT)/docs/benchmarks.md --plots $(TPF_BENCH_ROOT)/docs/bench

.DEFAULT_GOAL := $(tpf_bench_saved_goal)
