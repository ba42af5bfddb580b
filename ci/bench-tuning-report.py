#!/usr/bin/env python3
"""Markdown table of the tuning variants: build/bench-tuning/<arch>/<variant>/summary.csv.

usage: ci/bench-tuning-report.py [DIR]   (DIR default build/bench-tuning)

Per arch, case and variant: TP/WW and TP/adaptive (medians from the same boot),
TP's per-thread min/avg and how TP acquired in the kernel (stolen/top/handoff).
"""
import csv
import json
import os
import sys


def main():
    if len(sys.argv) > 2 or sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__.strip().splitlines()[2])
        return 0 if sys.argv[1:2] in (["-h"], ["--help"]) else 2
    root = sys.argv[1] if len(sys.argv) == 2 else "build/bench-tuning"
    if not os.path.isdir(root):
        print(f"bench-tuning-report: no {root}: run 'make bench-tuning' first", file=sys.stderr)
        return 1
    for arch in sorted(os.listdir(root)):
        adir = os.path.join(root, arch)
        variants = sorted(v for v in os.listdir(adir)
                          if os.path.isfile(os.path.join(adir, v, "summary.csv")))
        variants.sort(key=lambda v: (v != "base", v))
        print(f"### {arch}\n")
        print("| case | variant | TP/WW | TP/adaptive | TP min/avg | WW min/avg | TP stolen/top/handoff |")
        print("|---|---|---:|---:|---:|---:|---|")
        rows = {}
        for v in variants:
            with open(os.path.join(adir, v, "summary.csv")) as f:
                for r in csv.DictReader(f):
                    key = (int(r["threads"]), int(r["load"]))
                    rows.setdefault(key, {}).setdefault(v, {})[r["type"]] = r
        for key in sorted(rows):
            for v in variants:
                t = rows[key].get(v, {})
                if not all(k in t for k in ("tp", "ww", "adaptive")):
                    continue
                tp, ww, ad = t["tp"], t["ww"], t["adaptive"]
                ratio = lambda a, b: float(a["ops_per_sec_median"]) / float(b["ops_per_sec_median"])
                kinds = "/".join(tp[k] for k in ("stolen_total", "top_total", "handoff_total"))
                print(f"| {key[0]} thr, load {key[1]} | {v} | {ratio(tp, ww):.2f} | {ratio(tp, ad):.2f} "
                      f"| {float(tp['thr_min_avg_ratio']):.2f} | {float(ww['thr_min_avg_ratio']):.2f} | {kinds} |")
        print()
        print("| variant | kernel (series key) | started | host load average start → end |")
        print("|---|---|---|---|")
        for v in variants:
            with open(os.path.join(adir, v, "meta.json")) as f:
                m = json.load(f)
            print(f"| {v} | `{m.get('series_key', '?')}` | {m.get('started', '?')} "
                  f"| {m.get('host_loadavg_start', '?')} → {m.get('host_loadavg_end', '?')} |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
