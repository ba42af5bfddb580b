#!/bin/sh
# Check that every option of a kernel/config fragment survives
# tinyconfig + common + <arch> + <fragment> + olddefconfig (config step only, no build).
# Usage: ci/stress-config-check.sh [fragment-name ...]   (default: debug fail)
# Env: KSRC (kernel tree, default /work/ref/linux-source-6.12, never written: O= build dir),
#      ARCHES (default "x86_64 arm64"), OUT (scratch dir, default /tmp/tpf-stress-cfg).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
KSRC=${KSRC:-/work/ref/linux-source-6.12}
ARCHES=${ARCHES:-"x86_64 arm64"}
OUT=${OUT:-/tmp/tpf-stress-cfg}
FRAGS=${*:-"debug fail"}
rc=0
for frag in $FRAGS; do
  for arch in $ARCHES; do
    case $arch in
      x86_64) karch=x86_64; cross= ;;
      arm64)  karch=arm64;  cross=aarch64-linux-gnu- ;;
      *) echo "unknown arch $arch" >&2; exit 2 ;;
    esac
    o=$OUT/$frag-$arch
    rm -rf "$o"; mkdir -p "$o"
    make -s -C "$KSRC" O="$o" ARCH=$karch CROSS_COMPILE=$cross tinyconfig >/dev/null
    KCONFIG_CONFIG="$o/.config" "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$o" "$o/.config" \
      "$TOP/kernel/config/common.config" "$TOP/kernel/config/$arch.config" \
      "$TOP/kernel/config/$frag.config" >"$o/merge.log" 2>&1
    make -s -C "$KSRC" O="$o" ARCH=$karch CROSS_COMPILE=$cross olddefconfig >/dev/null
    bad=0
    for f in "$TOP/kernel/config/common.config" "$TOP/kernel/config/$arch.config" "$TOP/kernel/config/$frag.config"; do
      while IFS= read -r line; do
        case $line in
          CONFIG_*=*) grep -qxF "$line" "$o/.config" || { echo "DROPPED [$frag/$arch] $line -> $(grep -E "^(# )?${line%%=*}[= ]" "$o/.config" || echo absent)"; bad=1; } ;;
          "# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}
             if grep -q "^$opt=" "$o/.config"; then echo "DROPPED [$frag/$arch] $line -> $(grep "^$opt=" "$o/.config")"; bad=1; fi ;;
        esac
      done <"$f"
    done
    if [ $bad = 0 ]; then echo "ok $frag/$arch"; else echo "not ok $frag/$arch"; rc=1; fi
  done
done
exit $rc
