#!/usr/bin/env bash
# One tp-stress run in the guest.  Env (set by mk/stress.mk):
#   ARCH (x86_64|arm64)  DURATION (s)  KCONFIG (""|debug|fail)  CPUS  SEED  STRESS_ARGS
# Builds build/stress/tp-stress-$ARCH (arguments also baked in with -DTPS_ARGS so the
# binary runs the same without them), builds the kernel + initramfs and boots it like
# `make run`, keeps the log in build/stress/ and appends one line to
# build/stress/results.tsv (its last column is the base, BASE= / TPF_BASE).  Exit status: ci/vm/boot's (0 pass, 1 fail, 255 splat/timeout).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
arch=${ARCH:-}
arch_env "$arch"
dur=${DURATION:-300}
kcfg=${KCONFIG:-}
cpus=${CPUS:-4}
seed=${SEED:-$(( $(date +%s) ^ RANDOM ))}
out=$TPF_BUILD/stress
mkdir -p "$out"

args="-d $dur -s $seed -q"
# the debug kernel (KASAN + lockdep) is slow: a longer watchdog, fewer threads
case "$kcfg" in
debug) args="$args -w 90 -t 5 -L" ;;
fail) args="$args -w 60" ;;
*) args="$args -w 30" ;;
esac
args="$args ${STRESS_ARGS:-}"
bin=$out/tp-stress-$arch
need_cmd "$GCC"
"$GCC" -static -pthread -O2 -Wall -Wextra -Werror -DTPS_ARGS="\"$args\"" \
	-I "$TPF_ROOT/tests/include" -o "$bin" "$TPF_ROOT/tests/stress/tp-stress.c"

mem=${MEM:-1024}
[ "$kcfg" = debug ] && [ "$mem" -lt 1024 ] && mem=1024
stamp=$(date -u +%Y%m%dT%H%M%SZ)
log=$out/stress-$arch$BASE_SUFFIX-${kcfg:-default}-$stamp.log
info "tp-stress $args on $arch, base $BASE (KCONFIG=${kcfg:-none}, CPUS=$cpus) -> $log"
# ci/vm/boot builds what is missing and keeps the program's exit status:
# 0 pass, 1 fail, 4 skip, 255 panic/timeout/kernel splat.
read -ra argv <<<"$args"
set +e
KCONFIG=$kcfg "$TPF_ROOT/ci/vm/boot" --arch "$arch" --cpus "$cpus" --mem "$mem" \
	--timeout $((dur + 300)) --cmd "$bin" "${argv[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
counts=$(grep -A8 '^# counts' "$log" | grep -o '[a-z_A-Z()0-9]*=[0-9]*' | tr '\n' ' ' || true)
verdict=$(grep -E '^(not )?ok [0-9]' "$log" | sed 's/ (.*//' | tr '\n' ';' || true)
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$stamp" "$arch" "${kcfg:-default}" "$cpus" "$args" "rc=$rc" "$verdict" "$counts" "$BASE" \
	>>"$out/results.tsv"
info "tp-stress on $arch finished: rc=$rc (log $log)"
exit "$rc"
