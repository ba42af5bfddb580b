"""The plots of docs/benchmarks.md: gnuplot data files (<plots>/data/*.dat) and SVGs made with
bench/lines.gp and bench/bars.gp.  Without gnuplot only the data files are written."""
import os
import shutil
import subprocess
import sys

from .data import LABEL, ROOT, TYPES, fnum, ok, ops, plain, ratio, tp_supported, vcpus
from .goals import GOAL


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


# The plots of all arches: (name, column of the ratios-*.dat files, goal line, y label, title).
RATIO_PLOTS = (
    ("tp-ww", 2, GOAL["tp-best"].threshold, "TP / WW", "TP / WW throughput vs load (medians)"),
    ("tp-ceiling", 3, GOAL["tp-spin"].threshold, "TP / spin",
     "TP / spinlock ceiling vs load (medians)"),
    ("tp-adaptive", 4, GOAL["tp-best"].threshold, "TP / adaptive",
     "TP / glibc adaptive mutex vs load (medians)"),
)


def make_plots(archs, plots):
    """Write the data files and plots under PLOTS.  Returns ({plot name: "bench/NAME.svg"}
    of the plots made, whether gnuplot was there)."""
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
                row += [fnum(r.get("lock_syscalls_per_op")) if r else None,
                        fnum(r.get("unlock_syscalls_per_op")) if r else None]
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
                r = ok(c, typ)
                if not r:
                    continue
                avg = fnum(r["thr_avg_median"])
                rows.append([f"{LABEL[typ][:5]} {t}t",
                             ratio(fnum(r["thr_min_median"]), avg), 1.0,
                             ratio(fnum(r["thr_max_median"]), avg)])
        fp = os.path.join(data, f"fairness-{arch}.dat")
        write_dat(fp, ["label", "min/avg", "avg", "max/avg"], rows)
        # TP acquisition kinds
        rows = []
        for k in sorted(k for k in a["cases"] if plain(k)):
            r = ok(a["cases"][k], "tp")
            if not r:
                continue
            s, tw, h = (fnum(r.get(x)) for x in ("stolen_total", "top_total", "handoff_total"))
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
        for name, col, goal, ylab, ttl in RATIO_PLOTS:
            if gnuplot("lines.gp", files=files, titles=titles, col=col, goal=goal, ylab=ylab,
                       ttl=ttl, out=os.path.join(plots, f"{name}.svg")):
                made[name] = f"bench/{name}.svg"
    return made, have_gp
