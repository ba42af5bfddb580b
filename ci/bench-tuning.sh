#!/usr/bin/env bash
# make bench-tuning: one kernel per tuning variant, the same BENCH=tuning matrix in each.
# Variants: "base" (the series as it is) and every bench/tuning/NAME.patch, applied on top of
# the series through TPF_EXTRA_PATCHES (its own tree and O= dir; kernel/patches is untouched).
# Results: build/bench-tuning/<arch>/<variant>/ (runs.csv, summary.csv, meta.json, raw.log).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

all_variants() {
	local p
	echo base
	for p in "$TPF_ROOT"/bench/tuning/*.patch; do basename "$p" .patch; done
}
usage() {
	echo "usage: ci/bench-tuning.sh ARCH [VARIANT...]   (variants: $(all_variants | tr '\n' ' '))"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -ge 1 ] || { usage >&2; exit 2; }
arch=$1
shift
check_arch "$arch"
variants=("$@")
[ ${#variants[@]} -gt 0 ] || mapfile -t variants < <(all_variants)
for v in "${variants[@]}"; do
	[ "$v" = base ] || [ -f "$TPF_ROOT/bench/tuning/$v.patch" ] ||
		die "unknown tuning variant '$v': no bench/tuning/$v.patch (see --help)"
done
rc=0
for v in "${variants[@]}"; do
	extra=
	[ "$v" = base ] || extra=$TPF_ROOT/bench/tuning/$v.patch
	info "variant $v on $arch"
	if TPF_EXTRA_PATCHES=$extra BENCH_SAVE=0 "$TPF_ROOT/ci/bench.sh" "$arch" tuning; then
		out=$TPF_BUILD/bench-tuning/$arch/$v
		rm -rf "$out"
		mkdir -p "$out"
		cp "$TPF_BUILD/bench/$arch"/{runs.csv,summary.csv,meta.json,raw.log} "$out/"
	else
		info "variant $v on $arch failed"
		rc=1
	fi
done
exit "$rc"
