# mk/series.mk - the series: its checks and the upstream submission kit (ci/series/; included by the top-level Makefile).
#
#   make checkpatch             scripts/checkpatch.pl --strict on every patch of every base's series
#                               (kernel/patches/, kernel/patches-7.2/), each with its own tree's
#                               checkpatch.pl; BASE= one base
#   make check-spelling         codespell on the changelogs, the series' docs and docs/ (every base
#                               or BASE=)
#   make check-series [ARCH=a]  checkpatch + codespell + reflow leftovers + build at every patch,
#                               the head with PREEMPT_RT, and W=1 + sparse (sid's, make deps)
#                               on the files the series touches, base against head; on both
#                               arches or ARCH (ci/series/check.sh)
#   make check-litmus [BASE=]   herd7 runs the series' Documentation/litmus-tests/futex/ tests
#                               (every base of ci/bases.tsv unless BASE= is given)
#                               against the kernel memory model
#                               (tools/memory-model of the series' tree, or TPF_LKMM_DIR=dir) and
#                               compares each with its header's "Result:"; fixed/broken twins
#                               (ci/series/litmus.sh; herd7 from make deps, ci/deps/herd.sh)
#   make check-port [UPDATE=1]  the series of every base against the submission series, patch by
#                               patch (subjects pair them): every difference in a changelog or a
#                               file's changed lines must be in kernel/port.tsv with its exact
#                               size and its reason, so a fix that reached one series only
#                               fails (ci/series/port.py; UPDATE=1 rewrites the sizes)
#   make check-tuning           every bench/tuning/*.patch applies on top of the series
#   make sizes [BASE=] [ARCH=]  sizeof(struct futex_hash_bucket) and sizeof(struct task_struct)
#                               at the base and the series head, per arch, for the test, rt,
#                               Debian and Debian-rt configs (ci/series/sizes.sh; the table
#                               of docs/series-design.md "Sizes")
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

.PHONY: checkpatch check-spelling check-series check-litmus check-port check-tuning sizes submission

# Every base unless BASE= is given: a static check of one base's series lets the other rot.
tpf_check_bases = $(if $(BASE),$(BASE),$(ALL_BASES))

checkpatch:
	@rc=0; for b in $(tpf_check_bases); do \
		echo "== checkpatch: base $$b"; TPF_BASE=$$b $(TPF_SERIES_ROOT)/ci/series/checkpatch.sh || rc=1; \
	done; exit $$rc

check-spelling:
	@rc=0; for b in $(tpf_check_bases); do \
		TPF_BASE=$$b $(TPF_SERIES_ROOT)/ci/series/spelling.sh || rc=1; \
	done; exit $$rc

check-series:
	ARCHES="$(ARCHES)" $(TPF_SERIES_ROOT)/ci/series/check.sh

check-litmus:
	@rc=0; for b in $(tpf_check_bases); do \
		echo "== check-litmus: base $$b"; TPF_BASE=$$b $(TPF_SERIES_ROOT)/ci/series/litmus.sh || rc=1; \
	done; exit $$rc

check-port:
	@python3 $(TPF_SERIES_ROOT)/ci/series/port.py $(if $(filter 1,$(UPDATE)),--update)

check-tuning:
	@$(TPF_SERIES_ROOT)/ci/series/tuning.sh

sizes:
	@rc=0; for b in $(tpf_check_bases); do \
		echo "== sizes: base $$b"; TPF_BASE=$$b ARCHES="$(ARCHES)" $(TPF_SERIES_ROOT)/ci/series/sizes.sh || rc=1; \
	done; exit $$rc

submission:
	$(TPF_SERIES_ROOT)/ci/series/submission.sh '$(subst ','\'',$(V))' '$(subst ','\'',$(SIGNOFF))'

.DEFAULT_GOAL := $(tpf_series_saved_goal)
