"""Helpers for `make bench` (see ci/bench/perf-bench.sh and docs/benchmarks.md).

  bench/tool.py gen   --matrix bench/quick.matrix --mode quick OUT
        write the guest script: runs the matrix (types interleaved, reps
        outermost) with the guest's `perf bench futex mutex` (the initramfs
        has it as /usr/bin/perf, see ci/bench/perf-bench.sh) and prints its "# result:"
        lines tagged with the repetition.
  bench/tool.py parse --log RAW --out DIR [--meta key=value ...]
        turn the console log into DIR/runs.csv (one row per run),
        DIR/summary.csv (medians with min/max per type and case) and
        DIR/meta.json.  Exit status 1 if the log holds no results or the
        guest reported failed runs.
  bench/tool.py table DIR
        print a short human-readable summary of DIR/summary.csv.
"""
import argparse
import csv
import json
import os
import re
import statistics
import sys

from .data import (CASE_DEFAULTS, CASE_KEYS, RUN_FIELDS, SUMMARY_FIELDS, TYPES, case_key, fnum,
                   load_archs, ratio, read_summary)
from .text import Missing, case_name, render

PROG = "bench/tool.py"
TUNING_USAGE = "usage: bench/tuning-report.py [DIR]   (DIR default build/bench-tuning)"
RESULT_RE = re.compile(r"# result: (.*\S)")
BENCH_RE = re.compile(r"# bench: (.*\S)")
SKIP_RE = re.compile(r"# skip: ([a-z-]+): (.*\S)")
KV_RE = re.compile(r"(\w+)=(\S+)")


def read_matrix(path):
    m = {"runtime": 1, "reps": 3, "types": [], "cases": []}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            key, args = line[0], line[1:]
            if key in ("runtime", "reps") and len(args) == 1:
                m[key] = int(args[0])
            elif key == "types" and args:
                m["types"] = args
            elif key == "case" and len(args) in (4, 5):
                m["cases"].append({**CASE_DEFAULTS, **dict(zip(CASE_KEYS, map(int, args)))})
            else:
                sys.exit(f"{path}:{lineno}: cannot parse '{' '.join(line)}'")
    if not m["types"] or not m["cases"] or m["reps"] < 1 or m["runtime"] < 1:
        sys.exit(f"{path}: needs runtime, reps >= 1, types and at least one case")
    return m


def cmd_gen(a):
    m = read_matrix(a.matrix)
    runs = [f"run {rep} -f {typ} -t {c['threads']} -l {c['load']} -r {m['runtime']}"
            + (f" -w {c['wait']}" if c["wait"] else "") + (" -S" if c["shared"] else "")
            + ("" if c["pinned"] else " -U")
            for rep in range(1, m["reps"] + 1) for c in m["cases"] for typ in m["types"]]
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(render("guest-bench.sh.in", generator=PROG, matrix=os.path.relpath(a.matrix),
                       mode=a.mode, nruns=len(runs), runtime=m["runtime"], reps=m["reps"],
                       runs="\n".join(runs)) + "\n")
    os.chmod(a.out, 0o755)
    est = len(runs) * m["runtime"]
    print(f"bench-tool: {a.out}: {len(runs)} runs, ~{est // 60}m{est % 60:02d}s of measurement",
          file=sys.stderr)


def num(v):
    """A runs.csv value as int or float, or None ("na", empty, missing)."""
    if v in (None, "", "na"):
        return None
    try:
        return int(v)
    except ValueError:
        return float(v)


def median(xs):
    return statistics.median(xs) if xs else None


def fmt(v):
    """A summary.csv cell."""
    if v is None:
        return "na"
    if isinstance(v, float):
        return str(round(v)) if abs(v) >= 100 else f"{v:.6g}"
    return str(v)


def write_csv(path, fields, rows, **kw):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, restval="na", **kw)
        w.writeheader()
        w.writerows(rows)


