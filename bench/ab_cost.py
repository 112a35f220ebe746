#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""bench/ab_cost.py - two lockscope builds' ns per BPF run side by side:
per round, `hist --cost -F 0` of build A, of build B and the floor
(bench/floor.py) attached together on the same tracepoints while the
workload runs (the same events, the same load; the attach order, hence
which runs first, through all six orders); prints each round, then the
medians, each build's ratio to the one-clock-read floor of its round and
B/A per round, with the load average.  The trials of
docs/overhead-budget.md.

usage: bench/ab_cost.py LS_A LS_B [ROUNDS [WORKLOAD [SECS]]]
       (WORKLOAD: netlink, pipe or mmap, as in bench.py)"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import floor  # noqa: E402

BUILD = floor.BUILD
WORK = {"netlink": ["stress-ng", "--netlink-task", "2", "-t", "%ds"],
        "pipe": [os.path.join(BUILD, "pipe_hammer"), "2", "%d"],
        "mmap": [os.path.join(BUILD, "mmap_hammer"), "4", "%d"]}


# attach orders: A before B in half of every six rounds
ORDERS = ("ABF", "BAF", "FAB", "FBA", "AFB", "BFA")


def argv(w, secs):
    return [a % secs if "%" in a else a for a in WORK[w]]


def links(pid):
    n = 0
    try:
        for fd in os.listdir("/proc/%d/fd" % pid):
            try:
                if "bpf_link" in os.readlink("/proc/%d/fd/%s" % (pid, fd)):
                    n += 1
            except OSError:
                pass
    except OSError:
        pass
    return n


def start(ls, secs, tmp):
    """hist --cost -F 0 for @secs, attached when it holds its links."""
    out = open(tmp, "w+")
    p = subprocess.Popen([ls, "hist", "--cost", "-F", "0", "--json", "-d",
                          str(secs)], stdout=out, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 30
    while links(p.pid) < 2 and time.monotonic() < end:
        if p.poll() is not None:
            raise RuntimeError("%s hist exited %d" % (ls, p.returncode))
        time.sleep(0.02)
    return p, out


def finish(p, out):
    p.wait(timeout=120)
    out.seek(0)
    t = out.read()
    d = json.loads(t[t.index("{"):t.rindex("}") + 1])
    per = {c["program"]: c for c in d["cost"]}
    cnt = sum(c["run_cnt"] for c in d["cost"])
    ns = sum(c["run_time_ns"] for c in d["cost"])
    b, e = per.get("begin_btf", {}), per.get("end_btf", {})
    return {"all": ns / cnt if cnt else 0.0,
            "begin": b["run_time_ns"] / b["run_cnt"] if b.get("run_cnt")
            else 0.0,
            "end": e["run_time_ns"] / e["run_cnt"] if e.get("run_cnt")
            else 0.0, "runs": cnt,
            "contentions": sum(lk["contentions"] for lk in d["locks"])}


def one_round(r, a, b, w, secs):
    """A, B and the floor attached together, in a rotated order: the same
    events, the same machine state; the first attached runs first."""
    order = list(ORDERS[r % len(ORDERS)])
    got, procs = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        def workload():
            for k in order:
                if k != "F":
                    procs[k] = start(a if k == "A" else b, secs + 2,
                                     os.path.join(tmp, k))
            subprocess.run(argv(w, secs), stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=secs + 60)
        if order[0] == "F":
            got["F"] = floor.run(workload)
        else:
            k0 = order[0]
            procs[k0] = start(a if k0 == "A" else b, secs + 3,
                              os.path.join(tmp, k0))
            order = order[1:]
            got["F"] = floor.run(workload)
        for k, (p, out) in procs.items():
            got[k] = finish(p, out)
    return got, ORDERS[r % len(ORDERS)]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.split("\n\n", 1)[1])
    a, b = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    w = sys.argv[4] if len(sys.argv) > 4 else "netlink"
    secs = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    res = {"A": [], "B": [], "F": []}
    for r in range(rounds):
        got, order = one_round(r, a, b, w, secs)
        for k in "AB":
            g = got[k]
            res[k].append(g)
            print("round %d (%s) %s all %.0f begin %.0f end %.0f ns/run, %d "
                  "runs, %d contentions" % (r + 1, order, k, g["all"],
                                            g["begin"], g["end"], g["runs"],
                                            g["contentions"]))
        f = got["F"]
        res["F"].append(f)
        print("round %d (%s) F clock %.0f empty %.0f ns/run (load %.2f)" %
              (r + 1, order, f["clock"][0], f["empty"][0],
               os.getloadavg()[0]), flush=True)
    med = statistics.median
    fl = [f["clock"][0] for f in res["F"]]
    for k in "AB":
        for part in ("all", "begin", "end"):
            v = [g[part] for g in res[k]]
            print("%s %-5s median %.0f ns/run (min %.0f, max %.0f)" %
                  (k, part, med(v), min(v), max(v)))
        rr = [g["all"] / c for g, c in zip(res[k], fl) if c]
        print("%s all / clock floor per round: median %.2fx (%s)" %
              (k, med(rr), ", ".join("%.2f" % x for x in rr)))
    print("floor median: clock %.0f, empty %.0f ns/run" %
          (med(fl), med(f["empty"][0] for f in res["F"])))
    for part in ("all", "begin", "end"):
        ba = [y[part] / x[part] for x, y in zip(res["A"], res["B"])
              if x[part]]
        print("B/A %-5s per round: median %.3f (%s)" %
              (part, med(ba), ", ".join("%.3f" % x for x in ba)))
    print("load average: %s" % open("/proc/loadavg").read().strip())


if __name__ == "__main__":
    main()
