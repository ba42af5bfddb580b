# mk/lib.mk - lib/ (the TP mutex library and its LD_PRELOAD pthread shim) in the guests
# (included by the top-level Makefile).  make test already runs lib/'s tests on the kernel
# with the series (project/lib-tests, TP mode); this is the other half:
#
#   make lib-fallback [ARCH=x86_64|arm64]
#                       boot the same Debian kernel without the series (TPF_STOCK=1) and run
#                       lib/tests/run-tests.sh --expect glibc there: the shim falls back to
#                       glibc, says so once, and passes (ci/test/lib-fallback.sh; lib/README.md)
#   make real-verify [ARCH=] [KCONFIG=debug] [SECONDS=60]
#                       stress-ng --mutex and --futex with --verify under the shim, in the
#                       guest (ci/bench/real.sh ARCH verify): the program's own checks pass and
#                       the kernel prints no splat (use KCONFIG=debug: lockdep, KASAN, ...)

.PHONY: lib-fallback real-verify

lib-fallback: deps-ensure
	@rc=0; for a in $(ARCHES); do ci/test/lib-fallback.sh $$a || rc=1; done; exit $$rc

real-verify: deps-ensure
	@rc=0; for a in $(ARCHES); do \
		KCONFIG=$(KCONFIG) ci/bench/real.sh $$a verify $(or $(SECONDS),60) || rc=1; \
	done; exit $$rc
