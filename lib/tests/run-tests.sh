#!/bin/sh
# Run the lib/ tests and print TAP: one line per suite, the suite's own TAP
# indented below it.  Exit 1 if a suite failed.
#
#	run-tests.sh [--expect tp|glibc] [DIR]
#
# DIR holds libtp-shim.so and tests/ (a build output
# directory, or an installed copy); by default the parent of this script's
# directory.  Without --expect the shim's mode follows from the kernel (TP
# if the library test ran, glibc if it skipped); --expect makes a kernel
# that gives the other answer a failure (the guests: tp on the series,
# glibc on the same Debian kernel without it).  POSIX sh: runs under bash, dash and busybox ash (applets:
# env, grep, mkdir, rm, sed).
set -eu
# shellcheck disable=SC3040 # pipefail where the shell has it (not dash 0.5.12)
if (set -o pipefail) 2>/dev/null; then set -o pipefail; fi

expect=
if [ "${1:-}" = --expect ]; then
	case "${2:-}" in
	tp | glibc) expect=$2 ;;
	*)
		echo "run-tests.sh: --expect takes tp or glibc, not '${2:-}'" >&2
		exit 2
		;;
	esac
	shift 2
fi
case $0 in
*/*) here=${0%/*} ;;
*) here=. ;;
esac
dir=$(cd "${1:-$here/..}" && pwd)
tmp=${TMPDIR:-/tmp}/tp-lib-tests.$$
mkdir "$tmp"
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

# suite NAME STDERR_LINES [VAR=value...] PROGRAM [ARG...]
# Runs PROGRAM under env(1) with the variables; the suite passes if it
# exits 0 (or 4, a kselftest skip) and printed STDERR_LINES lines starting
# with "tp-shim:" on stderr.
suite() {
	name=$1
	lines=$2
	shift 2
	n=$((n + 1))
	rc=0
	env "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	sed 's/^/    /' "$tmp/out"
	sed 's/^/    # stderr: /' "$tmp/err"
	got=$(grep -c '^tp-shim:' "$tmp/err" || true)
	if [ "$rc" -eq 4 ]; then
		echo "ok $n $name # SKIP"
	elif [ "$rc" -eq 0 ] && [ "$got" -eq "$lines" ]; then
		echo "ok $n $name"
	else
		echo "not ok $n $name (exit $rc, $got tp-shim lines on stderr, want $lines)"
		failed=$((failed + 1))
	fi
}

echo "TAP version 13"
echo "1..$((${expect:+1} + 4))"
suite "tp-mutex on the kernel's FUTEX_LOCK" 0 "$dir/tests/test-tp-mutex"
# The shim's mode follows from the kernel: TP if the library test ran.
if [ "$rc" -eq 4 ]; then
	kernel_mode=glibc kernel_lines=1
else
	kernel_mode=tp kernel_lines=0
fi
if [ -n "$expect" ]; then
	n=$((n + 1))
	if [ "$kernel_mode" = "$expect" ]; then
		echo "ok $n this kernel gives the shim $expect mode, as expected"
	else
		echo "not ok $n this kernel gives the shim $kernel_mode mode, expected $expect"
		failed=$((failed + 1))
	fi
fi
suite "pthread test without the shim" 0 "$dir/tests/test-shim" none
suite "libtp-shim.so ($kernel_mode on this kernel)" "$kernel_lines" \
	LD_PRELOAD="$dir/libtp-shim.so" "$dir/tests/test-shim" "$kernel_mode"
suite "libtp-shim.so, TP_SHIM_FORCE_FALLBACK=1 (glibc)" 1 \
	TP_SHIM_FORCE_FALLBACK=1 LD_PRELOAD="$dir/libtp-shim.so" \
	"$dir/tests/test-shim" glibc
echo "# $n suites, $failed failed"
[ "$failed" -eq 0 ]
