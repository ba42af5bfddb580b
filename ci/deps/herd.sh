#!/usr/bin/env bash
# Fetch herd7 (the Linux kernel memory model's checker, for make check-litmus) without
# touching the host.  Debian bookworm has no herdtools7; sid has it, built against a newer
# glibc.  So sid's herdtools7, libc6 and libgmp10 are unpacked by ci/deps/sid.sh into
# build/deps/sid/herd: nothing is installed, the host's libc is never replaced.
# ci/series/herd7.sh runs the binary through sid's own loader.
#
#   ci/deps/herd.sh          fetch and unpack, or skip if the same versions are unpacked
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
"") ;;
-h | --help)
	sed -n 's/^#   //p' "$0"
	exit 0
	;;
*)
	echo "usage: ci/deps/herd.sh" >&2
	exit 2
	;;
esac

root=$("$TPF_ROOT/ci/deps/sid.sh" herd herdtools7 libc6 libgmp10)
# herdtools7 ships ~50 tools (250 MB); make check-litmus needs herd7 and its model files.
find "$root/usr/bin" -mindepth 1 ! -name herd7 -delete
rm -rf "$root/usr/share/herdtools7/litmus" "$root/usr/share/locale" "$root"/usr/lib/*/gconv
TPF_HERD_ROOT=$root "$TPF_ROOT/ci/series/herd7.sh" -version >/dev/null 2>&1 ||
	die "the unpacked herd7 does not run through sid's loader (try: TPF_HERD_ROOT=$root ci/series/herd7.sh -version): sid's libc may need a newer kernel or CPU than this host has"
info "herd7 ready: $(TPF_HERD_ROOT=$root "$TPF_ROOT/ci/series/herd7.sh" -version) ($(cat "$root/.tpf-versions"))"
