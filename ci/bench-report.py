#!/usr/bin/env python3
"""Generate docs/benchmarks.md and its plots from `make bench` results.

  ci/bench-report.py [--results results] [--out docs/benchmarks.md] [--plots docs/bench]

Reads <results>/<arch>/summary.csv and meta.json for every arch present
(x86_64, arm64), writes the Markdown page, the plot data (<plots>/data/*.dat)
and SVG plots made with gnuplot (bench/lines.gp, bench/bars.gp).  Without
gnuplot the page is still written and says the plots are missing.
"""
import argparse
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from datetime import datetime, timezone

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ARCHES = ["x86_64", "arm64"]
# TP_HANDOFF_NS of the series (kernel/futex/tp.c), in ms
HANDOFF_MS = 4
TYPES = ["ww", "pi", "tp", "glibc", "adaptive", "spin"]
LABEL = {"ww": "WW", "pi": "PI", "tp": "TP", "glibc": "glibc", "adaptive": "adaptive",
         "spin": "spin"}

# v3 anchor (Waiman Long, 2016): 144 threads on a 4-socket 72-core Haswell-EX,
# 10 s per run, load = pause instructions in the critical section.
V3_WW = {5: 34925195, 10: 25191955, 20: 16322731, 30: 13109462, 40: 11052076,
         50: 9722942}
V3_TP = {5: 54622973, 10: 42577283, 20: 29424333, 30: 33664095, 40: 27998446,
         50: 25793991}


