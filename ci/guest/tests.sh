#!/usr/bin/env bash
# Build the guest test programs for one arch: the tree's futex selftests and
# tests/guest/*.c (static), and lib/ (the TP mutex library and its pthread shim,
# installed with the glibc runtime it needs into DIR/rootfs/, which
# ci/guest/initramfs.sh copies into the guest as it is).  Writes DIR/bin/*, DIR/rootfs/
# and DIR/tests.list.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/guest/tests.sh ARCH SRC OBJDIR OUTDIR"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -eq 4 ] || { usage >&2; exit 2; }
arch=$1
src=$(realpath -m "$2") obj=$(realpath -m "$3") out=$(realpath -m "$4")
arch_env "$arch"
need_cmd "$GCC"
default_timeout=${TPF_TEST_TIMEOUT:-180}

rm -rf "$out"
mkdir -p "$out/bin/selftests" "$out/bin/tests"
log=$out/build.log

# The stock (and, with the series, the new) futex selftests, built with
# their own Makefile.  CFLAGS/LDFLAGS go in through the environment because
# lib.mk appends to them.
sdir=$src/tools/testing/selftests/futex/functional
if ! CFLAGS=-static LDFLAGS=-static make -C "$sdir" CROSS_COMPILE="$CROSS" \
	OUTPUT="$out/bin/selftests" KHDR_INCLUDES="-isystem $obj/hdr/include" \
	-j"$(nproc)" >"$log" 2>&1; then
	grep -E 'error' "$log" | head -n 5 >&2 || true
	die "the futex selftests did not build for $arch: see $log"
fi

list=$out/tests.list
: >"$list"
# Every "./prog args" line of the selftests' run.sh is one guest test.
# shellcheck disable=SC2016 # $COLOR is matched literally
sed -n 's/^\.\/\([^ ]*\)\(.*\)$/\1\2/p' "$sdir/run.sh" | sed 's/ *\$COLOR//; s/ *$//' |
	while read -r prog args; do
		[ -x "$out/bin/selftests/$prog" ] || die "run.sh runs $prog but the selftests Makefile did not build it"
		printf '%s\tfutex/%s\t%s\n' "$default_timeout" "$prog${args:+ $args}" \
			"/tpf/selftests/$prog${args:+ $args}" >>"$list"
	done

# lib/: its own Makefile builds it for the arch and installs the shim, the tests
# and (RUNTIME=1) the dynamic linker, libc.so.6 and libgcc_s.so.1 at their guest paths.
# Its suites must run in TP mode on the series' kernel, in glibc mode on the stock one
# (TPF_STOCK=1, make lib-fallback; docs: lib/README.md).
if ! make -C "$TPF_ROOT/lib" CROSS_COMPILE="$CROSS" O="$out/lib-build" \
	install DESTDIR="$out/rootfs" PREFIX=/tpf/lib RUNTIME=1 >>"$log" 2>&1; then
	die "lib/ did not build for $arch: see $log"
fi
lib_mode=tp
[ "${TPF_STOCK:-0}" = 1 ] && lib_mode=glibc
# 600 s: about 100 s on a default kernel; the test programs' own watchdogs (300 s each)
# catch a hang sooner.  A kernel with KASAN, KCSAN or lockdep runs them several times
# slower (arm64 debug, 7.2: 318 s alone, and past 600 s beside two kernel builds), so
# there both limits double.
slow=1
grep -qE '^CONFIG_(KASAN|KCSAN|PROVE_LOCKING)=y' "$obj/.config" && slow=2
printf '%s\tproject/lib-tests\t%s\n' $((600 * slow)) \
	"TAP_WATCHDOG_SCALE=$slow sh /tpf/lib/tests/run-tests.sh --expect $lib_mode /tpf/lib" >>"$list"

# The project's own guest tests; "timeout: N" in the first lines sets N.
# kselftest.h (TAP helpers) comes from the tree being tested, tp-futex.h (the TP
# futex ops and syscall wrappers) from tests/include/; the uapi headers are the
# patched kernel's.
for c in "$TPF_ROOT"/tests/guest/*.c; do
	[ -e "$c" ] || continue
	name=$(basename "$c" .c)
	"$GCC" -static -O2 -Wall -Wextra -Werror -pthread -isystem "$obj/hdr/include" \
		-I "$src/tools/testing/selftests" -I "$TPF_ROOT/tests/include" \
		-o "$out/bin/tests/$name" "$c" >>"$log" 2>&1 ||
		die "tests/guest/$name.c did not build for $arch: see $log"
	to=$(head -n 5 "$c" | sed -n 's/.*timeout: *\([0-9]*\).*/\1/p' | head -n1)
	printf '%s\tproject/%s\t%s\n' "${to:-$default_timeout}" "$name" "/tpf/tests/$name" >>"$list"
done

[ -s "$list" ] || die "no guest tests found for $arch"
info "$(wc -l <"$list") guest tests for $arch"
