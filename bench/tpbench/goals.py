"""The goals of docs/benchmarks.md as data.

A goal is a metric of one arch's results (its worst case over the cases the goal covers), a
comparison and a threshold.  evaluate() gives a Result whose status is MET, MISSED,
NOT_MEASURED or TP_UNSUPPORTED; the text of the measured value, of the worst case and of the
verdict is made only by the Result's render methods, for the page's tables and prose.
"""
import operator
from dataclasses import dataclass, field
from typing import Callable, Optional

from .data import fnum, ok, ops, plain, ratio, spread, table_order, tp_supported, vcpus
from .text import Missing, Notes, case_name

note = Notes("notes.md.in")

# TP_HANDOFF_NS of the series (kernel/futex/tp.c), in ms
HANDOFF_MS = 4
# The longest single TP wait the longest-wait goal allows, in us: twice the handoff bound.
WAIT_LIMIT_US = 2000 * HANDOFF_MS

MET, MISSED, NOT_MEASURED, TP_UNSUPPORTED = "met", "missed", "not measured", "TP unsupported"
COMPARE = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt}


@dataclass
class Measure:
    """A goal's metric on one arch: the value compared, the case it comes from and the numbers
    its text shows (facts).  limit: a threshold that comes with the value (1 - spread)."""
    value: float
    case: Optional[tuple] = None
    facts: dict = field(default_factory=dict)
    limit: Optional[float] = None


@dataclass
class Goal:
    key: str
    name: str                       # the goal column
    metric: Callable                # arch -> Measure or None (not measured)
    compare: str                    # a key of COMPARE: value COMPARE threshold is "met"
    threshold: Optional[float]      # None: the Measure's limit
    target: str                     # the target column
    shown: str                      # the measured column: str.format of the Measure's facts
    where: Callable = None          # (arch, Measure or None) -> the worst-case column
    needs_tp: bool = True           # n/a when the kernel had no TP futexes

    def evaluate(self, a):
        m = self.metric(a)
        if self.needs_tp and not tp_supported(a):
            status = TP_UNSUPPORTED
        elif m is None:
            status = NOT_MEASURED
        else:
            limit = self.threshold if self.threshold is not None else m.limit
            status = MET if COMPARE[self.compare](m.value, limit) else MISSED
        return Result(self, a, m, status)


@dataclass
class Result:
    goal: Goal
    arch: dict
    measure: Optional[Measure]
    status: str

    @property
    def ok(self):
        """True (met), False (missed) or None (not applicable)."""
        return {MET: True, MISSED: False}.get(self.status)

    def measured(self):
        m = self.measure
        return self.goal.shown.format(value=m.value, **m.facts) if m else "–"

    def worst_case(self):
        if self.goal.where:
            return self.goal.where(self.arch, self.measure)
        return case_name(self.measure.case) if self.measure else ""


# ---------------------------------------------------------------- metrics

def tp_spin_points(a):
    """[(case, TP/spin)] for the spin-ceiling goal: plain cases, threads <= vCPUs, loads 5-50."""
    nv = vcpus(a)
    pts = [(k, ratio(ops(c, "tp"), ops(c, "spin"))) for k, c in a["cases"].items()
           if plain(k) and k[0] <= nv and 5 <= k[1] <= 50]
    return sorted(((k, r) for k, r in pts if r is not None), key=lambda p: (p[0][1], p[0]))


def longest_wait(a, t, k):
    """The longest single wait (us) of type t in case k over all runs, or None."""
    r = ok(a["cases"].get(k, {}), t)
    return fnum(r.get("wait_max_us_max")) if r else None


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
    for k in sorted(a["cases"], key=table_order):
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


def tp_vs_best(c):
    """(TP, max(WW, adaptive)) median ops/s of one case; either may be None."""
    best = max([x for x in (ops(c, "ww"), ops(c, "adaptive")) if x is not None], default=None)
    return ops(c, "tp"), best


def m_tp_spin(a):
    worst = min(((r, k) for k, r in tp_spin_points(a)), default=None)
    return Measure(*worst) if worst else None


def m_tp_best(a):
    worst = None
    for k, c in a["cases"].items():
        r = ratio(*tp_vs_best(c))
        if r is not None and (worst is None or r < worst[0]):
            worst = (r, k)
    return Measure(*worst) if worst else None


