#!/usr/bin/env bash
# Harness self-test on the host kernel (no guest, no TP series needed): tp-stress -E maps
# FUTEX_LOCK/UNLOCK onto LOCK_PI2/UNLOCK_PI, which share the word protocol, timeouts and
# robust handling, so the checks, the kill/robust bookkeeping and the TAP output are
# exercised end to end.  Also builds both tests for arm64 to keep them warning-free.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
out=$TPF_BUILD/stress
mkdir -p "$out"
for arch in $TPF_ARCHES; do
	arch_env "$arch"
	"$GCC" -static -pthread -O2 -Wall -Wextra -Werror -o "$out/tp-stress-$arch" "$TPF_ROOT/tests/stress/tp-stress.c"
	"$GCC" -static -pthread -O2 -Wall -Wextra -Werror -o "$out/tp-badinput-$arch" "$TPF_ROOT/tests/guest/tp-badinput.c"
done
"$out/tp-stress-x86_64" -E -d "${DURATION:-10}" -w 20 -p 2 -t 4 -q
