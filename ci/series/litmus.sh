#!/usr/bin/env bash
# make check-litmus: run every litmus test of the series (Documentation/litmus-tests/futex/
# of the series' tree) through herd7 against the Linux kernel memory model
# (tools/memory-model of the same tree) and compare each result
# with the one its header predicts ("Result: Never|Sometimes|Always", as upstream's
# litmus tests have it).  Prints a table; fails if any result differs, if herd7 gives
# no verdict, or if a folder's *-fixed and *-broken tests are not in twin pairs (a
# *-fixed test must predict Never, its *-broken twin must not).
#
#   ci/series/litmus.sh [FILE.litmus...]   (default: every test in TPF_LITMUS_DIR)
#
# Env: TPF_LKMM_DIR      the memory model (default: tools/memory-model of the series'
#                        litmus tree, below)
#      TPF_LITMUS_DIR    the tests (default: Documentation/litmus-tests/futex of the
#                        series' litmus tree)
#      TPF_LITMUS_TIMEOUT  seconds per test (default 600)
#
# The litmus tree (ci/kernel/tree.sh --litmus: build/litmus/<series key>/) is the part of
# the series' kernel tree that herd7 reads, under a megabyte instead of the full tree's 4 GB.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
-h | --help)
	sed -n 's/^#   //p' "$0"
	exit 0
	;;
esac

# The tests are part of the series: take them from the series' litmus tree.
tree=
if [ -n "${TPF_LITMUS_DIR:-}" ]; then
	tests_dir=$TPF_LITMUS_DIR
elif [ $# -gt 0 ]; then
	tests_dir=$(dirname "$1")
else
	tree=$("$TPF_ROOT/ci/kernel/tree.sh" --litmus)
	tests_dir=$tree/Documentation/litmus-tests/futex
	[ -d "$tests_dir" ] ||
		die "the series adds no Documentation/litmus-tests/futex/: check kernel/patches/"
fi
[ ! -d "$tests_dir" ] || tests_dir=$(realpath "$tests_dir")
timeout_s=${TPF_LITMUS_TIMEOUT:-600}

# The herd7 that ci/series/herd7.sh runs; one line and out if there is none.
if [ ! -x "${TPF_HERD_ROOT:-$TPF_BUILD/deps/sid/herd}/usr/bin/herd7" ] &&
	! command -v herd7 >/dev/null 2>&1; then
	echo "check-litmus: herd7 is missing: run make deps" >&2
	exit 1
fi
herd_version=$("$TPF_ROOT/ci/series/herd7.sh" -version 2>&1) ||
	die "herd7 does not run ($herd_version): run make deps"

# The memory model: the series' (it may patch tools/memory-model too).
if [ -n "${TPF_LKMM_DIR:-}" ]; then
	lkmm=$TPF_LKMM_DIR
else
	[ -n "$tree" ] || tree=$("$TPF_ROOT/ci/kernel/tree.sh" --litmus)
	lkmm=$tree/tools/memory-model
fi
[ -f "$lkmm/linux-kernel.cfg" ] || die "no linux-kernel.cfg in $lkmm: set TPF_LKMM_DIR to a tools/memory-model directory"

if [ $# -gt 0 ]; then
	files=()
	for f in "$@"; do
		[ -f "$f" ] || die "no such litmus test: $f"
		files+=("$(realpath "$f")")
	done
else
	[ -d "$tests_dir" ] || die "no $tests_dir: nothing to check"
	mapfile -t files < <(find "$tests_dir" -name '*.litmus' -type f | sort)
	[ ${#files[@]} -gt 0 ] || die "no *.litmus under $tests_dir"
fi

rc=0
bad=()

# Twin pairs, per folder: every X-fixed.litmus has an X-broken.litmus and vice versa.
if [ $# -eq 0 ]; then
	fixed=0
	pairs=0
	for f in "${files[@]}"; do
		case "$f" in
		*-fixed.litmus)
			fixed=$((fixed + 1))
			if [ -f "${f%-fixed.litmus}-broken.litmus" ]; then
				pairs=$((pairs + 1))
			else
				bad+=("${f#"$tests_dir"/}: no broken twin $(basename "${f%-fixed.litmus}-broken.litmus")")
			fi
			;;
		*-broken.litmus)
			[ -f "${f%-broken.litmus}-fixed.litmus" ] ||
				bad+=("${f#"$tests_dir"/}: no fixed twin $(basename "${f%-broken.litmus}-fixed.litmus")")
			;;
		esac
	done
	if [ "$pairs" -lt "$fixed" ] || [ ${#bad[@]} -gt 0 ]; then
		rc=1
	fi
fi

# expected FILE: the word after "Result:" in the header comment.
expected() {
	sed -n 's/^[( ]\* Result: *\([A-Za-z]*\).*/\1/p' "$1" | head -n1
}

echo "check-litmus: $herd_version; model $lkmm"
printf '%-44s %-10s %-10s %7s %7s\n' test expected got states time
passed=0
failed=0
for f in "${files[@]}"; do
	name=${f#"$tests_dir"/}
	want=$(expected "$f")
	out=$(cd "$lkmm" && timeout "$timeout_s" "$TPF_ROOT/ci/series/herd7.sh" -conf linux-kernel.cfg "$f" 2>&1) || true
	got=$(awk '$1 == "Observation" { print $3; exit }' <<<"$out")
	states=$(awk '$1 == "States" { print $2; exit }' <<<"$out")
	t=$(awk '$1 == "Time" { print $3; exit }' <<<"$out")
	why=
	if [ -z "$want" ]; then
		why="no 'Result:' line in the header"
	elif [ -z "$got" ]; then
		why="herd7 gave no verdict: $(grep -m1 -i 'error\|warning' <<<"$out" || tail -n1 <<<"$out")"
	elif [ "$got" != "$want" ]; then
		why="expected $want, herd7 says $got"
	else
		case "$f" in
		*-fixed.litmus) [ "$want" = Never ] || why="a -fixed test must predict Never" ;;
		*-broken.litmus) [ "$want" != Never ] || why="a -broken test must not predict Never" ;;
		esac
	fi
	printf '%-44s %-10s %-10s %7s %7s\n' "$name" "${want:--}" "${got:--}" "${states:--}" "${t:--}"
	if [ -n "$why" ]; then
		bad+=("$name: $why")
		failed=$((failed + 1))
		rc=1
	else
		passed=$((passed + 1))
	fi
done

if [ $# -eq 0 ]; then
	echo "check-litmus: $pairs fixed/broken pairs for $fixed fixed tests"
fi
for b in "${bad[@]}"; do
	echo "check-litmus: FAIL $b" >&2
done
echo "check-litmus: $passed passed, $failed failed"
exit $rc
