#!/usr/bin/env bash
# Check that every option of the reliability config fragments survives tinyconfig + common +
# <arch> + <fragment> + olddefconfig, on both arches (ci/kernel/config.sh, config step only, no build).
set -euo pipefail
. "$(dirname "$0")/../../ci/lib.sh"

usage() {
	echo "usage: tests/contract/stress-config-check.sh [FRAGMENT...]   (default: debug fail; env ARCHES=\"x86_64 arm64\")"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
frags=("$@")
[ ${#frags[@]} -gt 0 ] || frags=(debug fail)
src=$("$TPF_ROOT/ci/kernel/tree.sh")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
rc=0
for frag in "${frags[@]}"; do
	for arch in ${ARCHES:-x86_64 arm64}; do
		if "$TPF_ROOT/ci/kernel/config.sh" "$arch" "$src" "$scratch/$frag-$arch" "$frag" >"$scratch/log" 2>&1; then
			echo "ok $frag/$arch"
		else
			echo "not ok $frag/$arch"
			sed 's/^/    /' "$scratch/log"
			rc=1
		fi
	done
done
exit "$rc"
