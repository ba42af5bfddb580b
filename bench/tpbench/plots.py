"""The plots of docs/benchmarks.md: gnuplot data files (<plots>/data/*.dat) and SVGs made with
bench/lines.gp and bench/bars.gp.  Without gnuplot only the data files are written."""
import os
import shutil
import subprocess
import sys

from .data import LABEL, ROOT, TYPES, fnum, ok, ops, plain, ratio, tp_supported, vcpus
from .goals import GOAL

# The columns of the ratios-*.dat files, and the plots made of them (all arches in each):
# (name, column, goal line, y label, title).
RATIO_COLS = [("tp", "ww"), ("tp", "spin"), ("tp", "adaptive"), ("pi", "ww")]
RATIO_PLOTS = [
    ("tp-ww", 2, GOAL["tp-best"].threshold, "TP / WW", "TP / WW throughput vs load (medians)"),
    ("tp-ceiling", 3, GOAL["tp-spin"].threshold, "TP / spin",
     "TP / spinlock ceiling vs load (medians)"),
    ("tp-adaptive", 4, GOAL["tp-best"].threshold, "TP / adaptive",
     "TP / glibc adaptive mutex vs load (medians)"),
]


def write_dat(path, header, rows, drop_empty=False):
    """Write a data file (DROP_EMPTY: without the columns that have no value at all); the names
    of its data columns."""
    keep = [i for i, _ in enumerate(header)
            if not (drop_empty and i and all(r[i] is None for r in rows))]
    with open(path, "w") as fh:
        fh.write("# " + " ".join(header[i] for i in keep) + "\n")
        for r in rows:
            fh.write(" ".join("NaN" if v is None else f"{v:.6g}" if isinstance(v, float)
                              else f'"{v}"' if isinstance(v, str) else str(v)
                              for v in (r[i] for i in keep)) + "\n")
    return [header[i] for i in keep[1:]]


def gnuplot(script, **kv):
    args = "; ".join(f"{k}='{v}'" if isinstance(v, str) else f"{k}={v}" for k, v in kv.items())
    r = subprocess.run(["gnuplot", "-e", args, os.path.join(ROOT, "bench", script)],
                       stdout=subprocess.DEVNULL)
    if r.returncode:
        print(f"bench-report: warning: gnuplot {script} -> {kv.get('out')} failed",
              file=sys.stderr)
    return r.returncode == 0


def make_plots(archs, plots, suffix="", base=""):
    """Write the data files and plots under PLOTS: ({name: "bench/NAME.svg"} of the plots
    made, whether gnuplot was there).  The per-arch files are named by the arch's key (its
    results directory, x86_64-7.2 for another base), the plots of all arches get SUFFIX
    (tp-ww-7.2) and BASE in their title: every base has its own set."""
    data = os.path.join(plots, "data")
    os.makedirs(data, exist_ok=True)
    have_gp, made, ratio_files = shutil.which("gnuplot") is not None, {}, []

    def plot(name, script, **kv):
        if gnuplot(script, **kv, out=os.path.join(plots, f"{name}.svg")):
            made[name] = f"bench/{name}.svg"

    for a in archs:
        arch = a.get("key", a["arch"])
        cases = [(k, a["cases"][k]) for k in sorted(a["cases"]) if plain(k)]
        threads = sorted({k[0] for k, _ in cases})
        for t in threads:
            p = os.path.join(data, f"ratios-{arch}-t{t}.dat")
            write_dat(p, ["load"] + [f"{x}/{y}" for x, y in RATIO_COLS],
                      [[k[1]] + [ratio(ops(c, x), ops(c, y)) for x, y in RATIO_COLS]
                       for k, c in cases if k[0] == t])
            ratio_files.append((p, f"{arch}:{t}thr"))
        # syscalls per op at threads = vCPUs (or the nearest thread count)
        t0 = min(threads, key=lambda t: (abs(t - vcpus(a)), t)) if threads else None
        sp = os.path.join(data, f"syscalls-{arch}.dat")
        s_names = write_dat(sp, ["label", "WW-lock", "WW-unlock", "PI-lock", "PI-unlock",
                                 "TP-lock", "TP-unlock"],
                            [[f"load{k[1]}"] + [fnum((c.get(t) or {}).get(f"{x}_syscalls_per_op"))
                                                for t in ("ww", "pi", "tp")
                                                for x in ("lock", "unlock")]
                             for k, c in cases if k[0] == t0], drop_empty=True)
        # fairness: min/avg and max/avg per type, per thread count, smallest load
        rows = []
        for t in threads:
            c = next(c for k, c in cases if k[0] == t)
            for typ in TYPES:
                r = ok(c, typ)
                if r:
                    avg = fnum(r["thr_avg_median"])
                    rows.append([f"{LABEL[typ][:5]} {t}t", ratio(fnum(r["thr_min_median"]), avg),
                                 1.0, ratio(fnum(r["thr_max_median"]), avg)])
        fp = os.path.join(data, f"fairness-{arch}.dat")
        write_dat(fp, ["label", "min/avg", "avg", "max/avg"], rows)
        # TP acquisition kinds
        rows = []
        for k, c in cases:
            r = ok(c, "tp")
            s, tw, h = (fnum(r.get(x)) for x in ("stolen_total", "top_total", "handoff_total")) \
                if r else (0, 0, 0)
            tot = (s or 0) + (tw or 0) + (h or 0)
            if tot:
                rows.append([f"{k[0]}thr l{k[1]}", 100 * s / tot, 100 * tw / tot, 100 * h / tot])
        kp = os.path.join(data, f"tpkinds-{arch}.dat")
        write_dat(kp, ["label", "stolen", "top_waiter", "handoff"], rows)
        if have_gp and s_names:
            plot(f"syscalls-{arch}", "bars.gp", file=sp, ncols=len(s_names),
                 names=" ".join(s_names), stacked=0, ylab="syscalls per lock/unlock pair",
                 ttl=f"{arch}: syscalls per op, {t0} threads")
        if have_gp:
            plot(f"fairness-{arch}", "bars.gp", file=fp, ncols=3, names="min/avg avg max/avg",
                 stacked=0, ylab="per-thread rate / average",
                 ttl=f"{arch}: per-thread fairness (smallest load)")
        if have_gp and rows:
            plot(f"tpkinds-{arch}", "bars.gp", file=kp, ncols=3, names="stolen top-waiter handoff",
                 stacked=1, ylab="% of FUTEX_LOCK acquisitions",
                 ttl=f"{arch}: how FUTEX_LOCK acquired the lock")
    if have_gp and ratio_files and any(tp_supported(a) for a in archs):
        for name, col, goal, ylab, ttl in RATIO_PLOTS:
            name, ttl = name + suffix, f"{ttl}, Linux {base}" if base else ttl
            plot(name, "lines.gp", files=" ".join(p for p, _ in ratio_files),
                 titles=" ".join(t for _, t in ratio_files), col=col, goal=goal, ylab=ylab,
                 ttl=ttl)
    return made, have_gp
