#!/usr/bin/env bash
# make bench-tuning: one kernel per tuning variant, the same BENCH=tuning matrix in each.
# Variants: "base" (the series as it is) and every bench/tuning/NAME.patch, applied on top of
# the series through TPF_EXTRA_PATCHES (its own tree and O= dir; kernel/patches is untouched).
# "host-busy" is the series as it is, benchmarked while one busy loop per host CPU runs
# beside QEMU: what a shared or overloaded CI host does to the ratios.
# Results: build/bench-tuning/<arch>/<variant>/ (runs.csv, summary.csv, meta.json, raw.log);
# TUNING_SAVE=1 also copies them to results/tuning/<arch>/<variant>/ (docs/bench-tuning.md).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

all_variants() {
	local p
	echo base
	echo host-busy
	for p in "$TPF_ROOT"/bench/tuning/*.patch; do basename "$p" .patch; done
}
usage() {
	echo "usage: ci/bench/tuning.sh ARCH [VARIANT...]   (variants: $(all_variants | tr '\n' ' '))"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -ge 1 ] || { usage >&2; exit 2; }
arch=$1
shift
check_arch "$arch"
# The default base only (ci/bases.tsv's first row): bench/tuning/ patches kernel/patches/.
first_base_only bench-tuning
variants=("$@")
[ ${#variants[@]} -gt 0 ] || mapfile -t variants < <(all_variants)
known=$(all_variants)
for v in "${variants[@]}"; do
	grep -qxF -- "$v" <<<"$known" ||
		die "unknown tuning variant '$v': no bench/tuning/$v.patch (see --help)"
done
hogs=()
stop_hogs() {
	[ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null || true
	hogs=()
}
trap stop_hogs EXIT
start_hogs() {
	local i
	for ((i = 0; i < $(nproc); i++)); do
		(while :; do :; done) &
		hogs+=($!)
	done
}
rc=0
for v in "${variants[@]}"; do
	extra=
	case $v in
	base) ;;
	host-busy)
		# build first, so that only the benchmark runs beside the busy loops
		"$TPF_ROOT/ci/kernel/build.sh" "$arch" >/dev/null
		start_hogs
		;;
	*) extra=$TPF_ROOT/bench/tuning/$v.patch ;;
	esac
	info "variant $v on $arch"
	if TPF_EXTRA_PATCHES=$extra BENCH_SAVE=0 "$TPF_ROOT/ci/bench/perf-bench.sh" "$arch" tuning; then
		out=$TPF_BUILD/bench-tuning/$arch/$v
		rm -rf "$out"
		mkdir -p "$out"
		cp "$TPF_BUILD/bench/$arch"/{runs.csv,summary.csv,meta.json,raw.log} "$out/"
		if [ "${TUNING_SAVE:-0}" = 1 ]; then
			rm -rf "$TPF_ROOT/results/tuning/$arch/$v"
			mkdir -p "$TPF_ROOT/results/tuning/$arch"
			cp -r "$out" "$TPF_ROOT/results/tuning/$arch/$v"
		fi
	else
		info "variant $v on $arch failed"
		rc=1
	fi
	stop_hogs
done
exit "$rc"
