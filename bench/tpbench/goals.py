"""The goals of docs/benchmarks.md as data: a metric of one arch's results (its worst case over
the cases the goal covers), a comparison and a threshold.  evaluate() gives a Result per goal:
met, missed, not measured or TP unsupported, with the texts of the measured value and the case.
"""
import operator
from typing import Callable, NamedTuple, Optional

from .data import LABEL, cpu, fnum, ok, ops, plain, ratio, spread, table_order, tp_supported, vcpus
from .text import Missing, Notes, case_name

note = Notes("notes.md.in")

HANDOFF_MS = 4  # TP_HANDOFF_NS of the series (kernel/futex/tp.c), in ms
WAIT_LIMIT_US = 2000 * HANDOFF_MS  # the longest TP wait allowed: twice the handoff bound
# Another lock type's longest wait within this fraction of TP's counts as "as long": one run's
# maximum is one sample, and 13.02 against 12.97 ms is no evidence against the handoff path.
WAIT_SAME = 0.95

MET, MISSED, NOT_MEASURED, TP_UNSUPPORTED = "met", "missed", "not measured", "TP unsupported"

# The designs a reviewer holds TP against: the wait-wake mutex, glibc's adaptive mutex, the
# wait-wake mutex that spins first, and the two that ask for an rseq time slice extension while
# they hold the lock (skipped where the kernel has none: they then drop out of the maximum).
PEERS = ("ww", "adaptive", "ww-spin", "rseq-adaptive", "rseq-spin")
PEER_NAMES = ", ".join(LABEL[t] for t in PEERS)
# TP's CPU time per op may be this much above the spinlock's with threads <= vCPUs.
CPU_SPIN_LIMIT = 1.1


class Goal(NamedTuple):
    key: str
    name: str                       # the goal column
    target: str                     # the target column
    compare: Callable               # (value, threshold) -> met
    threshold: Optional[float]      # None: the fact "limit" of the metric
    shown: str                      # the measured column: str.format of value and facts
    metric: Callable                # arch -> (value, case[, facts]) or None (not measured)
    where: Callable = None          # (arch, case or None) -> the worst-case column
    needs_tp: bool = True           # n/a when the kernel had no TP futexes


class Result(NamedTuple):
    goal: Goal
    status: str                     # MET, MISSED, NOT_MEASURED or TP_UNSUPPORTED
    measured: str                   # the text of the measured column
    where: str                      # the text of the worst-case column


# ---------------------------------------------------------------- metrics

def worst(vals, pick=min, key=lambda v: v[0]):
    """The first (value, case, ...) of VALS with the lowest value (PICK=max: the highest),
    leaving out the values that are None; None if there is none."""
    return pick((v for v in vals if v[0] is not None), key=key, default=None)


def tp_spin_points(a):
    """[(case, TP/spin)] for the spin-ceiling goal: plain cases, threads <= vCPUs, loads 5-50."""
    pts = [(k, ratio(ops(c, "tp"), ops(c, "spin"))) for k, c in a["cases"].items()
           if plain(k) and k[0] <= vcpus(a) and 5 <= k[1] <= 50]
    return sorted(((k, r) for k, r in pts if r is not None), key=lambda p: (p[0][1], p[0]))


def longest_wait(a, t, k):
    """The longest single wait (us) of type T in case K over all runs, or None."""
    r = ok(a["cases"].get(k, {}), t)
    return fnum(r.get("wait_max_us_max")) if r else None


def tp_longest_wait(a):
    """(us, case) of TP's longest single wait with threads <= vCPUs, or None."""
    return worst(((longest_wait(a, "tp", k), k) for k in a["cases"] if k[0] <= vcpus(a)), max)


