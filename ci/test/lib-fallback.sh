#!/usr/bin/env bash
# make lib-fallback: lib/'s tests on a kernel without the series.  Boots the same Debian
# kernel without kernel/patches (TPF_STOCK=1, the kernel make bench-exit compares with) and runs
# lib/tests/run-tests.sh --expect glibc in it: FUTEX_LOCK gives ENOSYS there, the library test
# must skip, and the shim must fall back to glibc, say so in one line and pass every test.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
-h | --help)
	echo "usage: ci/test/lib-fallback.sh ARCH"
	exit 0
	;;
esac
[ $# -eq 1 ] || die "give one ARCH (x86_64 or arm64): ci/test/lib-fallback.sh ARCH"
arch=$1
arch_env "$arch"

out=$TPF_BUILD/results/lib-fallback-$arch
mkdir -p "$out"
rc=0
TPF_STOCK=1 "$TPF_ROOT/ci/vm/boot" --arch "$arch" --timeout 300 --log "$out/serial.log" \
	--cmd "$TPF_ROOT/lib/tests/run-tests.sh" --expect glibc /tpf/lib >/dev/null || rc=$?
grep -E '^(not )?ok [0-9]|^# [0-9]+ suites' "$out/serial.log" | sed "s/^/lib-fallback $arch: /"
if [ "$rc" -ne 0 ]; then
	echo "lib-fallback $arch: FAIL (exit $rc; serial log: $out/serial.log)" >&2
	exit 1
fi
echo "lib-fallback $arch: pass (kernel without the series; serial log: $out/serial.log)"
