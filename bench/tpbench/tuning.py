"""Markdown table of the tuning variants: build/bench-tuning/<arch>/<variant>/summary.csv.

usage: bench/tuning-report.py [DIR]   (DIR default build/bench-tuning)

Per arch, case and variant: TP/WW and TP/adaptive (medians from the same boot),
TP's per-thread min/avg and how TP acquired in the kernel (stolen/top/handoff).
"""
import os
import sys

from .data import load_json, read_summary


def variants_of(adir):
    """The variants under ADIR that have a summary.csv: base first, then by name."""
    variants = sorted(v for v in os.listdir(adir)
                      if os.path.isfile(os.path.join(adir, v, "summary.csv")))
    variants.sort(key=lambda v: (v != "base", v))
    return variants


def tp_ratio(a, b):
    return float(a["ops_per_sec_median"]) / float(b["ops_per_sec_median"])


def arch_tables(adir):
    """The two tables of one arch, as lines."""
    variants = variants_of(adir)
    L = ["| case | variant | TP/WW | TP/adaptive | TP min/avg | WW min/avg | TP stolen/top/handoff |",
         "|---|---|---:|---:|---:|---:|---|"]
    rows = {}
    for v in variants:
        for r in read_summary(os.path.join(adir, v)):
            key = (int(r["threads"]), int(r["load"]))
            rows.setdefault(key, {}).setdefault(v, {})[r["type"]] = r
    for key in sorted(rows):
        for v in variants:
            t = rows[key].get(v, {})
            if not all(k in t for k in ("tp", "ww", "adaptive")):
                continue
            tp, ww, ad = t["tp"], t["ww"], t["adaptive"]
            kinds = "/".join(tp[k] for k in ("stolen_total", "top_total", "handoff_total"))
            L.append(f"| {key[0]} thr, load {key[1]} | {v} | {tp_ratio(tp, ww):.2f} | "
                     f"{tp_ratio(tp, ad):.2f} | {float(tp['thr_min_avg_ratio']):.2f} | "
                     f"{float(ww['thr_min_avg_ratio']):.2f} | {kinds} |")
    L += ["", "| variant | kernel (series key) | started | host load average start → end |",
          "|---|---|---|---|"]
    for v in variants:
        m = load_json(os.path.join(adir, v, "meta.json"), {})
        L.append(f"| {v} | `{m.get('series_key', '?')}` | {m.get('started', '?')} "
                 f"| {m.get('host_loadavg_start', '?')} → {m.get('host_loadavg_end', '?')} |")
    return L


def main():
    if len(sys.argv) > 2 or sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__.strip().splitlines()[2])
        return 0 if sys.argv[1:2] in (["-h"], ["--help"]) else 2
    root = sys.argv[1] if len(sys.argv) == 2 else "build/bench-tuning"
    if not os.path.isdir(root):
        print(f"bench-tuning-report: no {root}: run 'make bench-tuning' first", file=sys.stderr)
        return 1
    for arch in sorted(os.listdir(root)):
        print(f"### {arch}\n")
        print("\n".join(arch_tables(os.path.join(root, arch))))
        print()
    return 0
