"""The results on disk and the one list of mutex types.  A results directory has a directory
per arch (results/<arch>/, build/bench/<arch>/): summary.csv (from `bench/tool.py parse`),
meta.json, and optionally exit-cost/summary.json (make bench-exit), real/summary.json (the real
programs) and previous/ (the baseline run of an earlier series).  A kernel base other than the
first row of ci/bases.tsv has its own directories, <arch>-<base>/ (results/x86_64-7.2/)."""
import csv
import json
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ARCHES = ["x86_64", "arm64"]

# The mutex types of `perf bench futex mutex -f TYPE`, in the order of every table.
# ww-spin and spin-backoff are the controls of rseq-adaptive and rseq-spin: the same locks
# without the slice extension request ("adaptive" is glibc's PTHREAD_MUTEX_ADAPTIVE_NP).
TYPES = ["ww", "pi", "tp", "glibc", "adaptive", "spin", "ww-spin", "rseq-adaptive",
         "spin-backoff", "rseq-spin"]
LABEL = {"ww": "WW", "pi": "PI", "tp": "TP", "glibc": "glibc", "adaptive": "adaptive",
         "spin": "spin", "ww-spin": "WW-spin", "rseq-adaptive": "rseq-adaptive",
         "spin-backoff": "spin-backoff", "rseq-spin": "rseq-spin"}

# A case: threads, load (work loop iterations), wait (1us-sleep share /1024), shared, pinned
# (threads pinned round-robin to the vCPUs, perf's default; 0: -U).  Results from a perf
# without the pinned key were pinned.
CASE_KEYS = ["threads", "load", "wait", "shared", "pinned"]
CASE_DEFAULTS = {"pinned": 1}


def case_key(r):
    """The case tuple of a runs.csv or summary.csv row."""
    return tuple(int(r.get(k) or CASE_DEFAULTS.get(k, 0)) for k in CASE_KEYS)

# runs.csv: one row per run (the guest's "# result:" line plus the repetition).
RUN_FIELDS = ("rep type status threads cpus load wait shared pinned runtime ops ops_per_sec "
              "cpu_us_per_op cpu_util lock_syscalls unlock_syscalls wakeups lock_errors "
              "unlock_errors stolen top handoff slice_req slice_granted "
              "thr_min thr_avg thr_max thr_rsd wait_max_us wait_p99_us thr_p99_max_us").split()
# summary.csv: one row per type and case.  cpu_*: the CPU time of the bench process (user + sys,
# getrusage()) per op in us and divided by the runtime (CPUs busy); "na" from a perf without them.
SUMMARY_FIELDS = (
    "type threads load wait shared pinned status n ops_per_sec_median ops_per_sec_min ops_per_sec_max "
    "ops_total lock_syscalls_per_op unlock_syscalls_per_op syscalls_per_op unlock_syscalls_total "
    "thr_min_median thr_avg_median thr_max_median thr_min_avg_ratio stolen_total top_total "
    "handoff_total errors_total wait_max_us_max wait_max_us_median wait_p99_us_median "
    "thr_p99_max_us_median cpu_us_per_op_median cpu_us_per_op_min cpu_us_per_op_max "
    "cpu_util_median slice_req_total slice_granted_total").split()


def fnum(x):
    """A summary.csv cell as a float, or None ("na", empty, missing)."""
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def load_json(path, default=None):
    try:
        with open(path) as fh:
            return json.load(fh)
    except FileNotFoundError:
        return default


def read_summary(d):
    """The rows of D/summary.csv as dicts (FileNotFoundError if there is none)."""
    with open(os.path.join(d, "summary.csv")) as fh:
        return list(csv.DictReader(fh))


def load_bases():
    """The rows of ci/bases.tsv in table order: [{base, package, from, patches, test, submit,
    suffix}], suffix "" for the first row (the default base) and "-<base>" for the others, as
    ci/lib.sh's base_env names the directories."""
    out = []
    with open(os.path.join(ROOT, "ci", "bases.tsv")) as fh:
        for line in fh:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            b = dict(zip(["base", "package", "from", "patches", "test", "submit"], w))
            b["suffix"] = f"-{b['base']}" if out else ""
            out.append(b)
    return out


def load_archs(results, arches=ARCHES, suffix=""):
    """[{arch, key (its directory: arch + SUFFIX), meta, cases: {(threads, load, wait, shared, pinned):
    {type: row}}, exit, real, previous (the same for previous/ or None)}] of the ARCHES
    (directories <arch>SUFFIX) RESULTS has."""
    out = []
    for arch in arches:
        d = os.path.join(results, arch + suffix)
        try:
            rows = read_summary(d)
        except FileNotFoundError:
            continue
        cases = {}
        for r in rows:
            cases.setdefault(case_key(r), {})[r["type"]] = r
        out.append({"arch": arch, "key": arch + suffix, "cases": cases,
                    "meta": load_json(os.path.join(d, "meta.json"), {}),
                    "exit": load_json(os.path.join(d, "exit-cost", "summary.json")),
                    "real": load_json(os.path.join(d, "real", "summary.json")),
                    "previous": (load_archs(d, ["previous"]) or [None])[0]})
    return out


def ok(case, t):
    """The summary row of type T in CASE if it measured something, else None."""
    r = case.get(t)
    return r if r and r["status"] == "ok" else None


def ops(case, t):
    """Median ops/s of type T in CASE, or None."""
    return fnum((ok(case, t) or {}).get("ops_per_sec_median"))


def cpu(case, t):
    """Median CPU time per op (us, user + sys) of type T in CASE, or None (not measured)."""
    return fnum((ok(case, t) or {}).get("cpu_us_per_op_median"))


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def spread(r, field="ops_per_sec"):
    """Half the min..max range of the repetitions of FIELD relative to the median."""
    lo, hi, med = (fnum(r.get(f"{field}_{x}")) for x in ("min", "max", "median"))
    return None if None in (lo, hi, med) or not med else (hi - lo) / 2 / med


def plain(k):
    """A case without sleeping critical sections, on a private futex, threads pinned."""
    return k[2] == 0 and k[3] == 0 and k[4]


def table_order(k):
    """Sort key of the cases in the tables: plain cases first, then by threads and load."""
    return (k[2], k[3], -k[4], k[0], k[1])


def vcpus(a):
    try:
        return int(a["meta"].get("vcpus") or a["meta"].get("smp"))
    except (TypeError, ValueError):
        return 2


def tp_supported(a):
    return any(ops(c, "tp") is not None for c in a["cases"].values())