def f(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def load_json(path, default=None):
    """The JSON file at PATH, or DEFAULT if there is none."""
    try:
        with open(path) as fh:
            return json.load(fh)
    except FileNotFoundError:
        return default


def load_arch(results, arch):
    d = os.path.join(results, arch)
    try:
        with open(os.path.join(d, "summary.csv")) as fh:
            rows = list(csv.DictReader(fh))
    except FileNotFoundError:
        return None
    meta = load_json(os.path.join(d, "meta.json"), {})
    cases = {}
    for r in rows:
        key = tuple(int(r[k]) for k in ("threads", "load", "wait", "shared"))
        cases.setdefault(key, {})[r["type"]] = r
    exit_cost = load_json(os.path.join(d, "exit-cost", "summary.json"))
    real = load_json(os.path.join(d, "real", "summary.json"))
    prev = None
    if os.path.isdir(os.path.join(d, "previous")):
        prev = load_arch(d, "previous")
    return {"arch": arch, "meta": meta, "cases": cases, "dir": d, "exit": exit_cost,
            "real": real, "previous": prev}


def ops(case, t):
    r = case.get(t)
    if not r or r["status"] != "ok":
        return None
    return f(r["ops_per_sec_median"])


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def fmt_ops(v):
    if v is None:
        return "–"
    if v >= 1e6:
        return f"{v / 1e6:.2f}M"
    if v >= 1e3:
        return f"{v / 1e3:.1f}k"
    return f"{v:.0f}"


def fmt_r(v, d=2):
    return "–" if v is None else f"{v:.{d}f}"


def fmt_pct(v, d=2):
    return "–" if v is None else f"{100 * v:.{d}f}%"


def spread(r):
    """Half the min..max range of the repetitions relative to the median."""
    lo, hi, med = f(r.get("ops_per_sec_min")), f(r.get("ops_per_sec_max")), \
        f(r.get("ops_per_sec_median"))
    if None in (lo, hi, med) or not med:
        return None
    return (hi - lo) / 2 / med


def case_name(k):
    t, load, wait, shared = k
    s = f"{t} thr, load {load}"
    if wait:
        s = f"{t} thr, 1us sleep ({wait}/1024)"
    if shared:
        s += ", shared"
    return s


def plain(k):
    return k[2] == 0 and k[3] == 0


def vcpus(a):
    v = a["meta"].get("vcpus") or a["meta"].get("smp")
    try:
        return int(v)
    except (TypeError, ValueError):
        return 2


def runner_short(meta):
    r = meta.get("runner", "?")
    if r.startswith("make run"):
        return "make run"
    return r


def host_busy(meta):
    """The host had more runnable threads than CPUs beside the guest's own vCPUs.

    The 1-minute load average at the end of a run includes the guest's vCPU threads
    (up to its vCPU count on an otherwise idle host); above host CPUs + 1 something
    else competed for the host.
    """
    try:
        nproc = int(meta.get("host_nproc"))
        loads = [float(meta.get(k, "0").split()[0])
                 for k in ("host_loadavg_start", "host_loadavg_end")]
    except (TypeError, ValueError, IndexError):
        return None
    return max(loads) > nproc + 1


def tp_supported(a):
    return any(ops(c, "tp") is not None for c in a["cases"].values())


# ---------------------------------------------------------------- goals

def tp_spin_points(a):
    """[(case, TP/spin)] for the spin-ceiling goal: plain cases, threads <= vCPUs, loads 5-50."""
    nv = vcpus(a)
    pts = [(k, ratio(ops(c, "tp"), ops(c, "spin"))) for k, c in a["cases"].items()
           if plain(k) and k[0] <= nv and 5 <= k[1] <= 50]
    return sorted(((k, r) for k, r in pts if r is not None), key=lambda p: (p[0][1], p[0]))


def goals(a):
    """[(goal text, measured text, goal text, verdict, detail)]"""
    out = []
    cases = a["cases"]
    have_tp = tp_supported(a)

    def verdict(ok):
        if not have_tp:
            return "n/a (TP unsupported)"
        if ok is None:
            return "n/a (not measured)"
        return "met" if ok else "**not met**"

    # 1. TP >= 85% of the spin ceiling, threads <= vCPUs, loads 5-50
    worst = min(((r, k) for k, r in tp_spin_points(a)), default=None)
    out.append(("TP / spin ceiling, threads <= vCPUs, loads 5-50 (worst case)",
                fmt_r(worst[0], 3) if worst else "–", ">= 0.85",
                verdict(worst[0] >= 0.85 if worst else None),
                case_name(worst[1]) if worst else ""))

    # 2. TP >= max(WW, adaptive) everywhere
    worst = None
    for k, c in cases.items():
        best = max([x for x in (ops(c, "ww"), ops(c, "adaptive")) if x is not None],
                   default=None)
        r = ratio(ops(c, "tp"), best)
        if r is not None and (worst is None or r < worst[0]):
            worst = (r, k)
    out.append(("TP / max(WW, adaptive), every case (worst case)",
                fmt_r(worst[0], 3) if worst else "–", ">= 1.00",
                verdict(worst[0] >= 1.0 if worst else None),
                case_name(worst[1]) if worst else ""))

    # 3. TP/WW in the 1us sleep case
    vals = [(ratio(ops(c, "tp"), ops(c, "ww")), k) for k, c in cases.items() if k[2]]
    vals = [v for v in vals if v[0] is not None]
    worst = min(vals) if vals else None
    out.append(("TP / WW, 1us-sleep case", fmt_r(worst[0], 3) if worst else "–", ">= 0.95",
                verdict(worst[0] >= 0.95 if worst else None),
                case_name(worst[1]) if worst else ""))

    # 4. TP unlock syscalls < 1% of ops (cases without sleeping critical sections)
    worst = None
    for k, c in cases.items():
        r = c.get("tp")
        if k[2] or not r or r["status"] != "ok":
            continue
        v = f(r.get("unlock_syscalls_per_op"))
        if v is not None and (worst is None or v > worst[0]):
            worst = (v, k)
    out.append(("TP unlock syscalls per op, no-sleep cases (worst case)",
                fmt_pct(worst[0], 3) if worst else "–", "< 1%",
                verdict(worst[0] < 0.01 if worst else None),
                case_name(worst[1]) if worst else ""))

    # 5. TP per-thread min/avg >= WW's
    worst = None
    for k, c in cases.items():
        tp, ww = c.get("tp"), c.get("ww")
        if not tp or not ww or tp["status"] != "ok" or ww["status"] != "ok":
            continue
        a_, b_ = f(tp["thr_min_avg_ratio"]), f(ww["thr_min_avg_ratio"])
        if a_ is None or b_ is None:
            continue
        d = a_ - b_
        if worst is None or d < worst[0]:
            worst = (d, k, a_, b_)
    out.append(("per-thread min/avg: TP minus WW (worst case)",
                f"{worst[0]:+.2f} ({worst[2]:.2f} vs {worst[3]:.2f})" if worst else "–",
                ">= 0", verdict(worst[0] >= 0 if worst else None),
                case_name(worst[1]) if worst else ""))

    # 6. TP's longest single wait <= 2 x the handoff bound, threads <= vCPUs
    worst = tp_longest_wait(a)
    out.append(("TP longest wait of one acquisition, threads <= vCPUs (worst case)",
                f"{worst[0] / 1000:.1f} ms" if worst else "–",
                f"<= {2 * HANDOFF_MS} ms (2 x handoff bound)",
                verdict(worst[0] <= 2000 * HANDOFF_MS if worst else None),
                case_name(worst[1]) if worst else ""))

    # 7. TP/WW no lower than the previous series' by more than the spread
    prev = a.get("previous")
    worst = None
    for k, c in cases.items():
        pc = prev["cases"].get(k) if prev else None
        if not pc:
            continue
        now, before = ratio(ops(c, "tp"), ops(c, "ww")), ratio(ops(pc, "tp"), ops(pc, "ww"))
        sp = [spread(x) for x in (c.get("tp"), c.get("ww")) if x]
        if now is None or before is None or None in sp or len(sp) < 2:
            continue
        allowed = sum(sp)
        rel = now / before
        if worst is None or rel - (1 - allowed) < worst[0] - (1 - worst[2]):
            worst = (rel, k, allowed)
    out.append(("TP/WW against the previous series' run (worst case)",
                f"{worst[0]:.3f} (spread {worst[2]:.2f})" if worst else "–",
                ">= 1 - spread",
                verdict(worst[0] >= 1 - worst[2] if worst else None),
                (case_name(worst[1]) + f", previous series {prev['meta'].get('series_key', '?')}"
                 + (" rerun with today's perf" if "bench-baseline" in
                    prev["meta"].get("kernel_source", "") else ""))
                if worst else ("no previous run in results/<arch>/previous/" if not prev else "")))

    # 8. Process exit cost: fork+exit rate with the series / without (make bench-exit)
    e = a.get("exit")
    out.append(("fork+exit rate, with the series / without (make bench-exit)",
                f"{e['ratio']:.3f} (per boot {e['ratio_min']:.3f}..{e['ratio_max']:.3f})"
                if e else "–", ">= 0.98",
                ("met" if e["ratio"] >= 0.98 else "**not met**") if e else "n/a (not measured)",
                (f"{e['boots']} boots each, rotating; series {e['series']}"
                 + (f"; A/A control {e['control_ratio']:.3f}" if "control_ratio" in e else ""))
                if e else ""))
    return out


# ---------------------------------------------------------------- plots

def write_dat(path, header, rows):
    with open(path, "w") as fh:
        fh.write("# " + " ".join(header) + "\n")
        for r in rows:
            fh.write(" ".join("NaN" if v is None else (f"{v:.6g}" if isinstance(v, float)
                                                      else f'"{v}"' if isinstance(v, str)
                                                      else str(v)) for v in r) + "\n")


def gnuplot(script, **kv):
    args = "; ".join(f"{k}='{v}'" if isinstance(v, str) else f"{k}={v}"
                     for k, v in kv.items())
    r = subprocess.run(["gnuplot", "-e", args, os.path.join(ROOT, "bench", script)],
                       stdout=subprocess.DEVNULL)
    if r.returncode:
        print(f"bench-report: warning: gnuplot {script} -> {kv.get('out')} failed",
              file=sys.stderr)
    return r.returncode == 0


def bar_dat(path, header, rows):
    """Write a bar-chart data file without the columns that have no value at all.
    Returns the names of the remaining series."""
    keep = [0] + [i for i in range(1, len(header))
                  if any(r[i] is not None for r in rows)]
    write_dat(path, [header[i] for i in keep], [[r[i] for i in keep] for r in rows])
    return [header[i] for i in keep[1:]]


def make_plots(archs, plots):
    data = os.path.join(plots, "data")
    os.makedirs(data, exist_ok=True)
    made = {}
    have_gp = shutil.which("gnuplot") is not None
    ratio_files, ratio_titles = [], []
    any_tp = any(tp_supported(a) for a in archs)
    for a in archs:
        arch = a["arch"]
        threads = sorted({k[0] for k in a["cases"] if plain(k)})
        for t in threads:
            rows = []
            for k in sorted(k for k in a["cases"] if plain(k) and k[0] == t):
                c = a["cases"][k]
                rows.append((k[1], ratio(ops(c, "tp"), ops(c, "ww")),
                             ratio(ops(c, "tp"), ops(c, "spin")),
                             ratio(ops(c, "tp"), ops(c, "adaptive")),
                             ratio(ops(c, "pi"), ops(c, "ww"))))
            p = os.path.join(data, f"ratios-{arch}-t{t}.dat")
            write_dat(p, ["load", "tp/ww", "tp/spin", "tp/adaptive", "pi/ww"], rows)
            ratio_files.append(p)
            ratio_titles.append(f"{arch}:{t}thr")
        # syscalls per op at threads = vCPUs (or the smallest thread count)
        t0 = min(threads, key=lambda t: (abs(t - vcpus(a)), t)) if threads else None
        rows = []
        for k in sorted(k for k in a["cases"] if plain(k) and k[0] == t0):
            c = a["cases"][k]
            row = [f"load{k[1]}"]
            for t in ("ww", "pi", "tp"):
                r = c.get(t)
                row += [f(r.get("lock_syscalls_per_op")) if r else None,
                        f(r.get("unlock_syscalls_per_op")) if r else None]
            rows.append(row)
        sp = os.path.join(data, f"syscalls-{arch}.dat")
        s_names = bar_dat(sp, ["label", "WW-lock", "WW-unlock", "PI-lock", "PI-unlock",
                               "TP-lock", "TP-unlock"], rows)
        # fairness: min/avg and max/avg per type, per thread count, smallest load
        rows = []
        for t in threads:
            loads = sorted(k[1] for k in a["cases"] if plain(k) and k[0] == t)
            c = a["cases"][(t, loads[0], 0, 0)]
            for typ in TYPES:
                r = c.get(typ)
                if not r or r["status"] != "ok":
                    continue
                avg = f(r["thr_avg_median"])
                rows.append([f"{LABEL[typ][:5]} {t}t",
                             ratio(f(r["thr_min_median"]), avg), 1.0,
                             ratio(f(r["thr_max_median"]), avg)])
        fp = os.path.join(data, f"fairness-{arch}.dat")
        write_dat(fp, ["label", "min/avg", "avg", "max/avg"], rows)
        # TP acquisition kinds
        rows = []
        for k in sorted(k for k in a["cases"] if plain(k)):
            r = a["cases"][k].get("tp")
            if not r or r["status"] != "ok":
                continue
            s, tw, h = (f(r.get(x)) for x in ("stolen_total", "top_total", "handoff_total"))
            tot = (s or 0) + (tw or 0) + (h or 0)
            if not tot:
                continue
            rows.append([f"{k[0]}thr l{k[1]}", 100 * s / tot, 100 * tw / tot,
                         100 * h / tot])
        kp = os.path.join(data, f"tpkinds-{arch}.dat")
        write_dat(kp, ["label", "stolen", "top_waiter", "handoff"], rows)

        if have_gp:
            if s_names and gnuplot("bars.gp", file=sp, ncols=len(s_names),
                                   names=" ".join(s_names), stacked=0,
                                   ylab="syscalls per lock/unlock pair",
                                   ttl=f"{arch}: syscalls per op, {t0} threads",
                                   out=os.path.join(plots, f"syscalls-{arch}.svg")):
                made[f"syscalls-{arch}"] = f"bench/syscalls-{arch}.svg"
            if gnuplot("bars.gp", file=fp, ncols=3, names="min/avg avg max/avg", stacked=0,
                       ylab="per-thread rate / average",
                       ttl=f"{arch}: per-thread fairness (smallest load)",
                       out=os.path.join(plots, f"fairness-{arch}.svg")):
                made[f"fairness-{arch}"] = f"bench/fairness-{arch}.svg"
            if rows and gnuplot("bars.gp", file=kp, ncols=3, names="stolen top-waiter handoff",
                                stacked=1, ylab="% of FUTEX_LOCK acquisitions",
                                ttl=f"{arch}: how FUTEX_LOCK acquired the lock",
                                out=os.path.join(plots, f"tpkinds-{arch}.svg")):
                made[f"tpkinds-{arch}"] = f"bench/tpkinds-{arch}.svg"
    if have_gp and ratio_files and any_tp:
        files, titles = " ".join(ratio_files), " ".join(ratio_titles)
        for name, col, goal, ylab, ttl in (
                ("tp-ww", 2, 1.0, "TP / WW", "TP / WW throughput vs load (medians)"),
                ("tp-ceiling", 3, 0.85, "TP / spin", "TP / spinlock ceiling vs load (medians)"),
                ("tp-adaptive", 4, 1.0, "TP / adaptive",
                 "TP / glibc adaptive mutex vs load (medians)")):
            if gnuplot("lines.gp", files=files, titles=titles, col=col, goal=goal, ylab=ylab,
                       ttl=ttl, out=os.path.join(plots, f"{name}.svg")):
                made[name] = f"bench/{name}.svg"
    return made, have_gp


# ---------------------------------------------------------------- page

def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def arch_section(a, made):
    arch, meta, cases = a["arch"], a["meta"], a["cases"]
    keys = sorted(cases, key=lambda k: (k[2], k[3], k[0], k[1]))
    L = [f"## {arch}", ""]
    L.append(table(["", ""], [
        ["kernel", f"`{meta.get('guest_kernel', '?')}`"],
        ["kernel source", meta.get("kernel_source", "?")],
        ["runner", f"{meta.get('runner', '?')} (perf from {meta.get('perf_source', '?')})"],
        ["series key / repo commit", f"`{meta.get('series_key', '?')}` / `{meta.get('repo_head', '?')}`"],
        ["QEMU, accel, vCPUs", f"{meta.get('qemu', '?')}, **{meta.get('accel', '?')}**, "
                                 f"{meta.get('vcpus', '?')} vCPUs"],
        ["host", f"{meta.get('host_cpu', '?')} ({meta.get('host_nproc', '?')} CPUs), "
                 f"load average {meta.get('host_loadavg_start', '?')} → "
                 f"{meta.get('host_loadavg_end', '?')}"],
        ["matrix", f"`{meta.get('matrix', '?')}` (BENCH={meta.get('mode', '?')}): "
                   f"{meta.get('reps', '?')} repetitions × {meta.get('runtime_s', '?')} s, "
                   f"types interleaved; {meta.get('runs_parsed', '?')} runs, "
                   f"{meta.get('runs_failed', '?')} failed"],
        ["date", meta.get("started", "?")],
    ]))
    L.append("")
    if host_busy(meta):
        L.append(f"**The host was busy during this run** (load average above its "
                 f"{meta.get('host_nproc')} CPUs + 1): spinning vCPUs competed with the lock "
                 "owner's vCPU for host time, which penalises TP and the spinlock most.  "
                 "Rerun on an idle host before reading the ratios "
                 "([host load](bench-tuning.md#host-load)).")
        L.append("")
    if not tp_supported(a):
        L.append("**TP futexes were not supported by the measured kernel** (the perf probe "
                 "got no EPERM from FUTEX_UNLOCK): the TP columns are empty and every TP "
                 "goal is n/a.  Rerun once the series is in kernel/patches/.")
        L.append("")

    L.append("### Goals")
    L.append("")
    L.append(table(["goal", "measured", "target", "verdict", "worst case"],
                   [list(g) for g in goals(a)]))
    L.append("")

    L.append("### Throughput (median ops/s over the repetitions, ± half the min–max range)")
    L.append("")
    head = ["case"] + [LABEL[t] for t in TYPES] + ["TP/WW", "TP/adaptive", "TP/spin", "PI/WW"]
    rows = []
    for k in keys:
        c = cases[k]
        row = [case_name(k)]
        for t in TYPES:
            r = c.get(t)
            if not r:
                row.append("–")
            elif r["status"] != "ok":
                row.append(r["status"])
            else:
                sp = spread(r)
                row.append(f"{fmt_ops(ops(c, t))} ±{100 * sp:.0f}%" if sp is not None
                           else fmt_ops(ops(c, t)))
        row += [fmt_r(ratio(ops(c, "tp"), ops(c, "ww"))),
                fmt_r(ratio(ops(c, "tp"), ops(c, "adaptive"))),
                fmt_r(ratio(ops(c, "tp"), ops(c, "spin"))),
                fmt_r(ratio(ops(c, "pi"), ops(c, "ww")), 3)]
        rows.append(row)
    L.append(table(head, rows))
    L.append("")
    L.append("### Syscalls per lock/unlock pair")
    L.append("")
    head = ["case", "WW lock", "WW unlock", "PI lock", "PI unlock", "TP lock", "TP unlock",
            "TP unlock syscalls (total)"]
    rows = []
    for k in keys:
        c = cases[k]
        row = [case_name(k)]
        for t in ("ww", "pi", "tp"):
            r = c.get(t) or {}
            row += [fmt_pct(f(r.get("lock_syscalls_per_op"))),
                    fmt_pct(f(r.get("unlock_syscalls_per_op")), 3)]
        r = c.get("tp") or {}
        row.append(r.get("unlock_syscalls_total", "–") if r.get("status") == "ok" else "–")
        rows.append(row)
    L.append(table(head, rows))
    L.append("")
    L.append("glibc and adaptive syscalls are not counted (they happen inside glibc); "
             "spin never enters the kernel.")
    L.append("")
    if f"syscalls-{arch}" in made:
        L.append(f"![syscalls per op, {arch}]({made[f'syscalls-{arch}']})")
        L.append("")

    L.append("### Per-thread fairness (median per-thread ops/s: min / avg / max)")
    L.append("")
    head = ["case"] + [LABEL[t] for t in TYPES]
    rows = []
    for k in keys:
        c = cases[k]
        row = [case_name(k)]
        for t in TYPES:
            r = c.get(t)
            if not r or r["status"] != "ok":
                row.append("–")
                continue
            row.append(f"{fmt_ops(f(r['thr_min_median']))} / {fmt_ops(f(r['thr_avg_median']))}"
                       f" / {fmt_ops(f(r['thr_max_median']))} "
                       f"({fmt_r(f(r['thr_min_avg_ratio']))})")
        rows.append(row)
    L.append(table(head, rows))
    L.append("")
    L.append("In parentheses: min/avg, the fairness figure of the goal table (1.00 = "
             "perfectly even).")
    L.append("")
    if f"fairness-{arch}" in made:
        L.append(f"![fairness, {arch}]({made[f'fairness-{arch}']})")
        L.append("")

    L.append("### TP acquisition kinds (FUTEX_LOCK return values, summed over repetitions)")
    L.append("")
    head = ["case", "FUTEX_LOCK calls / op", "stolen (0)", "top waiter (1)", "handoff (2)"]
    rows = []
    for k in keys:
        r = cases[k].get("tp")
        if not r or r["status"] != "ok":
            continue
        s, tw, h = (f(r.get(x)) or 0 for x in ("stolen_total", "top_total", "handoff_total"))
        tot = s + tw + h
        pct = (lambda v: f"{v:.0f} ({100 * v / tot:.1f}%)") if tot else (lambda v: f"{v:.0f}")
        rows.append([case_name(k), fmt_pct(f(r.get("lock_syscalls_per_op"))),
                     pct(s), pct(tw), pct(h)])
    if rows:
        L.append(table(head, rows))
    else:
        L.append("No TP data.")
    L.append("")
    if f"tpkinds-{arch}" in made:
        L.append(f"![TP acquisition kinds, {arch}]({made[f'tpkinds-{arch}']})")
        L.append("")
    return L


def findings(a):
    """A few data-driven sentences per arch."""
    out = []
    nv = vcpus(a)
    smp = a["meta"].get("smp")
    try:
        if smp is not None and int(smp) != nv:
            out.append(f"- The guest saw {nv} online CPU(s) although QEMU was started with "
                       f"-smp {smp}: the kernel config did not bring the other CPUs up, so "
                       f"every thread count here is 'more threads than CPUs'.")
    except ValueError:
        pass
    below = [k for k, c in a["cases"].items() if plain(k) and k[0] <= nv
             and ops(c, "spin") is not None and ops(c, "ww") is not None
             and ops(c, "spin") < ops(c, "ww")]
    total = [k for k in a["cases"] if plain(k) and k[0] <= nv]
    if below:
        out.append(f"- The spinlock was slower than WW in {len(below)} of {len(total)} cases "
                   f"with threads ≤ vCPUs: here it is no ceiling, so the TP/spin goal says "
                   f"little on this setup.")
    if not tp_supported(a):
        return out
    for t in sorted({k[0] for k in a["cases"] if plain(k)}):
        pts = [(k[1], ratio(ops(a["cases"][k], "tp"), ops(a["cases"][k], "ww")))
               for k in sorted(a["cases"]) if plain(k) and k[0] == t]
        pts = [p for p in pts if p[1] is not None]
        if len(pts) >= 2:
            trend = "rises" if pts[-1][1] > pts[0][1] * 1.05 else \
                "falls" if pts[-1][1] < pts[0][1] / 1.05 else "stays flat"
            out.append(f"- {t} threads ({'≤' if t <= nv else '>'} vCPUs): TP/WW "
                       f"{pts[0][1]:.2f} at load {pts[0][0]} → {pts[-1][1]:.2f} at load "
                       f"{pts[-1][0]}; it {trend} with the load (v3 on 72 cores: 1.56 → "
                       f"2.61, rising).")
    s = tw = h = 0.0
    calls = ops_ = 0.0
    unl = 0.0
    for k, c in a["cases"].items():
        r = c.get("tp")
        if not plain(k) or not r or r["status"] != "ok":
            continue
        s += f(r.get("stolen_total")) or 0
        tw += f(r.get("top_total")) or 0
        h += f(r.get("handoff_total")) or 0
        ops_ += f(r.get("ops_total")) or 0
        unl += f(r.get("unlock_syscalls_total")) or 0
        calls += (f(r.get("lock_syscalls_per_op")) or 0) * (f(r.get("ops_total")) or 0)
    wl = [f(c["ww"].get("lock_syscalls_per_op")) for k, c in a["cases"].items()
          if plain(k) and c.get("ww") and c["ww"]["status"] == "ok"]
    tl = [f(c["tp"].get("lock_syscalls_per_op")) for k, c in a["cases"].items()
          if plain(k) and c.get("tp") and c["tp"]["status"] == "ok"]
    wl, tl = [x for x in wl if x is not None], [x for x in tl if x is not None]
    if wl and tl:
        out.append(f"- Lock syscalls per op over the no-sleep cases: WW {100 * min(wl):.1f}–"
                   f"{100 * max(wl):.1f}%, TP {100 * min(tl):.1f}–{100 * max(tl):.1f}%.")
    tot = s + tw + h
    if tot and ops_:
        out.append(f"- TP entered the kernel to lock in {100 * calls / ops_:.2f}% of all "
                   f"operations and to unlock in {100 * unl / ops_:.3f}% ({unl:.0f} unlock "
                   f"syscalls in {ops_:.3g} ops; v3: 8 in 54.6M).  Of the kernel acquisitions "
                   f"{100 * s / tot:.0f}% were steals, {100 * tw / tot:.0f}% top-waiter and "
                   f"{100 * h / tot:.0f}% handoffs.")
    return out


def missed_why(a):
    """One bullet per missed goal of one arch: the numbers behind the miss and where to read why."""
    out = []
    cases = a["cases"]
    g = goals(a)
    if g[0][3] == "**not met**":
        pts = [(k[1], r) for k, r in tp_spin_points(a)]
        txt = ", ".join(f"{r:.2f} at load {l}" for l, r in pts)
        why = ""
        if len(pts) > 1 and pts[-1][1] > pts[0][1]:
            why = ("  The gap shrinks as the critical section grows, which points at a fixed "
                   "cost per contended acquisition: a contended TP lock enters the kernel, the "
                   "spinlock never leaves user space, and under TCG a system call is expensive.")
        out.append(f"- **TP / spin ceiling** ({g[0][4]}): TP/spin with threads ≤ vCPUs is "
                   f"{txt}.{why}")
    if g[1][3] == "**not met**":
        bad = tp_losses(a)
        within = all(w for *_, w in bad)
        out.append(f"- **TP ≥ max(WW, adaptive)**: TP is slower in {len(bad)} of "
                   f"{2 * len(cases)} comparisons ("
                   + "; ".join(f"{case_name(k)} against {LABEL[t]}" for k, t, *_ in bad) + ")"
                   + (", all within the run-to-run spread: the miss is not established."
                      if within else ", see the list above; the tuning that was tried is in "
                      "[Tuning experiments](bench-tuning.md)."))
    if g[2][3] == "**not met**":
        out.append(f"- **TP / WW in the 1us-sleep case** is {g[2][1]}: every critical section "
                   "sleeps, so TP's spinning cannot apply and it pays for its extra bookkeeping.")
    if g[3][3] == "**not met**":
        out.append(f"- **TP unlock syscalls** reach {g[3][1]} of operations ({g[3][4]}): "
                   "waiters went to sleep (FUTEX_WAITERS set), so spinning did not keep them "
                   "awake; expected with more threads than vCPUs.")
    if g[4][3] == "**not met**":
        out.append(f"- **Per-thread fairness** ({g[4][4]}: TP minus WW min/avg {g[4][1]}): lock "
                   "stealing and spinning trade an even share for throughput by design; the "
                   "handoff bounds how long the top waiter waits, not how often others pass it.  "
                   "Measured with other handoff bounds and without spinning in "
                   "[Fairness: the goal TP misses](bench-tuning.md#fairness-the-goal-tp-misses).")
    if g[5][3] == "**not met**":
        v, k = tp_longest_wait(a)
        r = a["cases"][k]["tp"]
        med = f(r.get("wait_max_us_median"))
        others = {t: longest_wait(a, t, k) for t in TYPES if t != "tp"}
        others = {t: w for t, w in others.items() if w is not None}
        floor = max(others.items(), key=lambda tw: tw[1]) if others else None
        spin = others.get("spin")
        txt = (f"- **TP longest wait** ({g[5][4]}) is {g[5][1]}, beyond twice the handoff "
               "bound; the median over the runs of TP's longest wait in that case is "
               f"{med / 1000:.1f} ms." if med is not None else
               f"- **TP longest wait** ({g[5][4]}) is {g[5][1]}, beyond twice the handoff bound.")
        if spin is not None:
            txt += (f"  In the same case the user-space spinlock, which never enters the "
                    f"kernel and has no handoff to keep, waited up to {spin / 1000:.1f} ms")
            txt += (f", and {LABEL[floor[0]]} up to {floor[1] / 1000:.1f} ms."
                    if floor and floor[0] != "spin" else ".")
        machine = ("a holder preempted by the guest's scheduler for a tick (4 ms) or a vCPU "
                   "descheduled by the host stops the lock for every waiter, and no handoff "
                   "can bound that")
        if floor and floor[1] >= v:
            txt += (f"  Other lock types waited as long in the same case: {machine}.  The "
                    "guest tests check the bound itself (futex_tp_handoff, with no other lock "
                    "type running).")
        elif floor and floor[1] >= 2000 * HANDOFF_MS:
            txt += (f"  Other lock types also pass twice the bound in that case ({machine}), "
                    "but TP's single longest wait is longer still"
                    + (f", while its median over the runs is {med / 1000:.1f} ms: an outlier "
                       "of one run, not a bound that fails in every run."
                       if med is not None and med <= 2000 * HANDOFF_MS else
                       ": look at the handoff path.")
                    + "  The guest tests check the bound itself (futex_tp_handoff).")
        elif floor:
            txt += ("  TP waited longer than every other lock type in that case"
                    + (f", though its median over the runs is {med / 1000:.1f} ms"
                       if med is not None else "")
                    + ": look at the handoff path.")
        out.append(txt)
    if g[6][3] == "**not met**":
        prev_rows = [r for c in a["previous"]["cases"].values() for r in c.values()]
        untimed = all(r.get("wait_max_us_max") in (None, "", "na") for r in prev_rows)
        out.append(f"- **TP/WW against the previous series** ({g[6][4]}) fell to {g[6][1]} "
                   "of the previous ratio, more than the run-to-run spread."
                   + ("  The previous run did not time single acquisitions; this one reads the "
                      "clock twice per operation in every mutex type, a fixed cost that pulls "
                      "the ratios between cheap and expensive locks towards 1, so part of the "
                      "drop is the measurement.  Compare runs made with the same perf "
                      "(make bench-baseline)."
                      if untimed else "")
                   + baseline_spread(a))
    if g[7][3] == "**not met**":
        e = a["exit"]
        within = e["ratio_max"] >= 0.98
        txt = (f"- **Process exit cost**: fork+exit with the series runs at {g[7][1]} of the "
               "rate without it."
               + ("  Some boots met the goal, so the miss is within the boot-to-boot spread."
                  if within else "  Every boot missed it."))
        if "control_ratio" in e:
            lo = min(e["control_ratio_min"], e["control_ratio"])
            txt += (f"  The kernel without the series booted again against itself (A/A) "
                    f"gave {e['control_ratio']:.3f} (per boot {e['control_ratio_min']:.3f}.."
                    f"{e['control_ratio_max']:.3f}): ")
            txt += ("the method cannot tell a gap this size from none."
                    if lo <= e["ratio"] else
                    "the gap is larger than the method's own spread, so the series costs "
                    "something on exit: look at futex_tp_release() and the size of "
                    "task_struct.")
        out.append(txt)
    return out


def baseline_spread(a):
    """How TP/WW moved against the previous run over all cases, as a sentence."""
    prev = a.get("previous")
    rel = []
    for k, c in a["cases"].items():
        pc = prev["cases"].get(k) if prev else None
        now = ratio(ops(c, "tp"), ops(c, "ww"))
        before = ratio(ops(pc, "tp"), ops(pc, "ww")) if pc else None
        sp = [spread(x) for x in (c.get("tp"), c.get("ww"))]
        if now is None or before is None or None in sp:
            continue
        rel.append((now / before, sum(sp)))
    if not rel:
        return ""
    lower = sum(1 for r, sp in rel if r < 1 - sp)
    higher = sum(1 for r, sp in rel if r > 1 + sp)
    med = statistics.median(r for r, _ in rel)
    return (f"  Over all {len(rel)} cases, {lower} are lower than before by more than their "
            f"spread and {higher} higher; the median of now/before is {med:.2f}"
            + (": no consistent drop, the miss is the worst case of a scattered set."
               if lower <= higher and med >= 0.95 else
               ": a consistent drop, look at what the series changed on the lock path."))


def longest_wait(a, t, k):
    """The longest single wait (us) of type t in case k over all runs, or None."""
    r = a["cases"].get(k, {}).get(t)
    return f(r.get("wait_max_us_max")) if r and r["status"] == "ok" else None


def tp_longest_wait(a):
    """(us, case) of TP's longest single wait with threads <= vCPUs, or None."""
    worst = None
    for k in a["cases"]:
        v = longest_wait(a, "tp", k) if k[0] <= vcpus(a) else None
        if v is not None and (worst is None or v > worst[0]):
            worst = (v, k)
    return worst


def tp_losses(a):
    """[(case, type, TP ops, type ops, within the spread)] where TP is slower than WW or adaptive."""
    out = []
    for k in sorted(a["cases"], key=lambda k: (k[2], k[3], k[0], k[1])):
        c = a["cases"][k]
        tp = ops(c, "tp")
        if tp is None:
            continue
        for t in ("ww", "adaptive"):
            o = ops(c, t)
            if o and tp < o:
                sp = max(spread(c["tp"]) or 0, spread(c.get(t)) or 0)
                out.append((k, t, tp, o, (o - tp) / o <= sp))
    return out


def losses(archs):
    """Where TP loses against WW or adaptive, as bullet points."""
    return [f"- {a['arch']}, {case_name(k)}: TP {fmt_ops(tp)} < {LABEL[t]} {fmt_ops(o)} "
            f"(TP/{LABEL[t]} = {tp / o:.2f})" + (" (within the run-to-run spread)" if w else "")
            for a in archs for k, t, tp, o, w in tp_losses(a)]


def page(archs, made, have_gp, results):
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    L = ["---", "title: Benchmarks", "---", "",
         "<!-- Generated by ci/bench-report.py from "
         f"{os.path.relpath(results, ROOT)}/<arch>/ -- do not edit; rerun `make bench-report`. -->",
         "",
         "Throughput of user-space mutexes built on the wait-wake (WW), PI and "
         "throughput-optimized (TP) futexes, against glibc's default and adaptive "
         "`pthread_mutex_t` and a pure user-space spinlock (the no-syscall ceiling while "
         "threads ≤ CPUs), measured with `perf bench futex mutex` (the last patch of the "
         "series) inside the QEMU guest of `make run`.  How to read the numbers: "
         "[Reading benchmark results](reading-benchmarks.md).",
         "",
         f"Generated {now}.", ""]

    L += ["## Read this first", "",
          "- **These are emulated numbers.**  The guest runs under QEMU with the accelerator "
          "named per arch below; under TCG every atomic instruction, context switch and "
          "`pause`/`yield` is emulated, so absolute ops/s mean nothing and even the ratios "
          "are distorted.  Only ratios between types measured in the same boot (types are "
          "interleaved, A B A B …) carry information, and only as a smoke test of the "
          "trends, not as performance data.",
          "- **2 vCPUs.**  With `-smp 2`, 2 threads is the only ‘threads ≤ CPUs’ point; 4 "
          "threads measures what happens when a lock owner can be preempted.  The v3 "
          "results below were taken with 144 threads on 72 cores; nothing here can confirm "
          "or refute scaling claims.",
          "- **Host load.**  Each vCPU is a host thread, and the host has "
          f"{archs[0]['meta'].get('host_nproc', '?')} CPUs.  When "
          "other jobs run, a vCPU spinning in FUTEX_LOCK takes host time from the lock "
          "owner's vCPU and TP's ratios collapse (measured in "
          "[host load](bench-tuning.md#host-load)).  The host load average at the start and "
          "end of each run is recorded in the arch sections, which warn when the host was "
          "busy.  Compare a difference with the ± spread before believing it.",
          ""]

    L += ["## Goals per arch", "",
          "| goal | target | " + " | ".join(a["arch"] for a in archs) + " |",
          "|---|---|" + "---|" * len(archs)]
    L.append("| measured with | | " + " | ".join(
        f"{runner_short(a['meta'])}, series `{a['meta'].get('series_key', '?')}`, "
        f"{a['meta'].get('accel', '?')}, {a['meta'].get('vcpus', '?')} vCPUs, "
        f"BENCH={a['meta'].get('mode', '?')}" for a in archs) + " |")
    per = [goals(a) for a in archs]
    for i in range(len(per[0]) if per else 0):
        L.append(f"| {per[0][i][0]} | {per[0][i][2]} | " +
                 " | ".join(f"{p[i][1]} ({p[i][3]})" for p in per) + " |")
    L.append("")

    L += ["## Plots", ""]
    if not have_gp:
        L += ["gnuplot was not installed when this page was generated "
              "(`apt-get install gnuplot-nox`), so there are no plots.", ""]
    for name, cap in (("tp-ww", "TP/WW throughput ratio vs load (goal line 1.0; 0.95 "
                       "applies to the sleep case)"),
                      ("tp-ceiling", "TP / spinlock ceiling vs load (goal 0.85 for threads ≤ "
                       "vCPUs; with more threads than vCPUs the spinlock is no ceiling)"),
                      ("tp-adaptive", "TP / glibc adaptive mutex vs load")):
        if name in made:
            L += [f"![{cap}]({made[name]})", "", f"*{cap}.*", ""]
    L.append("Per-arch plots (syscalls, fairness, TP acquisition kinds) are in the arch "
             "sections.  Plot data: `docs/bench/data/*.dat`.")
    L.append("")

    L += ["## Reference: the v3 numbers (2016)", "",
          "Waiman Long's v3 posting measured the same kind of mutex benchmark with 144 "
          "threads on a 4-socket 72-core Haswell-EX (4.8-rc7, 10 s runs, the load being "
          "`pause` instructions in the critical section):", ""]
    rows = [[str(l), f"{V3_WW[l]:,}", f"{V3_TP[l]:,}", f"{V3_TP[l] / V3_WW[l]:.2f}"]
            for l in sorted(V3_WW)]
    rows.append(["1us sleep", "175,824", "179,067", "1.02"])
    L.append(table(["load", "WW ops (10 s)", "TP ops (10 s)", "TP/WW"], rows))
    L += ["",
          "At load 5: PI 249,343 ops (≈1/140 of WW), and TP made 8 unlock syscalls in "
          "54.6M ops against WW's 9.3M; TP's per-thread min/avg was 0.33 against WW's 0.93 "
          "(before the handoff patch).  The changelog of the core TP patch quotes TP/WW as +56% at load 5 "
          "rising to +161% (2.61×) at load 50 and +2% (1.02) for the 1us sleep.  The "
          "table's load-50 row works out to 2.65; the difference is the posting's.", ""]

    L += ["## Reading", ""]
    L.append("Automatic findings:")
    L.append("")
    for a in archs:
        g = goals(a)
        met = sum(1 for x in g if x[3] == "met")
        na = sum(1 for x in g if x[3].startswith("n/a"))
        L.append(f"- {a['arch']} ({a['meta'].get('accel', '?')}): {met} of {len(g)} goals met"
                 + (f", {na} not measurable" if na else "") + ".")
    lo = losses(archs)
    if lo:
        L += ["", "Where TP loses against WW or adaptive (median against median; \"within the "
              "spread\" = the gap is smaller than the larger half min–max range of the two):",
              ""] + lo
    elif any(tp_supported(a) for a in archs):
        L += ["", "TP is not slower than WW or adaptive in any measured case."]
    for a in archs:
        fl = findings(a)
        if fl:
            L += ["", f"{a['arch']}:", ""] + fl
    summary = []
    for a in archs:
        n = lost = 0
        for c in a["cases"].values():
            tp = ops(c, "tp")
            best = max([x for x in (ops(c, "ww"), ops(c, "adaptive")) if x is not None],
                       default=None)
            if tp is None or best is None:
                continue
            n += 1
            lost += tp < best
        if n:
            summary.append((a["arch"], lost, n))
    if summary:
        L += ["", "Where TP loses, in short: " + "; ".join(
            f"{arch}: slower than max(WW, adaptive) in {lost} of {n} cases"
            for arch, lost, n in summary) + "."]
        if any(lost * 2 > n for _, lost, n in summary):
            L += ["", "Losing in most cases is the opposite of the v3 trend and must not be "
                  "read as a verdict on the series: it is what this guest on this host shows.  "
                  "A mechanism to check on hardware or KVM (a hypothesis, not established "
                  "here): a TP waiter spins in the kernel on the lock owner, and when the "
                  "owner's vCPU thread is not running on the host, that spin is pure loss, "
                  "while a WW waiter goes to sleep at once.  Compare the acquisition kinds: "
                  "mostly top-waiter acquisitions and few steals mean the waiters queued "
                  "rather than stole the lock."]
    why = [(x["arch"], missed_why(x)) for x in archs if tp_supported(x)]
    if any(w for _, w in why):
        L += ["", "Missed goals, and why:"]
        for arch, w in why:
            if w:
                L += ["", f"{arch}:", ""] + w
    L += ["", "The spin policy and the handoff bound were revisited against these goals, "
          "with one kernel per variant measured side by side: "
          "[Tuning experiments](bench-tuning.md)."]
    L += ["",
          "What to take from it: the goals are stated for real hardware.  Under TCG the "
          "kernel's optimistic spinning spins on emulated CPUs whose relative speed depends "
          "on QEMU's thread scheduling on a 2-core host, so a missed "
          "or met goal here is a hint where to look, not a result.  The syscall counts and "
          "the acquisition kinds are the most trustworthy columns: they are counts, not "
          "timings, and show whether TP keeps unlock in user space (unlock syscalls ≪ 1% "
          "of ops) and whether lock handoff kicks in.  With more threads than vCPUs a lock "
          "owner is regularly preempted; spinning then wastes the time slice, which is "
          "where TP (and the spinlock, worse) can lose against a sleeping mutex.", ""]

    L += real_section(archs)

    for a in archs:
        L += arch_section(a, made)

    L += ["## Rerunning", "",
          "```sh",
          "make perf ARCH=x86_64          # static perf from the series tree (once per series)",
          "make bench ARCH=x86_64                  # BENCH=quick: CI, ~3 min once the kernel is built",
          "make bench ARCH=arm64 BENCH=full        # ~11 min on an idle 2-core host (more if shared); saves results/arm64/",
          "make bench ARCH=arm64 BENCH=full REAL=only  # only the real programs (5 rounds x 3 s); saves results/arm64/real/",
          "make bench-report                       # regenerate this page from results/",
          "",
          "# more vCPUs (only meaningful on a host with at least that many idle cores):",
          "make bench ARCH=x86_64 BENCH=smp8 BENCH_CPUS=8",
          "make bench ARCH=x86_64 BENCH=smp16 BENCH_CPUS=16",
          "",
          "# on bare metal with a patched kernel, the v3 experiment:",
          "perf bench futex mutex -f ww -t 144 -l 5 -r 10",
          "perf bench futex mutex -f tp -t 144 -l 5 -r 10",
          "```", "",
          "Raw data: `results/<arch>/runs.csv` (every run), `summary.csv` (medians, min/max), "
          "`meta.json` (kernel, series key, QEMU accel, vCPUs), `console.txt` (the result "
          "lines as printed in the guest).  A `make bench` run writes the same files to "
          "`build/bench/<arch>/`; `make bench-report BENCH_RESULTS=build/bench` reports those.",
          ""]
    return "\n".join(L)


REAL_WHAT = {
    "sysbench-mutex": "`sysbench mutex`: fixed work, T threads × N locks of one mutex "
                      "(`--mutex-num=1`), 50 empty loops between locks",
    "sysbench-threads": "`sysbench threads`: T threads, one mutex, lock + 10 `sched_yield()` "
                        "+ unlock per event",
    "stress-ng-mutex": "`stress-ng --mutex 1 --mutex-procs T`: T threads on one mutex, "
                       "priorities changed at random",
    "stress-ng-futex": "`stress-ng --futex T`: the stock FUTEX_WAIT/FUTEX_WAKE ops, no "
                       "pthread mutex in the loop (the control: the shim must not matter)",
}


def real_stat(line):
    """A TPF-REAL-STATS text ("<what> (xN)", N = processes that printed it) for the table."""
    m = re.match(r"(.*) \(x(\d+)\)$", line)
    what, n = (m.group(1), int(m.group(2))) if m else (line, 1)
    procs = f"{n} process{'es' if n != 1 else ''}"
    if what.startswith("first lock call "):
        return f"{procs} locked {what[len('first lock call '):]}"
    return f"{what} (totals of the {procs} that called exit())"


def real_text(archs):
    """The real-programs results as plain text, for a mail."""
    have = [a for a in archs if a.get("real")]
    if not have:
        return ""
    L = ["Real programs (Debian's sysbench and stress-ng, unmodified, with glibc's mutexes",
         "and with an LD_PRELOAD shim that puts normal and adaptive pthread mutexes on",
         "FUTEX_LOCK/FUTEX_UNLOCK, lib/ of the tp-futex project; tp/glibc throughput,",
         "median and min-max over interleaved rounds in one boot; QEMU TCG, so only",
         "a ratio beyond the control's spread says anything):", ""]
    for a in have:
        r = a["real"]
        L.append(f"{a['arch']}, {r['vcpus']} vCPUs, {r['threads']} threads, {r['rounds']} rounds:")
        for p in r["programs"]:
            ctl = " (control: no pthread mutex)" if p["program"] == "stress-ng-futex" else ""
            L.append(f"  {p['program']:<18} {p['ratio_median']:5.2f}  ({p['ratio_min']:.2f}-{p['ratio_max']:.2f}){ctl}")
        L.append("")
    return "\n".join(L)


def real_section(archs):
    """The "Real programs" section: ci/bench/real.sh's summary.json per arch."""
    have = [a for a in archs if a.get("real")]
    L = ["## Real programs", ""]
    if not have:
        return L + ["No results yet: `make bench BENCH=full` runs them (or "
                    "`make bench REAL=only`), and `results/<arch>/real/` keeps them.", ""]
    L += ["Debian's `sysbench` and `stress-ng`, unmodified, each run with plain glibc and "
          "with `lib/`'s `LD_PRELOAD` shim (`LD_PRELOAD=libtp-shim.so`, which puts normal and "
          "adaptive `pthread_mutex_t` on FUTEX_LOCK/FUTEX_UNLOCK), in one boot, the two "
          "interleaved and the order flipped every round (`ci/bench/real.sh`, "
          "`bench/real/run.sh`).  **The same emulation caveat as above holds, more so**: "
          "these programs spend much of their time in emulated code that has nothing to do "
          "with the lock, so a ratio says which way the shim moves the program under TCG on "
          "this host, not what it would do on hardware.  The ratio is tp/glibc per round; "
          "the median and the min–max over the rounds are shown, and a difference inside "
          "the spread of `stress-ng --futex` (the control) means nothing.", ""]
    for a in have:
        r = a["real"]
        L += [f"### {a['arch']}", "",
              f"Series `{r.get('series_key', '?')}`, {r['vcpus']} vCPUs, T = {r['threads']} "
              f"threads, {r['rounds']} round{'s' if r['rounds'] != 1 else ''} of about "
              f"{r['seconds']} s per program and library.", "",
              "| program | glibc ops/s (median) | TP shim ops/s (median) | tp/glibc (median) "
              "| min–max over rounds | where the lock calls went (a run with TP_SHIM_STATS=1) |",
              "|---|---:|---:|---:|---|---|"]
        for p in r["programs"]:
            st = "; ".join(real_stat(x) for x in p.get("shim_stats", []))
            L.append(f"| {REAL_WHAT.get(p['program'], p['program'])} | {fmt_ops(p['glibc_median'])} | "
                     f"{fmt_ops(p['tp_median'])} | **{p['ratio_median']:.2f}** | "
                     f"{p['ratio_min']:.2f}–{p['ratio_max']:.2f} | {st or '-'} |")
        L.append("")
        ctl = next((p for p in r["programs"] if p["program"] == "stress-ng-futex"), None)
        if ctl:
            out = []
            for p in r["programs"]:
                if p is ctl:
                    continue
                if p["ratio_min"] > ctl["ratio_max"]:
                    out.append(f"`{p['program']}` faster with the shim ({p['ratio_median']:.2f})")
                elif p["ratio_max"] < ctl["ratio_min"]:
                    out.append(f"`{p['program']}` slower with the shim ({p['ratio_median']:.2f})")
            inside = [f"`{p['program']}`" for p in r["programs"] if p is not ctl and
                      not (p["ratio_min"] > ctl["ratio_max"] or p["ratio_max"] < ctl["ratio_min"])]
            L.append(f"Against the control's spread ({ctl['ratio_min']:.2f}–{ctl['ratio_max']:.2f}): "
                     + ("; ".join(out) if out else "no program moves beyond it")
                     + (f"; inside it, so no verdict: {', '.join(inside)}" if inside else "") + ".")
            L.append("")
    return L


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--results", default=os.path.join(ROOT, "results"))
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks.md"))
    p.add_argument("--plots", default=os.path.join(ROOT, "docs", "bench"))
    a = p.parse_args()
    archs = [x for x in (load_arch(a.results, arch) for arch in ARCHES) if x]
    if not archs:
        sys.exit(f"bench-report: no <arch>/summary.csv under {a.results}: run "
                 "'make bench ARCH=x86_64 BENCH=full' (or BENCH_SAVE=1) first")
    os.makedirs(a.plots, exist_ok=True)
    made, have_gp = make_plots(archs, a.plots)
    # image links relative to the page
    rel = os.path.relpath(a.plots, os.path.dirname(os.path.abspath(a.out)))
    made = {k: os.path.join(rel, os.path.basename(v)) for k, v in made.items()}
    text = page(archs, made, have_gp, a.results)
    with open(a.out, "w") as fh:
        fh.write(text)
    # Plain text for the cover letter of make submission (ci/series/submission.sh includes it).
    with open(os.path.join(a.plots, "real-programs.txt"), "w") as fh:
        fh.write(real_text(archs))
    print(f"bench-report: wrote {a.out} ({', '.join(x['arch'] for x in archs)}; "
          f"{len(made)} plots)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