def summarize(key, rs):
    """The summary.csv row of one type and case from its runs.csv rows RS."""
    ok = [r for r in rs if r.get("status") == "ok"]
    row = dict(zip(["type"] + CASE_KEYS, key), n=len(ok),
               status="ok" if ok else rs[0].get("status", "unknown"))
    if not ok:
        return row
    ops = [num(r["ops_per_sec"]) for r in ok]
    tot = sum(num(r["ops"]) for r in ok)
    row.update(ops_per_sec_median=median(ops), ops_per_sec_min=min(ops),
               ops_per_sec_max=max(ops), ops_total=tot)
    ls = [num(r.get("lock_syscalls")) for r in ok]
    us = [num(r.get("unlock_syscalls")) for r in ok]
    if None not in ls and None not in us and tot:
        row.update(lock_syscalls_per_op=sum(ls) / tot, unlock_syscalls_per_op=sum(us) / tot,
                   syscalls_per_op=(sum(ls) + sum(us)) / tot, unlock_syscalls_total=sum(us))
    elif key[0] in ("spin", "spin-backoff"):
        row.update(lock_syscalls_per_op=0.0, unlock_syscalls_per_op=0.0, syscalls_per_op=0.0,
                   unlock_syscalls_total=0)
    for fld in ("thr_min", "thr_avg", "thr_max"):
        row[fld + "_median"] = median([num(r[fld]) for r in ok])
    row["thr_min_avg_ratio"] = median([num(r["thr_min"]) / num(r["thr_avg"])
                                       for r in ok if num(r["thr_avg"])])
    for fld in ("stolen", "top", "handoff", "slice_req", "slice_granted"):
        vals = [num(r.get(fld)) for r in ok]
        row[fld + "_total"] = None if None in vals else sum(vals)
    row["errors_total"] = sum(num(r.get("lock_errors")) or 0 for r in ok) + \
        sum(num(r.get("unlock_errors")) or 0 for r in ok)
    # Lock wait times (a perf without them leaves these "na")
    waits = [num(r.get("wait_max_us")) for r in ok]
    if waits and None not in waits:
        row.update(wait_max_us_max=max(waits), wait_max_us_median=median(waits),
                   wait_p99_us_median=median([num(r.get("wait_p99_us")) for r in ok]),
                   thr_p99_max_us_median=median([num(r.get("thr_p99_max_us")) for r in ok]))
    # CPU time per op and CPUs busy (likewise "na" from a perf without them)
    cpu = [num(r.get("cpu_us_per_op")) for r in ok]
    if None not in cpu:
        row.update(cpu_us_per_op_median=median(cpu), cpu_us_per_op_min=min(cpu),
                   cpu_us_per_op_max=max(cpu))
    util = [num(r.get("cpu_util")) for r in ok]
    if None not in util:
        row["cpu_util_median"] = median(util)
    return row


