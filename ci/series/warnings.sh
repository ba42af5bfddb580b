#!/usr/bin/env bash
# The kernel test robot's compile checks on the files the series touches: W=1 and sparse
# (C=2, sid's sparse through ci/series/sparse.sh), for each arch, at the base and at the
# series head, in the series tree that ci/kernel/tree.sh --series prepared (the caller,
# ci/series/check.sh, holds its lock).  A warning the head has and the base has not (same
# file and text, line numbers ignored; counted, so one more of an old warning is new) is
# a failure.  The objects: every .c file the series changes outside tools/ and
# Documentation/, and every kernel/*.c that includes a header the series changes and
# names futexes (the callers of the exit/exec hooks, not every includer of sched.h); a
# file the arch does not build is skipped.
# Logs: build/series[-BASE]/check/warnings/ (ARCH-base.log, ARCH-head.log, ARCH-new.txt, and
# summary.txt, one line per arch, for ci/gh/summary-series.sh).
#
#   ci/series/warnings.sh TREE   (env: ARCHES, JOBS=2, BASE)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
-h | --help | "")
	sed -n 's/^#   //p' "$0"
	[ -n "${1:-}" ] || exit 2
	exit 0
	;;
esac
tree=$1
[ -d "$tree/.git" ] || die "no series tree in '$tree': run make check-series"
top=$TPF_ROOT
sdir=${TPF_SERIES_DIR:-$top/build/series$BASE_SUFFIX}
arches=${ARCHES:-$TPF_ARCHES}
jobs=${JOBS:-2}
out=$sdir/check/warnings
rm -rf "$out"
mkdir -p "$out"
sparse=$top/ci/series/sparse.sh
"$sparse" --version >/dev/null 2>&1 || die "sparse does not run (ci/series/sparse.sh --version): run make deps"
[ "$(cd "$tree" && sh scripts/checker-valid.sh "$sparse" 2>/dev/null || true)" != 0 ] ||
	die "this tree's scripts/checker-valid.sh rejects $("$sparse" --version 2>&1): kbuild's C=2 would check nothing; run make deps for sid's sparse"

g() { git -C "$tree" -c advice.detachedHead=false "$@"; }
trap 'g checkout -q -f tpf-series 2>/dev/null || true' EXIT

# The source files to check, from the series' own diff.
mapfile -t changed < <(g diff --name-only tpf-base tpf-series -- . ':!tools' ':!Documentation')
srcs=()
for f in "${changed[@]}"; do
	[[ $f == *.c ]] && srcs+=("$f")
done
for f in "${changed[@]}"; do
	[[ $f == include/*.h ]] || continue
	h=${f#include/}
	while IFS= read -r c; do
		srcs+=("$c")
	done < <(grep -l -F "#include <$h>" "$tree"/kernel/*.c 2>/dev/null | xargs -r grep -l -w -i futex |
		sed "s#^$tree/##" || true)
done
mapfile -t srcs < <(printf '%s\n' "${srcs[@]}" | sort -u)
((${#srcs[@]})) || die "the series changes no .c file: nothing for W=1 and sparse to check"

# file: message, with the build dir, line and column taken out.
norm() {
	sed -e "s#^$tree/##" -e 's#^\(\.\./\)*##' "$1" |
		sed -n -E 's#^([^: ]+):[0-9]+(:[0-9]+)?: (warning|error): (.*)$#\1: \3: \4#p' | sort
}

fail=0
for a in $arches; do
	arch_env "$a"
	obj=$sdir/obj-warn/$a
	objs=()
	for s in "${srcs[@]}"; do
		case $s in
		arch/*) [[ $s == arch/$KARCH/* ]] || continue ;;
		esac
		objs+=("${s%.c}.o")
	done
	for rev in base head; do
		c=tpf-base
		[ "$rev" = base ] || c=tpf-series
		g checkout -q -f "$c"
		log=$out/$a-$rev.log
		have=()
		for o in "${objs[@]}"; do
			[ -f "$tree/${o%.o}.c" ] && have+=("$o")
		done
		TPF_CONFIG_PREFIX=1 "$top/ci/kernel/config.sh" "$a" "$tree" "$obj" >"$log" 2>&1 ||
			die "config for $a at $c failed: see ${log#"$top"/}"
		# C=2 checks every named object, rebuilt or not; W=1 needs the rebuild, so the
		# objects go first.
		(cd "$obj" && rm -f "${have[@]}")
		flock "${TPF_BUILD_LOCK:-/tmp/tpf-build.lock}" make -C "$tree" O="$obj" ARCH="$KARCH" \
			CROSS_COMPILE="$CROSS" CC="ccache $GCC" -j"$jobs" W=1 C=2 CHECK="$sparse" \
			"${have[@]}" >>"$log" 2>&1 ||
			die "the W=1 C=2 build of ${have[*]} for $a at $c failed: see ${log#"$top"/}"
		grep -q -E '^  CHECK ' "$log" || die "sparse checked nothing for $a at $c: see ${log#"$top"/}"
	done
	nb=$(norm "$out/$a-base.log" | wc -l)
	nh=$(norm "$out/$a-head.log" | wc -l)
	comm -13 <(norm "$out/$a-base.log") <(norm "$out/$a-head.log") >"$out/$a-new.txt"
	nn=$(wc -l <"$out/$a-new.txt")
	printf '  %-7s W=1 + sparse on %d files: %d warnings at the base, %d at the head, %d new\n' \
		"$a" "${#objs[@]}" "$nb" "$nh" "$nn" | tee -a "$out/summary.txt"
	if [ "$nn" -gt 0 ]; then
		sed 's/^/    new: /' "$out/$a-new.txt"
		fail=1
	fi
done
g checkout -q -f tpf-series
[ "$fail" = 0 ] || die "the series adds W=1 or sparse warnings (above; logs in ${out#"$top"/}/)"
