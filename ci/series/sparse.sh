#!/usr/bin/env bash
# Run sparse with the given arguments: kbuild's CHECK= for make check-series
# (ci/series/warnings.sh).  sparse comes from Debian sid, unpacked by ci/deps/sparse.sh
# (make deps) into build/deps/sid/sparse, and needs sid's glibc: it runs through sid's own
# dynamic loader with sid's libraries, never the host's.
#
#   ci/series/sparse.sh [sparse options] FILE.c   (as kbuild calls $(CHECK))
#
# Env: TPF_SPARSE_ROOT (default build/deps/sid/sparse).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

root=${TPF_SPARSE_ROOT:-$TPF_BUILD/deps/sid/sparse}
[ -x "$root/usr/bin/sparse" ] || die "sparse is missing under $root: run make deps"
loader=
for f in "$root"/usr/lib/*/ld-linux*.so.*; do
	[ -e "$f" ] && loader=$f && break
done
[ -n "$loader" ] || die "no dynamic loader under $root/usr/lib: run make deps"
exec "$loader" --library-path "$(dirname "$loader")" "$root/usr/bin/sparse" "$@"