def tp_losses(a):
    """[(case, type, TP ops, type ops, within the spread)] where TP is slower than one of its
    PEERS."""
    out = []
    for k in sorted(a["cases"], key=table_order):
        c = a["cases"][k]
        tp = ops(c, "tp")
        for t in PEERS:
            o = ops(c, t)
            if tp is not None and o and tp < o:
                sp = max(spread(c["tp"]) or 0, spread(c.get(t)) or 0)
                out.append((k, t, tp, o, (o - tp) / o <= sp))
    return out


def tp_vs_best(c):
    """(TP, the best of its PEERS) median ops/s of one case; either may be None."""
    best = max([x for x in (ops(c, t) for t in PEERS) if x is not None], default=None)
    return ops(c, "tp"), best


def previous_points(a):
    """[(TP/WW now / before, case, the spread of the two)] of the cases the previous run has."""
    out = []
    for k, c in a["cases"].items():
        pc = a["previous"]["cases"].get(k) if a["previous"] else None
        if not pc:
            continue
        now, before = ratio(ops(c, "tp"), ops(c, "ww")), ratio(ops(pc, "tp"), ops(pc, "ww"))
        sp = [spread(x) for x in (c.get("tp"), c.get("ww")) if x]
        if now is not None and before is not None and None not in sp and len(sp) == 2:
            out.append((now / before, k, sum(sp)))
    return out


def cpu_points(a):
    """[(TP's CPU time per op / the lowest of its PEERS', case, spread, that peer)] of the
    cases with more threads than vCPUs, the spread being the larger half min-max range of the
    two types' CPU time per op."""
    out = []
    for k, c in a["cases"].items():
        peers = [(cpu(c, t), t) for t in PEERS if cpu(c, t)]
        if k[0] <= vcpus(a) or cpu(c, "tp") is None or not peers:
            continue
        low, t = min(peers)
        sp = [spread(ok(c, x), "cpu_us_per_op") for x in ("tp", t)]
        if None not in sp:
            out.append((cpu(c, "tp") / low, k, max(sp), t))
    return out


def m_cpu_spin(a):
    """TP's CPU time per op / the spinlock's, threads <= vCPUs, no-sleep cases (worst)."""
    return worst(((ratio(cpu(c, "tp"), cpu(c, "spin")), k) for k, c in a["cases"].items()
                  if k[0] <= vcpus(a) and not k[2]), max)


def m_fairness(a):
    vals = [(fnum(ok(c, "tp")["thr_min_avg_ratio"]), fnum(ok(c, "ww")["thr_min_avg_ratio"]), k)
            for k, c in a["cases"].items() if ok(c, "tp") and ok(c, "ww")]
    w = worst((tp - ww, k, tp, ww) for tp, ww, k in vals if tp is not None and ww is not None)
    return (w[0], w[1], {"tp": w[2], "ww": w[3]}) if w else None


def m_longest_wait(a):
    w = tp_longest_wait(a)
    return (w[0], w[1], {"ms": w[0] / 1000}) if w else None


def m_previous(a):
    w = min(previous_points(a), key=lambda v: v[0] - (1 - v[2]), default=None)
    return (w[0], w[1], {"spread": w[2], "limit": 1 - w[2]}) if w else None


def m_cpu(a):
    w = max(cpu_points(a), key=lambda v: v[0] - (1 + v[2]), default=None)
    return (w[0], w[1], {"spread": w[2], "limit": 1 + w[2], "peer": LABEL[w[3]]}) if w else None


def m_exit_cost(a):
    e = a["exit"]
    return (e["ratio"], None, {"lo": e["ratio_min"], "hi": e["ratio_max"]}) if e else None


def where_previous(a, case):
    prev = a["previous"]
    if case is None:
        return "" if prev else note("where.no-previous",
                                    suffix=a.get("key", a["arch"])[len(a["arch"]):])
    return note("where.previous", case=case_name(case), m=Missing(prev["meta"]),
                rerun="bench-baseline" in prev["meta"].get("kernel_source", ""))


def where_cpu(a, case):
    if case is not None:
        return case_name(case)
    if any(k[0] > vcpus(a) for k in a["cases"]):
        return note("where.no-cpu")
    return note("where.no-oversubscribed", vcpus=vcpus(a))


