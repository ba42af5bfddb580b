# tp-futex: the single entry point.  `make help` lists the targets.
#
#   make all                 build both arches, boot, test, bench (the main job)
#   make test [ARCH=arm64] [BASE=7.2]   build, boot and run the test suite
#   make run ARCH=arm64 CMD=path/to/static-binary-or-script [ARGS="..."]
#
# The scripts behind every target live in ci/; mk/*.mk add the docs,
# bench, stress and submission targets.

SHELL := /bin/bash
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

# The arches are the rows of ci/arches.tsv (the arch table).  ARCHES: the ones a target
# runs on, ARCH=one of them or all of them; every target in mk/*.mk loops over ARCHES.
ALL_ARCHES := $(shell awk '!/^\#/ && NF { print $$1 }' $(dir $(firstword $(MAKEFILE_LIST)))ci/arches.tsv)
ifneq ($(filter-out $(ALL_ARCHES),$(ARCH)),)
$(error unknown ARCH '$(ARCH)': use one of $(ALL_ARCHES), or leave it unset for all)
endif
ARCHES := $(if $(ARCH),$(ARCH),$(ALL_ARCHES))
# The kernel bases are the rows of ci/bases.tsv (the base table).  BASE=one of them;
# unset, make test runs every base whose "test" column says yes, and every other target
# the first row's.  The scripts read it as TPF_BASE.
TPF_BASES_TSV := $(dir $(firstword $(MAKEFILE_LIST)))ci/bases.tsv
ALL_BASES := $(shell awk '!/^\#/ && NF { print $$1 }' $(TPF_BASES_TSV))
ifneq ($(filter-out $(ALL_BASES),$(BASE))$(word 2,$(BASE)),)
$(error unknown BASE '$(BASE)': use one of $(ALL_BASES), or leave it unset)
endif
BASES := $(if $(BASE),$(BASE),$(shell awk '!/^\#/ && NF && $$5 == "yes" { print $$1 }' $(TPF_BASES_TSV)))
ifneq ($(BASE),)
export TPF_BASE := $(BASE)
endif
# base_suffix B: "" for the first row, "-B" for the others (build/results/<arch>-7.2).
base_suffix = $(if $(filter $(1),$(firstword $(ALL_BASES))),,-$(1))
KCONFIG ?=
CPUS ?= 2
MEM ?= 1024
ACCEL ?= auto
export KCONFIG CPUS MEM ACCEL

RESULTS = $(foreach b,$(BASES),$(foreach a,$(ARCHES),build/results/$(a)$(call base_suffix,$(b))$(if $(KCONFIG),-$(KCONFIG))))

.PHONY: help deps deps-ensure kernel initramfs test run report all \
	series-edit series-export clean

help:
	@sed -n 's/^#   //p' Makefile
	@echo
	@echo "targets: deps kernel initramfs test run report all series-edit series-export clean"
	@echo "         man docs docs-kernel bench perf stress soak submission check-series check-workflows check-litmus check-port check-tuning static-checks"
	@echo "         lib-fallback (lib/ on the kernel without the series; mk/lib.mk)"
	@echo "         ci-job JOB=<job>|cheap (run a GitHub Actions job's script in a fresh clone; see docs/ci-local.md)"
	@echo "vars:    ARCH=x86_64|arm64 BASE=$(subst $(eval) ,|,$(ALL_BASES)) KCONFIG=<kernel/config/NAME.config> CPUS=$(CPUS) MEM=$(MEM) ACCEL=auto|tcg|kvm"

deps:
	@ci/deps/install.sh

deps-ensure:
	@ci/deps/install.sh --ensure

kernel: deps-ensure
	@for b in $(BASES); do for a in $(ARCHES); do TPF_BASE=$$b ci/kernel/build.sh $$a $(KCONFIG) >/dev/null || exit 1; done; done

initramfs: kernel
	@for b in $(BASES); do for a in $(ARCHES); do TPF_BASE=$$b ci/guest/build.sh $$a $(KCONFIG) >/dev/null || exit 1; done; done

# The splat denylist is checked first (the verdict relies on it); then each arch
# is built, booted and judged even if the other one failed.
test: deps-ensure
	@ci/vm/splat-selftest.sh
	@rc=0; \
	for b in $(BASES); do for a in $(ARCHES); do TPF_BASE=$$b ci/test/arch.sh $$a $(KCONFIG) || rc=1; done; done; \
	echo; ci/test/report.sh $(RESULTS) || rc=1; \
	exit $$rc

report:
	@ci/test/report.sh $(RESULTS)

# make run: boot the patched kernel and run one host file in the guest.
# CPUS MEM KCONFIG ACCEL TIMEOUT apply; PERF_GUEST=file puts it at /usr/bin/perf.
# ci/vm/boot exits with the guest program's status (make itself can only say 2).
run: deps-ensure
	@test -n "$(CMD)" || { echo "make run: no CMD given: use make run ARCH=x86_64 CMD=path/to/file [ARGS='...']" >&2; exit 1; }
	@test -f "$(firstword $(CMD))" || { echo "make run: CMD '$(firstword $(CMD))' does not exist on the host: give a static binary or a shell script" >&2; exit 1; }
	@test $(words $(ARCHES)) = 1 || { echo "make run: give one ARCH: ARCH=x86_64 or ARCH=arm64" >&2; exit 1; }
	@ci/vm/boot --arch $(ARCHES) $(if $(TIMEOUT),--timeout $(TIMEOUT)) \
		$(if $(PERF_GUEST),--file /usr/bin/perf=$(PERF_GUEST)) --cmd $(CMD) $(ARGS)

all: deps
	@$(MAKE) test
	@$(MAKE) perf
	@$(MAKE) bench BENCH=quick

# The series round trip: edit the series as git commits, export it back.
series-edit: deps-ensure
	@ci/series/edit.sh edit

series-export:
	@ci/series/edit.sh export

clean:
	rm -rf build

-include $(sort $(wildcard mk/*.mk))
