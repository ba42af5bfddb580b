#!/usr/bin/env bash
# make bench-exit: the cost the series adds to every task exit, measured side by side.
# Boots the kernel with the series and the same Debian kernel without it (TPF_STOCK=1: same
# config fragments, its own tree and O= dir) in turn, ROUNDS boots each, and runs
# bench/exit-cost (fork + _exit + waitpid rounds per second, 7 samples of 400 ms) in every boot.
# Each round also boots the kernel without the series a second time ("control"), and the
# order rotates, so that a drift of the host favours none: control / stock is an A/A
# comparison of one kernel image with itself, the spread of the method, which the
# series / stock ratio has to be read against.
# Output in build/bench-exit/<arch>/: exit.csv (kernel,boot,sample,per_s), summary.json
# (ratio = median with the series / median without; per-boot ratios give the spread;
# control_ratio the same for the A/A pair), the boot logs.  BENCH_SAVE=1 copies exit.csv and summary.json to results/<arch>/exit-cost/,
# which make bench-report quotes (goal: ratio >= 0.98).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/bench/exit.sh ARCH [ROUNDS]   (boots per kernel, default 4; env BENCH_SAVE=1)"
}
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage >&2; exit 2; fi
arch=$1
rounds=${2:-4}
arch_env "$arch"
# The default base only (ci/bases.tsv's first row): results/<arch>/exit-cost/ is its.
first_base_only bench-exit
need_cmd "$GCC"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "ROUNDS '$rounds' is not a positive number: use e.g. 3"

out=$TPF_BUILD/bench-exit/$arch
rm -rf "$out"
mkdir -p "$out"
bin=$out/exit-cost
"$GCC" -static -O2 -Wall -Wextra -Werror -o "$bin" "$TPF_ROOT/bench/exit-cost.c" ||
	die "bench/exit-cost.c did not build for $arch"

# Build both kernels (and their initramfs) first, so that only the boots alternate.
for stock in 0 1; do
	TPF_STOCK=$stock "$TPF_ROOT/ci/kernel/build.sh" "$arch" >/dev/null
	TPF_STOCK=$stock "$TPF_ROOT/ci/guest/build.sh" "$arch" >/dev/null
done

echo "kernel,boot,sample,per_s" >"$out/exit.csv"
for ((b = 1; b <= rounds; b++)); do
	case $((b % 3)) in
	1) order="series stock control" ;;
	2) order="stock control series" ;;
	*) order="control series stock" ;;
	esac
	for kernel in $order; do
		stock=1
		[ "$kernel" = series ] && stock=0
		log=$out/$kernel-$b.log
		info "boot $b of $rounds, kernel $kernel ($arch)"
		TPF_STOCK=$stock "$TPF_ROOT/ci/vm/boot" --no-build --arch "$arch" --timeout 300 --log "$log.serial" \
			--cmd "$bin" 7 400 >"$log" 2>&1 ||
			die "exit-cost boot $b on the $kernel kernel failed: see $log and $log.serial"
		n=$(grep -c '^exit-cost sample=' "$log" || true)
		[ "$n" = 7 ] || die "exit-cost boot $b on the $kernel kernel printed $n of 7 samples: see $log"
		sed -n "s/^exit-cost sample=\([0-9]*\) .* per_s=\([0-9.]*\).*/$kernel,$b,\1,\2/p" "$log" >>"$out/exit.csv"
	done
done

python3 - "$out" "$arch" "$(series_key)" "$(TPF_STOCK=1 series_key)" <<'PY'
import csv, json, statistics, sys
out, arch, key, stock_key = sys.argv[1:]
rows = list(csv.DictReader(open(f"{out}/exit.csv")))
def med(kernel, boot=None):
    return statistics.median(float(r["per_s"]) for r in rows
                             if r["kernel"] == kernel and (boot is None or r["boot"] == boot))
boots = sorted({r["boot"] for r in rows}, key=int)
per_boot = [med("series", b) / med("stock", b) for b in boots]
per_boot_aa = [med("control", b) / med("stock", b) for b in boots]
s = {"arch": arch, "series": key, "stock": stock_key, "boots": len(boots),
     "series_per_s": med("series"), "stock_per_s": med("stock"),
     "control_per_s": med("control"),
     "ratio": med("series") / med("stock"),
     "ratio_min": min(per_boot), "ratio_max": max(per_boot),
     "control_ratio": med("control") / med("stock"),
     "control_ratio_min": min(per_boot_aa), "control_ratio_max": max(per_boot_aa)}
json.dump(s, open(f"{out}/summary.json", "w"), indent=1)
print(f"bench-exit {arch}: fork+exit/s with the series {s['series_per_s']:.0f}, without "
      f"{s['stock_per_s']:.0f}: ratio {s['ratio']:.3f} (per boot {s['ratio_min']:.3f}.."
      f"{s['ratio_max']:.3f}, {len(boots)} boots each, goal >= 0.98); the same kernel "
      f"against itself (A/A): {s['control_ratio']:.3f} (per boot "
      f"{s['control_ratio_min']:.3f}..{s['control_ratio_max']:.3f})")
PY
if [ "${BENCH_SAVE:-0}" = 1 ]; then
	dest=$TPF_ROOT/results/$arch/exit-cost
	mkdir -p "$dest"
	cp "$out/exit.csv" "$out/summary.json" "$dest/"
	info "saved to results/$arch/exit-cost/"
fi
