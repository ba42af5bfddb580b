#!/bin/sh
# Build a static perf(1) for the tp-futex guest.
#
#   ci/kernel/perf.sh ARCH TREE OUT
#
# ARCH: x86_64 | arm64.  TREE: a kernel source tree (normally the patched
# tree, so that "perf bench futex mutex" from the series is included).
# OUT: output directory; the binary ends up as OUT/perf.
#
# All optional libraries are switched off: the guest only needs
# "perf bench", and a static binary has to run from a busybox initramfs.
set -eu

ARCH=${1:?usage: $0 x86_64|arm64 TREE OUT}
TREE=${2:?usage: $0 x86_64|arm64 TREE OUT}
OUT=${3:?usage: $0 x86_64|arm64 TREE OUT}
JOBS=${JOBS:-2}
LOCK=${TPF_BUILD_LOCK:-/tmp/tpf-build.lock}
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"

case "$ARCH" in
x86_64)
	karch=x86; cross=""; filearch="x86-64" ;;
arm64|aarch64)
	karch=arm64; cross=aarch64-linux-gnu-; filearch="aarch64" ;;
*)
	echo "perf-build: unknown ARCH '$ARCH' (x86_64|arm64)" >&2; exit 2 ;;
esac

[ -f "$TREE/tools/perf/Makefile.perf" ] || {
	echo "perf-build: $TREE is not a kernel tree (no tools/perf)" >&2; exit 2; }

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

cc="${cross}gcc"
command -v ccache >/dev/null 2>&1 && cc="ccache $cc"

# Switch off every optional feature; only the perf target is built.
set -- \
	ARCH="$karch" \
	LDFLAGS=-static \
	NO_LIBELF=1 NO_LIBTRACEEVENT=1 NO_JVMTI=1 NO_LIBPYTHON=1 NO_LIBPERL=1 \
	NO_SLANG=1 NO_GTK2=1 NO_LIBUNWIND=1 NO_LIBDW_DWARF_UNWIND=1 NO_LIBBPF=1 \
	NO_BPF_SKEL=1 NO_LIBNUMA=1 NO_LIBCAP=1 NO_SDT=1 NO_LIBBABELTRACE=1 \
	NO_LIBZSTD=1 NO_LIBLZMA=1 NO_ZLIB=1 NO_LIBCRYPTO=1 NO_LIBDEBUGINFOD=1 \
	NO_AUXTRACE=1 NO_DEMANGLE=1 NO_LIBLLVM=1 NO_CAPSTONE=1 NO_LIBPFM4=1 \
	NO_JEVENTS=1 NO_SHELLCHECK=1 NO_GTK=1 NO_BACKTRACE=1 \
	WERROR=0

if [ -n "$cross" ]; then
	set -- "$@" CROSS_COMPILE="$cross"
fi

echo "perf-build: $ARCH from $TREE into $OUT"
flock "$LOCK" make -C "$TREE/tools/perf" -j"$JOBS" O="$OUT" CC="$cc" "$@" perf

bin="$OUT/perf"
[ -x "$bin" ] || { echo "perf-build: $bin was not produced" >&2; exit 1; }
info=$(file -L "$bin")
echo "$info"
case "$info" in
*"$filearch"*) ;;
*) echo "perf-build: $bin is not an $filearch binary" >&2; exit 1 ;;
esac
case "$info" in
*"statically linked"*|*"static-pie linked"*) ;;
*) echo "perf-build: $bin is not statically linked" >&2; exit 1 ;;
esac
