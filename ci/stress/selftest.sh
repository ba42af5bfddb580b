#!/usr/bin/env bash
# Harness self-test on the host kernel (no guest, no TP series needed): tp-stress -E maps
# FUTEX_LOCK/UNLOCK onto LOCK_PI2/UNLOCK_PI, which share the word protocol, timeouts and
# robust handling, so the checks, the kill/robust bookkeeping and the TAP output are
# exercised end to end.  Also builds both tests for arm64 to keep them warning-free,
# against the host's uapi headers (no FUTEX_LOCK there: tests/include/tp-futex.h has it)
# and the kernel tree's kselftest.h (ci/kernel/tree.sh extracts it if it is not there).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
out=$TPF_BUILD/stress
mkdir -p "$out"
src=$("$TPF_ROOT/ci/kernel/tree.sh")
inc=(-I "$src/tools/testing/selftests" -I "$TPF_ROOT/tests/include")
for arch in $TPF_ARCHES; do
	arch_env "$arch"
	need_cmd "$GCC"
	"$GCC" -static -pthread -O2 -Wall -Wextra -Werror "${inc[@]}" \
		-o "$out/tp-stress-$arch" "$TPF_ROOT/tests/stress/tp-stress.c"
	"$GCC" -static -pthread -O2 -Wall -Wextra -Werror "${inc[@]}" \
		-o "$out/tp-badinput-$arch" "$TPF_ROOT/tests/guest/tp-badinput.c"
done
if ! "$out/tp-stress-x86_64" -E -d "${DURATION:-10}" -w 20 -p 2 -t 4 -q >"$out/selftest.log" 2>&1; then
	grep -E '^(not ok|# error|# tp-stress -s)' "$out/selftest.log" >&2
	die "tp-stress -E (PI emulation) failed on the host: see $out/selftest.log"
fi
info "self-test: tp-stress -E passed ($(grep -o 'acquisitions=[0-9]*' "$out/selftest.log"))"
# The checker must catch a broken lock: -X enters the critical section without the lock.
if "$out/tp-stress-x86_64" -E -X -d 3 -w 20 -p 2 -t 4 -K -q >"$out/selftest-X.log" 2>&1; then
	die "tp-stress -X (broken lock) passed: the mutual-exclusion checker is blind (log: $out/selftest-X.log)"
fi
grep -q '^not ok 1 mutual exclusion' "$out/selftest-X.log" ||
	die "tp-stress -X failed, but not on mutual exclusion (log: $out/selftest-X.log)"
info "self-test: -X broken lock detected: $(grep -c 'mutual exclusion: tid' "$out/selftest-X.log") CS violations reported"
