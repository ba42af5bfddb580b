#!/usr/bin/env bash
# make bench-baseline: rerun the benchmark on an earlier series with today's perf.
#
#   ci/bench/baseline.sh ARCH REV [quick|full]
#
# Takes kernel/patches/ as it was at git revision REV of this repo, builds that kernel in its
# own tree and O= dir (TPF_PATCHES_DIR: "-baseline" build name, kernel/patches is untouched)
# and runs the same bench matrix in it with the perf of the current series
# (build/perf/<arch>/perf).  The results replace results/<arch>/previous/, the baseline that
# the bench report's "TP/WW against the previous series" goal compares with: both sides then
# come from the same perf binary, so a change in the tool cannot pass for a change in the
# kernel.  Default mode: full (the mode of results/<arch>/).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage >&2; exit 2; fi
arch=$1
rev=$2
mode=${3:-full}
check_arch "$arch"
# The default base only (ci/bases.tsv's first row): REV= names an earlier kernel/patches/.
first_base_only bench-baseline

dir=$(earlier_series "$rev")
short=$(git -C "$TPF_ROOT" rev-parse --short "$rev^{commit}")
export TPF_PATCHES_DIR=$dir
# An earlier series may predate its own Kconfig options (CONFIG_FUTEX_TP): the config
# check does not ask for an option that the tree does not define.
export TPF_CONFIG_PREFIX=1
key=$(series_key)
info "baseline: series $key from commit $short, bench $mode on $arch with today's perf"

BENCH_SAVE=0 BENCH_KERNEL_SOURCE="series of commit $short (make bench-baseline)" \
	"$TPF_ROOT/ci/bench/perf-bench.sh" "$arch" "$mode"

out=$TPF_BUILD/bench/$arch
dest=$TPF_ROOT/results/$arch/previous
mkdir -p "$dest"
cp "$out/summary.csv" "$out/meta.json" "$dest/"
info "baseline results of series $key saved to ${dest#"$TPF_ROOT"/}/ (regenerate the report: make bench-report)"
