"""The benchmark results on disk, and the names every part of the bench code shares.

A results directory holds one directory per arch (results/<arch>/, build/bench/<arch>/):
summary.csv (one row per mutex type and case, written by `bench/tool.py parse`), meta.json,
optionally exit-cost/summary.json (make bench-exit), real/summary.json (the real programs) and
previous/ (the baseline run of an earlier series).
"""
import csv
import json
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ARCHES = ["x86_64", "arm64"]

# The mutex types of `perf bench futex mutex -f TYPE`, in the order of every table.
TYPES = ["ww", "pi", "tp", "glibc", "adaptive", "spin"]
LABEL = {"ww": "WW", "pi": "PI", "tp": "TP", "glibc": "glibc", "adaptive": "adaptive",
         "spin": "spin"}

# A case of a matrix: threads, load (work loop iterations), wait (1us-sleep share /1024), shared.
CASE_KEYS = ["threads", "load", "wait", "shared"]

# runs.csv: one row per run (the guest's "# result:" line plus the repetition).
RUN_FIELDS = [
    "rep", "type", "status", "threads", "cpus", "load", "wait", "shared",
    "runtime", "ops", "ops_per_sec", "lock_syscalls", "unlock_syscalls",
    "wakeups", "lock_errors", "unlock_errors", "stolen", "top", "handoff",
    "thr_min", "thr_avg", "thr_max", "thr_rsd",
    "wait_max_us", "wait_p99_us", "thr_p99_max_us",
]
# summary.csv: one row per type and case.
SUMMARY_FIELDS = [
    "type", "threads", "load", "wait", "shared", "status", "n",
    "ops_per_sec_median", "ops_per_sec_min", "ops_per_sec_max",
    "ops_total", "lock_syscalls_per_op", "unlock_syscalls_per_op",
    "syscalls_per_op", "unlock_syscalls_total",
    "thr_min_median", "thr_avg_median", "thr_max_median", "thr_min_avg_ratio",
    "stolen_total", "top_total", "handoff_total", "errors_total",
    "wait_max_us_max", "wait_max_us_median", "wait_p99_us_median", "thr_p99_max_us_median",
]


def fnum(x):
    """A summary.csv cell as a float, or None ("na", empty, missing)."""
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


def read_summary(d):
    """The rows of D/summary.csv as dicts (FileNotFoundError if there is none)."""
    with open(os.path.join(d, "summary.csv")) as fh:
        return list(csv.DictReader(fh))


def load_arch(results, arch):
    """RESULTS/ARCH as a dict: arch, meta, cases {(threads, load, wait, shared): {type: row}},
    dir, exit, real, previous (the same for previous/), or None without a summary.csv."""
    d = os.path.join(results, arch)
    try:
        rows = read_summary(d)
    except FileNotFoundError:
        return None
    meta = load_json(os.path.join(d, "meta.json"), {})
    cases = {}
    for r in rows:
        key = tuple(int(r[k]) for k in CASE_KEYS)
        cases.setdefault(key, {})[r["type"]] = r
    exit_cost = load_json(os.path.join(d, "exit-cost", "summary.json"))
    real = load_json(os.path.join(d, "real", "summary.json"))
    prev = None
    if os.path.isdir(os.path.join(d, "previous")):
        prev = load_arch(d, "previous")
    return {"arch": arch, "meta": meta, "cases": cases, "dir": d, "exit": exit_cost,
            "real": real, "previous": prev}


def load_archs(results):
    """load_arch() of every arch in ARCHES that RESULTS has."""
    return [x for x in (load_arch(results, arch) for arch in ARCHES) if x]


def ok(case, t):
    """The summary row of type T in CASE if it measured something, else None."""
    r = case.get(t)
    return r if r and r["status"] == "ok" else None


def ops(case, t):
    """Median ops/s of type T in CASE, or None."""
    r = ok(case, t)
    return fnum(r["ops_per_sec_median"]) if r else None


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def spread(r):
    """Half the min..max range of the repetitions relative to the median."""
    lo, hi, med = fnum(r.get("ops_per_sec_min")), fnum(r.get("ops_per_sec_max")), \
        fnum(r.get("ops_per_sec_median"))
    if None in (lo, hi, med) or not med:
        return None
    return (hi - lo) / 2 / med


def plain(k):
    """A case without sleeping critical sections and on a private futex."""
    return k[2] == 0 and k[3] == 0


def table_order(k):
    """Sort key of the cases in the tables: plain cases first, then by threads and load."""
    return (k[2], k[3], k[0], k[1])


def vcpus(a):
    v = a["meta"].get("vcpus") or a["meta"].get("smp")
    try:
        return int(v)
    except (TypeError, ValueError):
        return 2


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
