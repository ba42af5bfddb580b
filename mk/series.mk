# mk/series.mk - the series: its checks and the upstream submission kit (ci/series/; included by the top-level Makefile).
#
#   make checkpatch             scripts/checkpatch.pl --strict on every kernel/patches/*.patch
#   make check-spelling         codespell on the changelogs, the series' docs and docs/
#   make check-series [ARCH=a]  checkpatch + codespell + build at every patch, on both arches or ARCH
#   make check-litmus           herd7 runs the series' Documentation/litmus-tests/futex/ tests
#                               against the kernel memory model
#                               (tools/memory-model of the series' tree, or TPF_LKMM_DIR=dir) and
#                               compares each with its header's "Result:"; fixed/broken twins
#                               (ci/series/litmus.sh; herd7 from make deps, ci/deps/herd.sh)
#   make check-tuning           every bench/tuning/*.patch applies on top of the series
#   make submission V=N [SIGNOFF="Name <email>"]
#       writes outgoing/vN/ (atomically): git format-patch -vN --cover-letter --base of the
#       kernel series with Signed-off-by, per-patch To/Cc from scripts/get_maintainer.pl,
#       the cover letter from submission/cover-letter.txt, the man-pages series, and SEND.txt
#       with the exact git send-email commands.  Never sends anything.  N >= 4 (v3 was the
#       last upstream posting).  Without SIGNOFF, git config user.name/user.email is used.
#
# Packages: ci/deps/packages-submit.txt (installed by make deps).  Runs from the repository root.

tpf_series_saved_goal := $(.DEFAULT_GOAL)

TPF_SERIES_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

.PHONY: checkpatch check-spelling check-series check-litmus check-tuning submission

checkpatch:
	$(TPF_SERIES_ROOT)/ci/series/checkpatch.sh

check-spelling:
	$(TPF_SERIES_ROOT)/ci/series/spelling.sh

check-series:
	ARCHES="$(ARCHES)" $(TPF_SERIES_ROOT)/ci/series/check.sh

check-litmus:
	@$(TPF_SERIES_ROOT)/ci/series/litmus.sh

check-tuning:
	@$(TPF_SERIES_ROOT)/ci/series/tuning.sh

submission:
	$(TPF_SERIES_ROOT)/ci/series/submission.sh '$(subst ','\'',$(V))' '$(subst ','\'',$(SIGNOFF))'

.DEFAULT_GOAL := $(tpf_series_saved_goal)