def m_tp_ww_sleep(a):
    vals = [(ratio(ops(c, "tp"), ops(c, "ww")), k) for k, c in a["cases"].items() if k[2]]
    vals = [v for v in vals if v[0] is not None]
    return Measure(*min(vals)) if vals else None


def m_unlock_syscalls(a):
    worst = None
    for k, c in a["cases"].items():
        r = ok(c, "tp")
        if k[2] or not r:
            continue
        v = fnum(r.get("unlock_syscalls_per_op"))
        if v is not None and (worst is None or v > worst[0]):
            worst = (v, k)
    return Measure(worst[0], worst[1], {"pct": 100 * worst[0]}) if worst else None


def m_fairness(a):
    worst = None
    for k, c in a["cases"].items():
        tp, ww = ok(c, "tp"), ok(c, "ww")
        if not tp or not ww:
            continue
        a_, b_ = fnum(tp["thr_min_avg_ratio"]), fnum(ww["thr_min_avg_ratio"])
        if a_ is None or b_ is None:
            continue
        d = a_ - b_
        if worst is None or d < worst[0]:
            worst = (d, k, a_, b_)
    return Measure(worst[0], worst[1], {"tp": worst[2], "ww": worst[3]}) if worst else None


def m_longest_wait(a):
    worst = tp_longest_wait(a)
    return Measure(worst[0], worst[1], {"ms": worst[0] / 1000}) if worst else None


def m_previous(a):
    prev = a.get("previous")
    worst = None
    for k, c in a["cases"].items():
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
    if not worst:
        return None
    return Measure(worst[0], worst[1], {"spread": worst[2]}, limit=1 - worst[2])


def where_previous(a, m):
    prev = a.get("previous")
    if m is None:
        return note.opt(not prev, "where.no-previous")
    return note("where.previous", case=case_name(m.case), m=Missing(prev["meta"]),
                rerun=note.opt("bench-baseline" in prev["meta"].get("kernel_source", ""),
                               "where.previous.rerun"))


def m_exit_cost(a):
    e = a.get("exit")
    return Measure(e["ratio"], None, {"lo": e["ratio_min"], "hi": e["ratio_max"]}) if e else None


def where_exit_cost(a, m):
    e = a.get("exit")
    if not e:
        return ""
    return note("where.exit-cost", e=e, control=note.opt(
        "control_ratio" in e, "where.exit-cost.control", ratio=e.get("control_ratio")))


# ---------------------------------------------------------------- the goals, in table order

GOALS = [
    Goal("tp-spin", "TP / spin ceiling, threads <= vCPUs, loads 5-50 (worst case)",
         m_tp_spin, ">=", 0.85, ">= 0.85", "{value:.3f}"),
    Goal("tp-best", "TP / max(WW, adaptive), every case (worst case)",
         m_tp_best, ">=", 1.0, ">= 1.00", "{value:.3f}"),
    Goal("tp-ww-sleep", "TP / WW, 1us-sleep case",
         m_tp_ww_sleep, ">=", 0.95, ">= 0.95", "{value:.3f}"),
    Goal("unlock-syscalls", "TP unlock syscalls per op, no-sleep cases (worst case)",
         m_unlock_syscalls, "<", 0.01, "< 1%", "{pct:.3f}%"),
    Goal("fairness", "per-thread min/avg: TP minus WW (worst case)",
         m_fairness, ">=", 0, ">= 0", "{value:+.2f} ({tp:.2f} vs {ww:.2f})"),
    Goal("longest-wait", "TP longest wait of one acquisition, threads <= vCPUs (worst case)",
         m_longest_wait, "<=", WAIT_LIMIT_US, f"<= {2 * HANDOFF_MS} ms (2 x handoff bound)",
         "{ms:.1f} ms"),
    Goal("previous", "TP/WW against the previous series' run (worst case)",
         m_previous, ">=", None, ">= 1 - spread", "{value:.3f} (spread {spread:.2f})",
         where=where_previous),
    Goal("exit-cost", "fork+exit rate, with the series / without (make bench-exit)",
         m_exit_cost, ">=", 0.98, ">= 0.98", "{value:.3f} (per boot {lo:.3f}..{hi:.3f})",
         where=where_exit_cost, needs_tp=False),
]
GOAL = {g.key: g for g in GOALS}


def evaluate(a):
    """{goal key: Result} of every goal on one arch, in table order."""
    return {g.key: g.evaluate(a) for g in GOALS}
