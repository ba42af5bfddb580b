#!/usr/bin/env bash
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
# NO_RUST: newer perf (7.2) builds a Rust test workload whenever rustc is on PATH,
# and archiving it can abort ar ("LLVM ERROR: Invalid encoding", the host's LLVM plugin).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || die "usage: ci/kernel/perf.sh ARCH TREE OUT"
ARCH=$1 TREE=$2 OUT=$3
JOBS=${JOBS:-2}
LOCK=${TPF_BUILD_LOCK:-/tmp/tpf-build.lock}
arch_env "$ARCH"
karch=$PERF_ARCH cross=$CROSS filearch=$FILE_MAGIC

[ -f "$TREE/tools/perf/Makefile.perf" ] || {
	die "$TREE is not a kernel tree (no tools/perf): pass the series tree (ci/kernel/tree.sh prints it)"; }

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
	NO_JEVENTS=1 NO_SHELLCHECK=1 NO_GTK=1 NO_BACKTRACE=1 NO_RUST=1 \
	WERROR=0

if [ -n "$cross" ]; then
	set -- "$@" CROSS_COMPILE="$cross"
fi

info "$ARCH from $TREE into $OUT"
flock "$LOCK" make -C "$TREE/tools/perf" -j"$JOBS" O="$OUT" CC="$cc" "$@" perf

bin="$OUT/perf"
[ -x "$bin" ] || die "$bin was not produced: see the make output above"
desc=$(file -L "$bin")
echo "$desc"
case "$desc" in
*"$filearch"*) ;;
*) die "$bin is not an $filearch binary" ;;
esac
case "$desc" in
*"statically linked"*|*"static-pie linked"*) ;;
*) die "$bin is not statically linked" ;;
esac
