#!/usr/bin/env bash
# Run herd7 with the given arguments.  herd7 comes from Debian sid's herdtools7,
# unpacked by ci/deps/herd.sh (make deps) into build/deps/sid/herd, and needs sid's
# glibc: it runs through sid's own dynamic loader with sid's libraries, never the
# host's.  A herd7 on PATH is used when nothing is unpacked.
#
#   ci/series/herd7.sh [herd7 options] FILE.litmus...   (e.g. -conf linux-kernel.cfg, run in
#                                                 tools/memory-model/)
#
# Env: TPF_HERD_ROOT (default build/deps/sid/herd).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

root=${TPF_HERD_ROOT:-$TPF_BUILD/deps/sid/herd}
if [ ! -x "$root/usr/bin/herd7" ]; then
	command -v herd7 >/dev/null 2>&1 || die "herd7 is missing: run make deps"
	exec herd7 "$@"
fi
loader=
for f in "$root"/usr/lib/*/ld-linux*.so.*; do
	[ -e "$f" ] && loader=$f && break
done
[ -n "$loader" ] || die "no dynamic loader under $root/usr/lib: run make deps"
exec "$loader" --library-path "$(dirname "$loader")" "$root/usr/bin/herd7" \
	-I "$root/usr/share/herdtools7/herd" "$@"
