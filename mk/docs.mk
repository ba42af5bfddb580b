# mk/docs.mk - man pages and contributor docs (included by the top-level Makefile).
#
#   make man            build futex.2 (+ series) and the 2const pages into build/man,
#                       lint them (zero warnings), compile the EXAMPLES, run the
#                       errno cross-check against tests/contract/tp-futex-abi.tsv
#                       (man-check), man-selftest and man-upstream
#   make man-check      the cross-check on both kernel bases: 6.12's rows against
#                       build/man and kernel/patches, 7.2's against the man-pages
#                       6.20 tree of man-upstream and kernel/patches-7.2
#                       (tests/contract/man-bases.tsv)
#   make man-selftest   prove the cross-check fails on mutated copies of the pages
#                       (both bases' pages), of the series and of the ABI table
#   make man-upstream   the RFC series for upstream man-pages (man-pages/patches-6.20):
#                       git am onto man-pages 6.20's tree (rebuilt from Debian sid's
#                       manpages-dev, nothing installed) and lint it as upstream does;
#                       make man runs it too
#   make docs           render docs/*.md (+ tp-futex.rst from the series) to build/docs
#   make docs-kernel    kernel htmldocs (SPHINXDIRS=locking, -W) on the series-applied tree
#
# Packages: ci/deps/packages-docs.txt.  Everything runs from the repository root.

# Keep whatever default goal the including Makefile has (or will define).
tpf_docs_saved_goal := $(.DEFAULT_GOAL)

TPF_DOCS_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
MAN_OUT ?= $(TPF_DOCS_ROOT)/build/man
DOCS_OUT ?= $(TPF_DOCS_ROOT)/build/docs

.PHONY: man man-build man-lint man-examples man-check man-selftest man-upstream docs docs-kernel

man: man-lint man-examples man-check man-selftest man-upstream

man-build:
	$(TPF_DOCS_ROOT)/ci/docs/man-build.sh $(MAN_OUT)

man-lint: man-build
	$(TPF_DOCS_ROOT)/ci/docs/man-lint.sh $(MAN_OUT)

man-examples: man-build
	$(TPF_DOCS_ROOT)/ci/docs/man-examples.sh $(MAN_OUT)

# Every base of ci/bases.tsv, each against its pages (tests/contract/man-bases.tsv: a base
# without a row there fails); the pages of the first base are the ones man-build writes to
# MAN_OUT.  7.2's pages are the tree that man-upstream rebuilds and checks, so it runs first.
man-check: man-build man-upstream
	@rc=0; for b in $(ALL_BASES); do \
		$(TPF_DOCS_ROOT)/tests/contract/man-check.sh --base $$b \
			$$([ "$$b" = "$(firstword $(ALL_BASES))" ] && echo '$(MAN_OUT)') || rc=1; \
	done; exit $$rc

man-selftest: man-build man-upstream
	$(TPF_DOCS_ROOT)/ci/docs/man-selftest.sh $(MAN_OUT)

man-upstream:
	$(TPF_DOCS_ROOT)/ci/docs/man-upstream.sh check

docs:
	$(TPF_DOCS_ROOT)/ci/docs/build.sh $(DOCS_OUT)

docs-kernel:
	$(TPF_DOCS_ROOT)/ci/docs/kernel.sh

.DEFAULT_GOAL := $(tpf_docs_saved_goal)
