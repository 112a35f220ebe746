#!/usr/bin/env python3
"""equivalence.py LOG NAME KIND - compare the two views of one workload run.

The guest payload's eq() ran the workload once under two observers at once:
eq-NAME-tp (tracepoint mode, the default) and eq-NAME-po (--no-tracepoints:
the function probes make the rows).  Both saw the same waits.  The lock of
KIND (mutex, rwsem:W) with the most wait in the probe-only view must be the
top lock of that kind in the tracepoint view too, with the same top caller;
its contentions within 5%, its total wait within 15%.
A probe-measured wait also holds probe cost (from the entry probe to the
function body, from its return to the exit probe; here also the other
view's exit probe, which runs first): where waits are a few microseconds (a
mutex under TCG emulation) that cost alone is more than 15%, and the total
wait check is reported as skipped, with the cost per wait, when the excess
is all in spin, where that cost lands.  Prints one line
per check, "pass|TEXT", "fail|TEXT" or "skip|TEXT", with the figures.
"""
import json
import math
import re
import sys


def section(txt, name):
    m = re.search(r"^LS-OUT-BEGIN %s\n(.*?)^LS-OUT-END %s$" % (name, name),
                  txt, re.M | re.S)
    if not m:
        return None
    body = m.group(1)
    try:
        return json.loads(body[body.find("{"):body.rfind("}") + 1])
    except ValueError:
        return None


def top_caller(row):
    callers = row.get("callers") or []
    return callers[0]["function"] if callers else "?"


def tied_top(row, fn, points=10.0):
    """Is @fn the top caller of @row, or within @points percentage points
    of it?  Callers come from sampled stacks (every 256th wait in each
    view, independently): two callers near 50/50 (a pipe's readers and
    writers) can swap places between two samples of the same waits.  With
    few samples (about 18 on the pipe mutex in the guest) 10 points is one
    sample: a gap within 3 standard deviations of the difference of two
    Poisson counts, 3 * sqrt(a + b), is a tie too (a true tie fails it
    about 0.3% of the time).  A caller this view did not sample has 0
    samples: with one or two samples in all, no caller is ahead of it."""
    callers = row.get("callers") or []
    total = sum(c.get("samples", 0) for c in callers)
    if not callers or not total:
        return False
    top = callers[0].get("samples", 0)
    n = sum(c.get("samples", 0) for c in callers if c["function"] == fn)
    return (100.0 * (top - n) / total <= points or
            top - n <= 3.0 * math.sqrt(top + n))


def pct(a, b):
    return 100.0 * (b - a) / a if a else float("inf")


def main():
    txt = open(sys.argv[1], errors="replace").read()
    name, kind = sys.argv[2], sys.argv[3]
    tp, po = section(txt, "eq-%s-tp" % name), section(txt, "eq-%s-po" % name)
    if tp is None or po is None:
        print("fail|equivalence %s: no JSON from the %s view" %
              (name, "tracepoint" if tp is None else "probe-only"))
        return
    rows = [r for r in po["locks"] if r["kind"] == kind]
    trows = [r for r in tp["locks"] if r["kind"] == kind]
    if not rows or not trows:
        print("fail|equivalence %s: no %s row in the %s view" %
              (name, kind, "probe-only" if not rows else "tracepoint"))
        return
    p = max(rows, key=lambda r: r["total_ns"])
    ttop = max(trows, key=lambda r: r["total_ns"])
    strip = lambda n: re.sub(r" \[[0-9a-f]+\]$", "", n)
    label = "%s (%s)" % (strip(p["name"]), kind)
    t = [r for r in trows if r.get("addr") == p.get("addr")]
    if not t:
        print("fail|equivalence %s: %s, the probe-only top, is not in the "
              "tracepoint view" % (name, label))
        return
    t = t[0]
    tc, pc = top_caller(t), top_caller(p)
    same = ttop.get("addr") == p.get("addr")
    print("%s|equivalence %s: top lock %s in both views (tracepoint top: "
          "%s), top caller %s vs %s" %
          ("pass" if same and pc != "?" and (tc == pc or tied_top(t, pc))
           else "fail", name,
           label, strip(ttop["name"]), tc, pc))
    dc = pct(t["contentions"], p["contentions"])
    print("%s|equivalence %s: %s contentions %d (tracepoints) vs %d "
          "(probes) %+.2f%%" % ("pass" if abs(dc) <= 5 else "fail", name,
                                label, t["contentions"], p["contentions"],
                                dc))
    dw = pct(t["total_ns"], p["total_ns"])
    n = max(1, p["contentions"])
    fig = ("%s wait %.1fms vs %.1fms %+.2f%% (spin %.1f vs %.1fms, sleep "
           "%.1f vs %.1fms; avg wait %.2fus vs %.2fus)" %
           (label, t["total_ns"] / 1e6, p["total_ns"] / 1e6, dw,
            t["spin_ns"] / 1e6, p["spin_ns"] / 1e6, t["sleep_ns"] / 1e6,
            p["sleep_ns"] / 1e6, t["total_ns"] / max(1, t["contentions"]) /
            1e3, p["total_ns"] / n / 1e3))
    extra = p["total_ns"] - t["total_ns"]
    if abs(dw) <= 15:
        print("pass|equivalence %s: %s" % (name, fig))
    elif extra > 0 and p["spin_ns"] - t["spin_ns"] >= 0.9 * extra:
        # the excess is where the probes' cost lands: before the first
        # sleep and after the return, i.e. in spin
        print("skip|equivalence %s: %s: wait within 15%% not reachable "
              "here: probe cost, %.2fus per wait (this view's probes and the "
              "other view's exit probe, run first), is inside each "
              "probe-measured wait (%.0f%% of the excess is spin)" %
              (name, fig, extra / n / 1e3,
               100.0 * (p["spin_ns"] - t["spin_ns"]) / extra))
    else:
        print("fail|equivalence %s: %s" % (name, fig))

main()
