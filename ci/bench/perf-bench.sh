#!/usr/bin/env bash
# make bench / make perf (mk/bench.mk).
#
#   ci/bench/perf-bench.sh ARCH [quick|full]    run bench/<mode>.matrix in the guest (-smp 2) with
#                                    `perf bench futex mutex`, results in build/bench/<arch>[-BASE]/
#   ci/bench/perf-bench.sh --build-perf ARCH    build the static perf from the series tree into
#                                    build/perf/<arch>[-BASE]/perf (ci/kernel/perf.sh)
#
# Env: TPF_BASE=<base> (make's BASE=; ci/bases.tsv: -BASE on every dir but the first row's)
#      PERF=<static perf for ARCH> (default build/perf/<arch>[-BASE]/perf)
#      BENCH_CPUS=2 (guest vCPUs)   BENCH_SAVE=1 copy the results to results/<arch>[-BASE]/
#      (default for BENCH=full)     BENCH_MATRIX=<file> (overrides bench/<mode>.matrix)
#      BENCH_KERNEL_SOURCE=<text> (meta.json's kernel_source; set by ci/bench/baseline.sh)
# Output in build/bench/<arch>[-BASE]/: raw.log (console), runs.csv, summary.csv, meta.json.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
}

if [ "${1:-}" = "--build-perf" ]; then
	arch=${2:-}
	check_arch "$arch"
	tree=$("$TPF_ROOT/ci/kernel/tree.sh")
	grep -q 'bench_futex_mutex' "$tree/tools/perf/bench/bench.h" 2>/dev/null ||
		info "warning: $tree has no 'perf bench futex mutex' yet (perf patch not in ${BASE_PATCHES#"$TPF_ROOT"/}/?)"
	exec "$TPF_ROOT/ci/kernel/perf.sh" "$arch" "$tree" "$TPF_BUILD/perf/$arch$BASE_SUFFIX"
fi

case "${1:-}" in -h | --help) usage; exit 0 ;; esac
arch=${1:-}
mode=${2:-quick}
arch_env "$arch"
matrix=${BENCH_MATRIX:-$TPF_ROOT/bench/$mode.matrix}
[ -f "$matrix" ] || die "unknown BENCH='$mode': no $matrix (use BENCH=quick or BENCH=full)"
cpus=${BENCH_CPUS:-2}

# make's BASE= for the hints: empty for the default base.
make_base=${BASE_SUFFIX:+ BASE=$BASE}
perf=${PERF:-$TPF_BUILD/perf/$arch$BASE_SUFFIX/perf}
if [ ! -x "$perf" ]; then
	die "no static perf for $arch (base $BASE) at $perf.  Build it first: 'make perf ARCH=$arch$make_base' (= ci/kernel/perf.sh $arch <series tree> build/perf/$arch$BASE_SUFFIX, a few minutes), or point PERF= at one"
fi
case "$(file -L "$perf")" in
*statically*) ;;
*) die "$perf is not a static binary; rebuild with 'make perf ARCH=$arch$make_base'" ;;
esac
case "$(file -L "$perf")" in
*"$FILE_MAGIC"*) ;;
*) die "$perf is not an $arch binary; rebuild with 'make perf ARCH=$arch$make_base'" ;;
esac

out=$TPF_BUILD/bench/$arch$BASE_SUFFIX
mkdir -p "$out"
rm -f "$out"/runs.csv "$out"/summary.csv "$out"/meta.json

# The (stripped) perf goes into the initramfs as /usr/bin/perf (make run PERF_GUEST=).
strip=${CROSS}strip
command -v "$strip" >/dev/null 2>&1 || strip="strip"
"$strip" -o "$out/perf" "$perf" 2>/dev/null || cp "$perf" "$out/perf"
runner="ci/vm/boot"
perf_source=initramfs
python3 "$TPF_ROOT/bench/tool.py" gen --matrix "$matrix" --mode "$mode" "$out/guest-bench.sh"
nruns=$(grep -c '^run ' "$out/guest-bench.sh")
runtime=$(awk '$1 == "runtime" { print $2 }' "$matrix")
timeout=$((nruns * (runtime + 3) + 300))

