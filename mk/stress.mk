# mk/stress.mk - reliability runs (included by the top-level Makefile).
#
#   make stress [ARCH=x86_64|arm64] [DURATION=300] [KCONFIG=debug] [CPUS=4] [SEED=n]
#                       build tests/stress/tp-stress.c statically (arguments baked in) and
#                       run it once in the guest (ci/vm/boot), on each arch (no ARCH: both)
#   make stress-fail    [ARCH=] [DURATION=60]  fail_futex + kmemleak run (KCONFIG=fail)
#   make soak DURATION=3600 [ARCH=x86_64|arm64] [KCONFIG=debug]
#                       repeated stress runs with fresh seeds on every arch until DURATION
#                       is used up; results appended to build/stress/results.tsv
#   make stress-check   host-only consistency checks (ABI tsv vs tp-badinput, configs)
#   make stress-selftest  harness self-test on the host (-E: PI emulation, 10 s)
#
# Everything runs from the repository root; see docs/reliability.md.

tpf_stress_saved_goal := $(.DEFAULT_GOAL)

TPF_STRESS_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
# Stress runs overcommit by default (4 vCPUs on the 2-core host) unless CPUS is given on
# the command line or in the environment (the top-level Makefile's own default is 2).
STRESS_CPUS = $(if $(filter command line environment,$(origin CPUS)),$(CPUS),4)

.PHONY: stress stress-fail soak stress-check stress-selftest

# Each arch runs even if the other one failed.
stress:
	@rc=0; for a in $(ARCHES); do \
		ARCH=$$a DURATION=$(or $(DURATION),300) KCONFIG=$(KCONFIG) \
		CPUS=$(STRESS_CPUS) SEED=$(SEED) STRESS_ARGS="$(STRESS_ARGS)" \
			$(TPF_STRESS_ROOT)/ci/stress/run.sh || rc=1; \
	done; exit $$rc

stress-fail:
	@rc=0; for a in $(ARCHES); do \
		ARCH=$$a DURATION=$(or $(DURATION),60) KCONFIG=$(or $(KCONFIG),fail) \
		CPUS=$(STRESS_CPUS) SEED=$(SEED) STRESS_ARGS="-F $(or $(FAIL_PERCENT),5) -L $(STRESS_ARGS)" \
			$(TPF_STRESS_ROOT)/ci/stress/run.sh || rc=1; \
	done; exit $$rc

soak:
	DURATION=$(or $(DURATION),3600) ARCHES="$(ARCHES)" KCONFIG=$(KCONFIG) \
	CPUS=$(STRESS_CPUS) $(TPF_STRESS_ROOT)/ci/stress/soak.sh

stress-check:
	$(TPF_STRESS_ROOT)/tests/contract/stress-abi-check.sh
	$(TPF_STRESS_ROOT)/tests/contract/stress-config-check.sh

stress-selftest:
	$(TPF_STRESS_ROOT)/ci/stress/selftest.sh

.DEFAULT_GOAL := $(tpf_stress_saved_goal)
