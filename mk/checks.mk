# mk/checks.mk - checks of the pipeline itself, and all static checks in one target (included by the top-level Makefile).
#
#   make check-shell            shellcheck (all severities) on every shell file: ci/, tests/, bench/real, lib/tests, .ci/run
#   make check-splat            ci/vm/splat-denylist.txt against tests/splat/ (catches every sample
#                               splat, passes real debug-kernel boot lines)
#   make check-vm [ARCH=a]      ci/vm/boot's verdicts on real boots: tests/hooks/exit3.sh gives 3,
#                               panic.sh and warn.sh 255 (ci/vm/check-vm.sh)
#   make static-checks          check-shell check-splat check-litmus check-workflows
#                               check-spelling checkpatch check-port check-tuning
#
# Packages: ci/deps/packages.txt (installed by make deps).  Runs from the repository root.

tpf_checks_saved_goal := $(.DEFAULT_GOAL)

TPF_CHECKS_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

.PHONY: check-shell check-splat check-vm static-checks

check-shell:
	@command -v shellcheck >/dev/null || { echo "check-shell: missing tool 'shellcheck': run 'make deps'" >&2; exit 1; }
	cd $(TPF_CHECKS_ROOT) && shellcheck -x -P SCRIPTDIR ci/*.sh ci/*/*.sh ci/vm/boot ci/guest/init tests/contract/*.sh bench/real/*.sh \
		lib/tests/*.sh tests/hooks/*.sh tests/evidence/*.sh $(wildcard $(TPF_CHECKS_ROOT)/.ci/run)
	@echo "check-shell: clean"

check-splat:
	@$(TPF_CHECKS_ROOT)/ci/vm/splat-selftest.sh

check-vm:
	@rc=0; for a in $(ARCHES); do $(TPF_CHECKS_ROOT)/ci/vm/check-vm.sh $$a || rc=1; done; exit $$rc

static-checks: check-shell check-splat check-litmus check-workflows check-spelling checkpatch check-port check-tuning

.DEFAULT_GOAL := $(tpf_checks_saved_goal)
