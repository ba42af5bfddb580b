#!/usr/bin/env bash
# Real programs on TP futexes (make bench REAL=..., make real-verify): Debian's sysbench and
# stress-ng, each with plain glibc and with lib/'s LD_PRELOAD shim, in one boot of the guest.
#
#   ci/bench/real.sh ARCH bench ROUNDS SECONDS   -> build/bench-real/<arch>[-BASE]/: serial.log,
#                                                  runs.csv, summary.json (BENCH_SAVE=1: also
#                                                  results/<arch>[-BASE]/real/, which the report reads)
#   ci/bench/real.sh ARCH verify SECONDS         stress-ng --mutex/--futex --verify under the
#                                                  shim; KCONFIG=debug for the debug kernel
#
# Env: BENCH_CPUS=2 (guest vCPUs; the programs run 2 x vCPUs threads)  KCONFIG=<variant>
#      TPF_BASE=<base> (make's BASE=; -BASE on the dirs of every base but ci/bases.tsv's first)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
[ $# -ge 3 ] || die "usage: ci/bench/real.sh ARCH bench ROUNDS SECONDS | ARCH verify SECONDS (see --help)"
arch=$1 what=$2
arch_env "$arch"
cpus=${BENCH_CPUS:-2}
threads=$((2 * cpus))
variant=${KCONFIG:-}
case "$what" in
bench)
	[ $# -eq 4 ] || die "usage: ci/bench/real.sh ARCH bench ROUNDS SECONDS"
	rounds=$3 secs=$4
	args=(bench "$rounds" "$secs" "$threads")
	# 4 programs x 2 modes x rounds, each about SECONDS (sysbench mutex is fixed work, the
	# slowest under TCG), plus the boot and the stats runs.
	tmo=$((rounds * 8 * (secs * 4 + 5) + 300))
	;;
verify)
	[ $# -eq 3 ] || die "usage: ci/bench/real.sh ARCH verify SECONDS"
	secs=$3
	args=(verify "$secs" "$threads")
	tmo=$((2 * secs + 300))
	;;
*) die "unknown '$what': use bench or verify" ;;
esac

out=$TPF_BUILD/bench-real/$arch$BASE_SUFFIX${variant:+-$variant}
rm -rf "$out"
mkdir -p "$out"
"$TPF_ROOT/ci/guest/real-rootfs.sh" "$arch" "$out/rootfs"

rc=0
"$TPF_ROOT/ci/vm/boot" --arch "$arch" --cpus "$cpus" ${variant:+--kconfig "$variant"} --timeout "$tmo" \
	--log "$out/serial.log" --extra real="$out/rootfs" \
	--cmd "$TPF_ROOT/bench/real/run.sh" "${args[@]}" >/dev/null || rc=$?
rm -rf "$out/rootfs"
grep -E '^TPF-REAL' "$out/serial.log" | sed "s/^/bench-real $arch$BASE_SUFFIX: /" || true
if [ "$rc" -ne 0 ]; then
	die "the $what run failed in the $arch guest (exit $rc; a splat, a timeout or a failed program): see $out/serial.log"
fi
[ "$what" = bench ] || exit 0

python3 - "$out" "$arch" "$(series_key)" "$rounds" "$secs" "$threads" "$cpus" "$BASE" "$BASE_SUFFIX" <<'PY'
import json, os, statistics, sys
out, arch, key, rounds, secs, threads, cpus, base, suffix = sys.argv[1:]
runs, stats = [], {}
for line in open(os.path.join(out, "serial.log"), errors="replace"):
    w = line.split()
    if len(w) == 5 and w[0] == "TPF-REAL":
        runs.append((w[1], w[2], int(w[3]), float(w[4])))
    elif len(w) > 2 and w[0] == "TPF-REAL-STATS":
        stats.setdefault(w[1], []).append(" ".join(w[2:]))
with open(os.path.join(out, "runs.csv"), "w") as fh:
    fh.write("program,mode,round,ops_per_s\n")
    for r in runs:
        fh.write(f"{r[0]},{r[1]},{r[2]},{r[3]:.0f}\n")
progs = []
for p, _, _, _ in runs:
    if p not in progs:
        progs.append(p)
summary = {"arch": arch, "base": base, "series_key": key, "rounds": int(rounds),
           "seconds": int(secs), "threads": int(threads), "vcpus": int(cpus), "programs": []}
for p in progs:
    by = {m: {r: v for q, mm, r, v in runs if q == p and mm == m} for m in ("glibc", "tp")}
    rs = sorted(set(by["glibc"]) & set(by["tp"]))
    if not rs:
        sys.exit(f"bench-real: {p} has no round with both a glibc and a tp run: see {out}/serial.log")
    ratios = [by["tp"][r] / by["glibc"][r] for r in rs]
    summary["programs"].append({
        "program": p, "rounds": len(rs),
        "glibc_median": statistics.median(by["glibc"][r] for r in rs),
        "tp_median": statistics.median(by["tp"][r] for r in rs),
        "ratio_median": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios),
        "shim_stats": stats.get(p, [])})
with open(os.path.join(out, "summary.json"), "w") as fh:
    json.dump(summary, fh, indent=1)
print(f"bench-real {arch}{suffix}: {'program':<18} {'glibc ops/s':>12} {'tp ops/s':>12} {'tp/glibc':>9}  min-max")
for s in summary["programs"]:
    print(f"bench-real {arch}{suffix}: {s['program']:<18} {s['glibc_median']:>12.0f} {s['tp_median']:>12.0f} "
          f"{s['ratio_median']:>9.3f}  {s['ratio_min']:.3f}-{s['ratio_max']:.3f}")
PY
if [ "${BENCH_SAVE:-0}" = 1 ]; then
	dest=$TPF_ROOT/results/$arch$BASE_SUFFIX/real
	rm -rf "$dest"
	mkdir -p "$dest"
	cp "$out/runs.csv" "$out/summary.json" "$dest/"
	info "results saved to ${dest#"$TPF_ROOT"/}/ (regenerate the report: make bench-report)"
fi