def where_exit_cost(a, case):
    e = a["exit"]
    return note("where.exit-cost", e=e, control="control_ratio" in e,
                ratio=e.get("control_ratio")) if e else ""


# ---------------------------------------------------------------- the goals, in table order

GOALS = [
    Goal("tp-spin", "TP / spin ceiling, threads <= vCPUs, loads 5-50 (worst case)", ">= 0.85",
         operator.ge, 0.85, "{value:.3f}",
         lambda a: worst(((r, k) for k, r in tp_spin_points(a)), key=None)),
    Goal("tp-best", f"TP / max({PEER_NAMES}), no-sleep cases (worst case)", ">= 1.00", operator.ge, 1.0, "{value:.3f}",
         lambda a: worst((ratio(*tp_vs_best(c)), k) for k, c in a["cases"].items() if not k[2])),
    Goal("tp-ww-sleep", "TP / WW, 1us-sleep case", ">= 0.95", operator.ge, 0.95, "{value:.3f}",
         lambda a: worst(((ratio(ops(c, "tp"), ops(c, "ww")), k)
                          for k, c in a["cases"].items() if k[2]), key=None)),
    Goal("unlock-syscalls", "TP unlock syscalls per op, no-sleep cases (worst case)", "< 1%",
         operator.lt, 0.01, "{value:.3%}",
         lambda a: worst(((fnum(ok(c, "tp").get("unlock_syscalls_per_op")), k)
                          for k, c in a["cases"].items() if not k[2] and ok(c, "tp")), max)),
    Goal("fairness", "per-thread min/avg: TP minus WW (worst case)", ">= 0", operator.ge, 0,
         "{value:+.2f} ({tp:.2f} vs {ww:.2f})", m_fairness),
    Goal("longest-wait", "TP longest wait of one acquisition, threads <= vCPUs (worst case)",
         f"<= {2 * HANDOFF_MS} ms (2 x handoff bound)", operator.le, WAIT_LIMIT_US,
         "{ms:.1f} ms", m_longest_wait),
    Goal("cpu-per-op", f"TP CPU time per op / the lowest of {PEER_NAMES}, threads > vCPUs "
         "(worst case)", "<= 1 + spread", operator.le, None,
         "{value:.3f} (vs {peer}, spread {spread:.2f})", m_cpu, where=where_cpu),
    Goal("cpu-vs-spin", "TP CPU time per op / spin's, threads <= vCPUs, no-sleep cases "
         "(worst case)", f"<= {CPU_SPIN_LIMIT}", operator.le, CPU_SPIN_LIMIT, "{value:.3f}",
         m_cpu_spin),
    Goal("previous", "TP/WW against the previous series' run (worst case)", ">= 1 - spread",
         operator.ge, None, "{value:.3f} (spread {spread:.2f})", m_previous,
         where=where_previous),
    Goal("exit-cost", "fork+exit rate, with the series / without (make bench-exit)", ">= 0.98",
         operator.ge, 0.98, "{value:.3f} (per boot {lo:.3f}..{hi:.3f})", m_exit_cost,
         where=where_exit_cost, needs_tp=False),
]
GOAL = {g.key: g for g in GOALS}


def evaluate(a):
    """{goal key: Result} of every goal on one arch, in table order."""
    out = {}
    for g in GOALS:
        m = g.metric(a)
        value, case, facts = (*m, {})[:3] if m else (None, None, {})
        if g.needs_tp and not tp_supported(a):
            status = TP_UNSUPPORTED
        elif m is None:
            status = NOT_MEASURED
        else:
            met = g.compare(value, facts["limit"] if g.threshold is None else g.threshold)
            status = MET if met else MISSED
        where = g.where(a, case) if g.where else case_name(case) if m else ""
        out[g.key] = Result(g, status, g.shown.format(value=value, **facts) if m else "–", where)
    return out
