#!/usr/bin/env python3
"""equivalence.py LOG NAME - compare the two views of one workload run.

The guest payload's eq() ran the workload once under two observers at once:
eq-NAME-tp (tracepoint mode, the default) and eq-NAME-po (--no-tracepoints:
the function probes make the rows).  Both saw the same waits, so the lock
with the most wait in the probe-only view must be the same lock (address
and kind) with the same top caller in the tracepoint view, its contentions
within 5% and its total wait within 15%.  Prints one line per check,
"pass|TEXT" or "fail|TEXT", with the figures; the caller reports them.
"""
import json
import re
import sys

KINDS = ("mutex", "rwsem:W")  # the kinds the probes must match


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


def pct(a, b):
    return 100.0 * (b - a) / a if a else float("inf")


def main():
    txt = open(sys.argv[1], errors="replace").read()
    name = sys.argv[2]
    tp, po = section(txt, "eq-%s-tp" % name), section(txt, "eq-%s-po" % name)
    if tp is None or po is None:
        print("fail|equivalence %s: no JSON from the %s view" %
              (name, "tracepoint" if tp is None else "probe-only"))
        return
    rows = [r for r in po["locks"] if r["kind"] in KINDS]
    if not rows:
        print("fail|equivalence %s: probe-only view has no mutex or rwsem:W "
              "row" % name)
        return
    p = max(rows, key=lambda r: r["total_ns"])
    key = (p.get("addr"), p["kind"])
    t = [r for r in tp["locks"] if (r.get("addr"), r["kind"]) == key]
    label = "%s %s" % (re.sub(r" \[[0-9a-f]+\]$", "", p["name"]), p["kind"])
    if not t:
        print("fail|equivalence %s: %s (probe-only top) not in the "
              "tracepoint view" % (name, label))
        return
    t = t[0]
    ttop = max((r for r in tp["locks"] if r["kind"] in KINDS),
               key=lambda r: r["total_ns"])
    dc, dw = pct(t["contentions"], p["contentions"]), pct(t["total_ns"],
                                                          p["total_ns"])
    fig = ("%s: contentions %d (tracepoints) vs %d (probes) %+.2f%%, wait "
           "%.1fms vs %.1fms %+.2f%%, spin/sleep %.1f/%.1fms vs %.1f/%.1fms"
           % (label, t["contentions"], p["contentions"], dc,
              t["total_ns"] / 1e6, p["total_ns"] / 1e6, dw, t["spin_ns"] / 1e6,
              t["sleep_ns"] / 1e6, p["spin_ns"] / 1e6, p["sleep_ns"] / 1e6))
    ok = abs(dc) <= 5 and abs(dw) <= 15 and p["contentions"] > 0
    print("%s|equivalence %s: %s" % ("pass" if ok else "fail", name, fig))
    same = (ttop.get("addr"), ttop["kind"]) == key
    tc, pc = top_caller(t), top_caller(p)
    print("%s|equivalence %s: top lock %s in both views (tracepoint top: "
          "%s %s), top caller %s vs %s" %
          ("pass" if same and tc == pc and pc != "?" else "fail", name,
           label, re.sub(r" \[[0-9a-f]+\]$", "", ttop["name"]), ttop["kind"],
           tc, pc))


main()
