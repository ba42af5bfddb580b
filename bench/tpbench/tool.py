"""Helpers for `make bench` (see ci/bench/perf-bench.sh and docs/benchmarks.md).

  bench/tool.py gen   --matrix bench/quick.matrix --mode quick OUT
        write the guest script (bench/templates/guest-bench.sh.in): runs the matrix
        (types interleaved, reps outermost) with the guest's `perf bench futex mutex`
        (the initramfs has it as /usr/bin/perf, see ci/bench/perf-bench.sh) and prints
        its "# result:" lines tagged with the repetition.
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

from .data import CASE_KEYS, RUN_FIELDS, SUMMARY_FIELDS, TYPES, read_summary
from .text import render

PROG = "bench/tool.py"
RESULT_RE = re.compile(r"# result: (.*\S)")
BENCH_RE = re.compile(r"# bench: (.*\S)")
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
            elif key == "case" and len(args) == 4:
                m["cases"].append(dict(zip(CASE_KEYS, map(int, args))))
            else:
                sys.exit(f"{path}:{lineno}: cannot parse '{' '.join(line)}'")
    if not m["types"] or not m["cases"] or m["reps"] < 1 or m["runtime"] < 1:
        sys.exit(f"{path}: needs runtime, reps >= 1, types and at least one case")
    return m


def perf_args(typ, case, runtime):
    a = f"-f {typ} -t {case['threads']} -l {case['load']} -r {runtime}"
    if case["wait"]:
        a += f" -w {case['wait']}"
    if case["shared"]:
        a += " -S"
    return a


def cmd_gen(a):
    m = read_matrix(a.matrix)
    runs = []
    for rep in range(1, m["reps"] + 1):
        for case in m["cases"]:
            for typ in m["types"]:
                runs.append(f"run {rep} {perf_args(typ, case, m['runtime'])}")
    body = render("guest-bench.sh.in", generator=PROG, matrix=os.path.relpath(a.matrix),
                  mode=a.mode, nruns=len(runs), runtime=m["runtime"], reps=m["reps"],
                  runs="\n".join(runs)) + "\n"
    with open(a.out, "wb") as f:
        f.write(body.encode())
    os.chmod(a.out, 0o755)
    est = len(runs) * m["runtime"]
    print(f"bench-tool: {a.out}: {len(runs)} runs, ~{est // 60}m{est % 60:02d}s of measurement",
          file=sys.stderr)


def num(v):
    if v in (None, "", "na"):
        return None
    try:
        return int(v)
    except ValueError:
        return float(v)


def median(xs):
    return statistics.median(xs) if xs else None


def fmt(v, digits=6):
    if v is None:
        return "na"
    if isinstance(v, float):
        if abs(v) >= 100:
            return str(round(v))
        return f"{v:.{digits}g}"
    return str(v)


def summarize(key, rs):
    """The summary.csv row of one type and case from its runs.csv rows RS."""
    ok = [r for r in rs if r.get("status") == "ok"]
    row = dict(zip(["type"] + CASE_KEYS, key))
    row["n"] = len(ok)
    if not ok:
        row["status"] = rs[0].get("status", "unknown")
        return row
    row["status"] = "ok"
    ops = [num(r["ops_per_sec"]) for r in ok]
    row["ops_per_sec_median"] = median(ops)
    row["ops_per_sec_min"] = min(ops)
    row["ops_per_sec_max"] = max(ops)
    tot = sum(num(r["ops"]) for r in ok)
    row["ops_total"] = tot
    ls = [num(r.get("lock_syscalls")) for r in ok]
    us = [num(r.get("unlock_syscalls")) for r in ok]
    if None not in ls and None not in us and tot:
        row["lock_syscalls_per_op"] = sum(ls) / tot
        row["unlock_syscalls_per_op"] = sum(us) / tot
        row["syscalls_per_op"] = (sum(ls) + sum(us)) / tot
        row["unlock_syscalls_total"] = sum(us)
    elif key[0] == "spin":
        row["lock_syscalls_per_op"] = row["unlock_syscalls_per_op"] = 0.0
        row["syscalls_per_op"] = 0.0
        row["unlock_syscalls_total"] = 0
    for fld in ("thr_min", "thr_avg", "thr_max"):
        row[fld + "_median"] = median([num(r[fld]) for r in ok])
    ratios = [num(r["thr_min"]) / num(r["thr_avg"]) for r in ok if num(r["thr_avg"])]
    row["thr_min_avg_ratio"] = median(ratios)
    for fld, out in (("stolen", "stolen_total"), ("top", "top_total"),
                     ("handoff", "handoff_total")):
        vals = [num(r.get(fld)) for r in ok]
        row[out] = None if None in vals else sum(vals)
    row["errors_total"] = sum(num(r.get("lock_errors")) or 0 for r in ok) + \
        sum(num(r.get("unlock_errors")) or 0 for r in ok)
    # Lock wait times (a perf without them leaves these "na")
    waits = [num(r.get("wait_max_us")) for r in ok]
    if waits and None not in waits:
        row["wait_max_us_max"] = max(waits)
        row["wait_max_us_median"] = median(waits)
        row["wait_p99_us_median"] = median([num(r.get("wait_p99_us")) for r in ok])
        row["thr_p99_max_us_median"] = median([num(r.get("thr_p99_max_us")) for r in ok])
    return row


def cmd_parse(a):
    runs, bench = [], {}
    fails = []
    with open(a.log, errors="replace") as f:
        for line in f:
            line = line.replace("\r", "")
            m = RESULT_RE.search(line)
            if m:
                runs.append(dict(KV_RE.findall(m.group(1))))
                continue
            m = BENCH_RE.search(line)
            if m:
                text = m.group(1)
                if text.startswith("fail "):
                    fails.append(text)
                for k, v in KV_RE.findall(text):
                    bench.setdefault(k, v)
    os.makedirs(a.out, exist_ok=True)

    with open(os.path.join(a.out, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=RUN_FIELDS, extrasaction="ignore", restval="na")
        w.writeheader()
        for r in runs:
            w.writerow(r)

    groups = {}
    for r in runs:
        key = (r.get("type"),) + tuple(int(r.get(k, 0)) for k in CASE_KEYS)
        groups.setdefault(key, []).append(r)
    rows = [summarize(key, rs) for key, rs in groups.items()]

    order = {t: i for i, t in enumerate(TYPES)}
    rows.sort(key=lambda r: (r["wait"], r["shared"], r["threads"], r["load"],
                             order.get(r["type"], 99)))
    with open(os.path.join(a.out, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=SUMMARY_FIELDS, restval="na")
        w.writeheader()
        for r in rows:
            w.writerow({k: fmt(v) for k, v in r.items()})

    meta = dict(kv.split("=", 1) for kv in a.meta)
    meta.update({
        "guest_kernel": bench.get("kernel", "unknown"),
        "guest_kernel_version": bench.get("kernel_version", "unknown").replace("_", " "),
        "guest_machine": bench.get("machine", "unknown"),
        "vcpus": int(bench["nproc"]) if bench.get("nproc", "").isdigit() else None,
        "runtime_s": num(bench.get("runtime")),
        "reps": num(bench.get("reps")),
        "runs_planned": num(bench.get("runs")),
        "runs_parsed": len(runs),
        "runs_failed": len(fails),
        "completed": "fails" in bench,
    })
    if "error" in bench:
        meta["error"] = bench["error"]
    with open(os.path.join(a.out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2, sort_keys=True)
        f.write("\n")

    if not runs:
        print(f"bench-tool: no '# result:' lines in {a.log}"
              + (f" (guest said: error={bench['error']})" if "error" in bench else ""),
              file=sys.stderr)
        return 1
    if fails:
        for x in fails:
            print(f"bench-tool: guest: {x}", file=sys.stderr)
        return 1
    return 0


def cmd_table(a):
    rows = read_summary(a.dir)
    cases = {}
    for r in rows:
        cases.setdefault(tuple(r[k] for k in CASE_KEYS), {})[r["type"]] = r
    print(f"{'threads':>7} {'load':>4} {'wait':>4} {'shr':>3} " +
          " ".join(f"{t:>9}" for t in TYPES) + "   tp/ww  tp/spin")
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

        def ratio(x, y):
            try:
                return f"{float(by[x]['ops_per_sec_median']) / float(by[y]['ops_per_sec_median']):7.2f}"
            except (KeyError, ValueError, ZeroDivisionError):
                return f"{'-':>7}"
        print(f"{key[0]:>7} {key[1]:>4} {key[2]:>4} {key[3]:>3} " + " ".join(cells) +
              f" {ratio('tp', 'ww')}  {ratio('tp', 'spin')}")
    print("(median ops/sec over the repetitions)")
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
