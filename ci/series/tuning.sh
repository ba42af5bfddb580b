#!/usr/bin/env bash
# make check-tuning: every bench/tuning/*.patch (the experiment kernels of make bench-tuning)
# still applies on top of the series.  A variant that no longer applies fails make bench-tuning
# only after half an hour of benchmarks; this finds it in seconds, in the static job.
# Uses the series tree of ci/kernel/tree.sh --series (build/series/linux, shared with make checkpatch).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
-h | --help)
	echo "usage: ci/series/tuning.sh   (checks bench/tuning/*.patch against the series)"
	exit 0
	;;
"") ;;
*) die "unknown argument '$1': it takes none (see --help)" ;;
esac

info_line=$("$TPF_ROOT/ci/kernel/tree.sh" --series) || die "ci/kernel/tree.sh --series failed: see its output above"
tree=$(sed -n 's/.* tree=\([^ ]*\) .*/\1/p' <<<"$info_line")
[ -d "$tree/.git" ] || die "no series tree in '$tree': remove build/series and rerun"

shopt -s nullglob
patches=("$TPF_ROOT"/bench/tuning/*.patch)
shopt -u nullglob
[ ${#patches[@]} -gt 0 ] || die "no bench/tuning/*.patch: nothing to check"

rc=0
for p in "${patches[@]}"; do
	if out=$(git -C "$tree" apply --check "$p" 2>&1); then
		echo "check-tuning: ok    $(basename "$p")"
	else
		echo "check-tuning: FAIL  $(basename "$p") does not apply to the series: rebase it (make series-edit, docs/bench-tuning.md): $(head -n1 <<<"$out")" >&2
		rc=1
	fi
done
echo "check-tuning: ${#patches[@]} variant patches checked"
exit $rc
