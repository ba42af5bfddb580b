# mk/submit.mk - the upstream submission kit (included by the top-level Makefile).
#
#   make submission V=N [SIGNOFF="Name <email>"]
#       writes outgoing/vN/ (atomically): git format-patch -vN --cover-letter --base of the
#       kernel series with Signed-off-by, per-patch To/Cc from scripts/get_maintainer.pl,
#       the cover letter from submission/cover-letter.txt, the man-pages series, and SEND.txt
#       with the exact git send-email commands.  Never sends anything.  N >= 4 (v3 was the
#       last upstream posting).  Without SIGNOFF, git config user.name/user.email is used.
#
# Packages: ci/deps/packages-submit.txt.  Runs from the repository root.

tpf_submit_saved_goal := $(.DEFAULT_GOAL)

TPF_SUBMIT_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

.PHONY: submission

submission:
	$(TPF_SUBMIT_ROOT)/ci/series/submission.sh '$(subst ','\'',$(V))' '$(subst ','\'',$(SIGNOFF))'

.DEFAULT_GOAL := $(tpf_submit_saved_goal)