series=$(series_key)
kernel_source=${BENCH_KERNEL_SOURCE:-"series in ${BASE_PATCHES#"$TPF_ROOT"/}/ (make run)"}
# The base, for the report's per-base sections: Debian's version of its kernel source and
# the release it came from (host: this machine's Debian, e.g. 12; sid).
base_version=$(debian_version)
base_origin=sid
if [ "$BASE_FROM" = host ]; then
	base_origin=$(sed -n 's/^VERSION_ID="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' /etc/os-release 2>/dev/null || true)
	base_origin=${base_origin:-host}
fi
head=$(git -C "$TPF_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
info "BENCH=$mode on $arch (base $BASE): $nruns runs of ${runtime}s, -smp $cpus, perf $perf_source, via $runner (log $out/raw.log)"
set +e
"$TPF_ROOT/ci/vm/boot" --arch "$arch" --cpus "$cpus" --mem 512 --timeout "$timeout" \
	--file /usr/bin/perf="$out/perf" --cmd "$out/guest-bench.sh" 2>&1 | tee "$out/raw.log"
rc=${PIPESTATUS[0]}
set -e
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# QEMU accelerator: from ci/vm/boot's "booting <arch>: accel=tcg ..." line.
accel=$(grep -oE 'booting [a-z0-9_]+: accel=(tcg|kvm|hvf)' "$out/raw.log" | tail -1 |
	grep -oE '(tcg|kvm|hvf)$' || echo unknown)
qemu_ver=$("$QEMU" --version 2>/dev/null | head -1 || echo unknown)
host_cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || echo unknown)

prc=0
python3 "$TPF_ROOT/bench/tool.py" parse --log "$out/raw.log" --out "$out" \
	--meta arch="$arch" --meta mode="$mode" --meta matrix="${matrix#"$TPF_ROOT"/}" \
	--meta series_key="$series" --meta repo_head="$head" --meta accel="$accel" \
	--meta qemu="$qemu_ver" --meta host_cpu="$host_cpu" --meta host_nproc="$(nproc)" \
	--meta host_loadavg_start="$load_start" --meta host_loadavg_end="$load_end" \
	--meta started="$started" --meta perf_source="$perf_source" \
	--meta smp="$cpus" --meta run_exit="$rc" --meta runner="$runner" \
	--meta kernel_source="$kernel_source" --meta base="$BASE" --meta base_package="$BASE_PKG" \
	--meta base_version="$base_version" --meta base_origin="Debian $base_origin" || prc=$?
if [ -s "$out/summary.csv" ]; then
	python3 "$TPF_ROOT/bench/tool.py" table "$out" || true
fi

save=${BENCH_SAVE:-}
[ -z "$save" ] && [ "$mode" = full ] && save=1
if [ "$save" = 1 ] && [ "$rc" -eq 0 ] && [ "$prc" -eq 0 ]; then
	dest=$TPF_ROOT/results/$arch$BASE_SUFFIX
	mkdir -p "$dest"
	# The last full run of another series stays as the baseline the report
	# compares with (results/<arch>[-BASE]/previous/).
	old_key=$(sed -n 's/.*"series_key": *"\([^"]*\)".*/\1/p' "$dest/meta.json" 2>/dev/null || true)
	new_key=$(sed -n 's/.*"series_key": *"\([^"]*\)".*/\1/p' "$out/meta.json")
	if [ -n "$old_key" ] && [ "$old_key" != "$new_key" ] && [ -f "$dest/summary.csv" ]; then
		mkdir -p "$dest/previous"
		cp "$dest/summary.csv" "$dest/meta.json" "$dest/previous/"
		info "the results of series $old_key are kept in ${dest#"$TPF_ROOT"/}/previous/ as the baseline"
	fi
	cp "$out/runs.csv" "$out/summary.csv" "$out/meta.json" "$dest/"
	grep -aE '# (result|bench):' "$out/raw.log" >"$dest/console.txt" || true
	info "results saved to ${dest#"$TPF_ROOT"/}/ (regenerate the report: make bench-report)"
fi

if [ "$rc" -ne 0 ]; then
	info "ci/vm/boot failed with status $rc (see $out/raw.log)"
	exit "$rc"
fi
exit "$prc"