def cmd_parse(a):
    runs, bench, fails, skipped = [], {}, [], {}
    with open(a.log, errors="replace") as f:
        for line in f:
            line = line.replace("\r", "")
            m = RESULT_RE.search(line)
            if m:
                runs.append(dict(KV_RE.findall(m.group(1))))
                continue
            m = SKIP_RE.search(line)
            if m:
                skipped.setdefault(m.group(1), m.group(2))
                continue
            m = BENCH_RE.search(line)
            if m:
                text = m.group(1)
                if text.startswith("fail "):
                    fails.append(text)
                for k, v in KV_RE.findall(text):
                    bench.setdefault(k, v)
    os.makedirs(a.out, exist_ok=True)
    write_csv(os.path.join(a.out, "runs.csv"), RUN_FIELDS, runs, extrasaction="ignore")
    groups = {}
    for r in runs:
        key = (r.get("type"),) + case_key(r)
        groups.setdefault(key, []).append(r)
    rows = sorted((summarize(key, rs) for key, rs in groups.items()), key=lambda r: (
        r["wait"], r["shared"], -r["pinned"], r["threads"], r["load"],
        TYPES.index(r["type"]) if r["type"] in TYPES else 99))
    write_csv(os.path.join(a.out, "summary.csv"), SUMMARY_FIELDS,
              [{k: fmt(v) for k, v in r.items()} for r in rows])
    meta = dict(kv.split("=", 1) for kv in a.meta)
    meta.update(
        guest_kernel=bench.get("kernel", "unknown"), guest_machine=bench.get("machine", "unknown"),
        guest_kernel_version=bench.get("kernel_version", "unknown").replace("_", " "),
        vcpus=int(bench["nproc"]) if bench.get("nproc", "").isdigit() else None,
        runtime_s=num(bench.get("runtime")), reps=num(bench.get("reps")),
        runs_planned=num(bench.get("runs")), runs_parsed=len(runs), runs_failed=len(fails),
        completed="fails" in bench)
    if "error" in bench:
        meta["error"] = bench["error"]
    if skipped:
        meta["skipped"] = skipped
        for t, why in skipped.items():
            print(f"bench-tool: {t} skipped: {why}", file=sys.stderr)
    with open(os.path.join(a.out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2, sort_keys=True)
        f.write("\n")
    if not runs:
        print(f"bench-tool: no '# result:' lines in {a.log}"
              + (f" (guest said: error={bench['error']})" if "error" in bench else ""),
              file=sys.stderr)
        return 1
    for x in fails:
        print(f"bench-tool: guest: {x}", file=sys.stderr)
    return 1 if fails else 0


def cmd_table(a):
    cases = {}
    for r in read_summary(a.dir):
        cases.setdefault(case_key(r), {})[r["type"]] = r
    print(f"{'threads':>7} {'load':>4} {'wait':>4} {'shr':>3} {'pin':>3} " +
          " ".join(f"{t:>9}" for t in TYPES) + "   tp/ww  tp/spin  cpu tp/ww")
    for key, by in cases.items():
        cells = []
        for t in TYPES:
            r = by.get(t)
            if not r:
                cells.append(f"{'-':>9}")
            elif r["status"] != "ok":
                cells.append(f"{r['status'][:9]:>9}")
            else:
                cells.append(f"{float(r['ops_per_sec_median']):9.0f}")

        def rel(x, y, field="ops_per_sec_median", na="-"):
            try:
                v = float(by[x][field]) / float(by[y][field])
                return f"{v:7.2f}"
            except (KeyError, ValueError, ZeroDivisionError):
                return f"{na:>7}"
        print(f"{key[0]:>7} {key[1]:>4} {key[2]:>4} {key[3]:>3} {key[4]:>3} " + " ".join(cells) +
              f" {rel('tp', 'ww')}  {rel('tp', 'spin')}"
              f"    {rel('tp', 'ww', 'cpu_us_per_op_median', 'n/a')}")
    print("(median ops/sec over the repetitions; cpu tp/ww: TP's CPU time per op over WW's)")
    return 0


def main():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--matrix", required=True)
    g.add_argument("--mode", required=True)
    g.add_argument("out")
    q = sub.add_parser("parse")
    q.add_argument("--log", required=True)
    q.add_argument("--out", required=True)
    q.add_argument("--meta", action="append", default=[])
    t = sub.add_parser("table")
    t.add_argument("dir")
    a = p.parse_args()
    return {"gen": cmd_gen, "parse": cmd_parse, "table": cmd_table}[a.cmd](a) or 0


# ---------------------------------------------------------------- make bench-tuning

def tuning_main():
    """bench/tuning-report.py [DIR]: per arch of DIR (<arch>/<variant>/) and per case and
    variant TP/WW and TP/adaptive (medians from the same boot), TP's and WW's per-thread
    min/avg and how TP acquired in the kernel; then each variant's kernel and host load."""
    if len(sys.argv) > 2 or sys.argv[1:2] in (["-h"], ["--help"]):
        print(TUNING_USAGE)
        return 0 if sys.argv[1:2] in (["-h"], ["--help"]) else 2
    root = sys.argv[1] if len(sys.argv) == 2 else "build/bench-tuning"
    if not os.path.isdir(root):
        print(f"bench-tuning-report: no {root}: run 'make bench-tuning' first", file=sys.stderr)
        return 1
    for arch in sorted(os.listdir(root)):
        adir = os.path.join(root, arch)
        variants = load_archs(adir, sorted(
            (v for v in os.listdir(adir) if os.path.isfile(os.path.join(adir, v, "summary.csv"))),
            key=lambda v: (v != "base", v)))
        print(f"### {arch}\n\n| case | variant | TP/WW | TP/WW CPU/op | TP/adaptive | TP min/avg "
              "| WW min/avg | TP stolen/top/handoff |\n|---|---|---:|---:|---:|---:|---:|---|")
        for k in sorted({k for v in variants for k in v["cases"]}):
            for v in variants:
                t = v["cases"].get(k, {})
                if not all(x in t for x in ("tp", "ww", "adaptive")):
                    continue
                tp, ww, ad = (float(t[x]["ops_per_sec_median"]) for x in ("tp", "ww", "adaptive"))
                kinds = "/".join(t["tp"][x] for x in ("stolen_total", "top_total", "handoff_total"))
                cpu = ratio(*(fnum(t[x].get("cpu_us_per_op_median")) for x in ("tp", "ww")))
                cpu = "n/a" if cpu is None else f"{cpu:.2f}"
                print(f"| {case_name(k)} | {v['arch']} | {tp / ww:.2f} | {cpu} | {tp / ad:.2f} | "
                      f"{float(t['tp']['thr_min_avg_ratio']):.2f} | "
                      f"{float(t['ww']['thr_min_avg_ratio']):.2f} | {kinds} |")
        print("\n| variant | kernel (series key) | started | host load average start → end |\n"
              "|---|---|---|---|")
        for v in variants:
            m = Missing(v["meta"])
            print(f"| {v['arch']} | `{m['series_key']}` | {m['started']} "
                  f"| {m['host_loadavg_start']} → {m['host_loadavg_end']} |")
        print()
    return 0
