#!/usr/bin/env bash
# Build the patched kernel for one arch in an O= dir keyed by the series,
# plus its uapi headers.  Prints the O= dir.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/kernel/build.sh ARCH [KCONFIG]"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -ge 1 ] || { usage >&2; exit 2; }
arch=$1 variant=${2:-}
arch_env "$arch"
need_cmd "$GCC"
need_cmd ccache

src=$("$TPF_ROOT/ci/kernel/tree.sh")
obj=$(objdir "$arch" "$variant")

# Keep only the current O= dir for this arch and variant.
for old in "$TPF_BUILD/obj/$(buildname "$arch" "$variant")-"*; do
	[ -d "$old" ] && [ "$old" != "$obj" ] && rm -rf "$old"
done

"$TPF_ROOT/ci/kernel/config.sh" "$arch" "$src" "$obj" "$variant"

log=$obj/build.log
info "building $arch kernel in $obj (log: $log)"
start=$SECONDS
# Serialise heavy builds on this 2-core machine (a no-op in CI).
if ! flock "${TPF_BUILD_LOCK:-/tmp/tpf-build.lock}" make -C "$src" O="$obj" ARCH="$KARCH" CROSS_COMPILE="$CROSS" CC="ccache ${CROSS}gcc" \
	-j"$(nproc)" "$(basename "$IMAGE")" headers_install INSTALL_HDR_PATH="$obj/hdr" \
	>"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 5 >&2 || true
	die "the $arch kernel build failed: see $log"
fi
[ -f "$obj/$IMAGE" ] || die "the $arch build produced no $IMAGE: see $log"
[ -x "$obj/usr/gen_init_cpio" ] || die "no usr/gen_init_cpio in $obj: is CONFIG_BLK_DEV_INITRD set?"
cp "$src/.tpf-debian-version" "$obj/debian-version"
info "$arch kernel ready in $((SECONDS - start)) s"
echo "$obj"
