#!/usr/bin/env bash
# Fetch sparse (the kernel's C=1/C=2 checker, for make check-series) without touching
# the host.  Bookworm's sparse 0.6.4 is too old for 7.2: scripts/checker-valid.sh needs
# __typeof_unqual__, and without it kbuild's C=2 silently checks nothing.  Sid's sparse
# (0.6.5~rc1) and libc6 are unpacked by ci/deps/sid.sh into build/deps/sid/sparse:
# nothing is installed.  ci/series/sparse.sh runs it through sid's own loader.
#
#   ci/deps/sparse.sh          fetch and unpack, or skip if the same versions are unpacked
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
"") ;;
-h | --help)
	sed -n 's/^#   //p' "$0"
	exit 0
	;;
*)
	echo "usage: ci/deps/sparse.sh" >&2
	exit 2
	;;
esac

root=$("$TPF_ROOT/ci/deps/sid.sh" sparse sparse libc6)
TPF_SPARSE_ROOT=$root "$TPF_ROOT/ci/series/sparse.sh" --version >/dev/null 2>&1 ||
	die "the unpacked sparse does not run through sid's loader (try: TPF_SPARSE_ROOT=$root ci/series/sparse.sh --version): sid's libc may need a newer kernel or CPU than this host has"
info "sparse ready: $(TPF_SPARSE_ROOT=$root "$TPF_ROOT/ci/series/sparse.sh" --version 2>&1) ($(cat "$root/.tpf-versions"))"
