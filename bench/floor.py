# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""bench/floor.py - the cost floor of the cost phase: stripped programs on
lockscope's tracepoints (bench/floor.bpf.c, loaded by build/floor_load),
run in the same rounds as lockscope's cost runs, and lockscope's ns per run
as a ratio to them.  The exact mode's target: all programs' mean ns per
run on netlink at most 1.5x the one-clock-read floor of the same round."""
import os
import signal
import statistics
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
LOADER = os.path.join(BUILD, "floor_load")
OBJECT = os.path.join(BUILD, "floor.bpf.o")
TARGET = 1.5
PROGS = ("empty", "clock")


def run(workload):
    """Attach the floor, run @workload() and detach: {"empty": (ns per
    run, runs), "clock": (ns per run, runs)}, begin and end together, and
    the same per program ("empty_begin", ...)."""
    p = subprocess.Popen([LOADER, OBJECT], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    try:
        first = p.stdout.readline()
        if first.strip() != "attached":
            raise RuntimeError("floor_load did not attach: %s%s" %
                               (first, p.stdout.read()[-300:]))
        workload()
    finally:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)
        out = p.communicate(timeout=60)[0]
    per, tot = {}, {k: [0, 0] for k in PROGS}
    for line in out.splitlines():
        f = line.split()
        if len(f) != 3 or "_" not in f[0]:
            continue
        cnt, ns = int(f[1]), int(f[2])
        per[f[0]] = (ns / cnt if cnt else 0.0, cnt)
        kind = f[0].split("_")[0]
        if kind in tot:
            tot[kind][0] += cnt
            tot[kind][1] += ns
    for k, (cnt, ns) in tot.items():
        per[k] = (ns / cnt if cnt else 0.0, cnt)
    return per


def _med(v):
    return statistics.median(v) if v else float("nan")


def report(pairs, say):
    """@pairs: {workload: [(lockscope per-program dict, floor dict), ...]}
    of the same rounds.  Prints the floor and the ratios; returns the
    figures for the results file."""
    out = {}
    say("-- the floor (bench/floor.bpf.c, same rounds): ns per run, and "
        "lockscope's ns per run as a ratio to it, median of the rounds")
    for w, rounds in pairs.items():
        rounds = [(a, b) for a, b in rounds
                  if b["empty"][1] and b["clock"][1]]
        if not rounds:
            say("%-8s floor: no runs (no contention?)" % w)
            continue
        e = {"empty_ns": _med([b["empty"][0] for _, b in rounds]),
             "clock_ns": _med([b["clock"][0] for _, b in rounds])}
        say("%-8s floor: empty %.0f ns/run, one clock read %.0f ns/run" %
            (w, e["empty_ns"], e["clock_ns"]))
        for prog in ("begin_btf", "end_btf", "all programs"):
            got = [(a[prog][0], b) for a, b in rounds if prog in a]
            if not got:
                continue
            side = prog.split("_")[0]
            fl = "clock_" + side if side in ("begin", "end") else "clock"
            fe = "empty_" + side if side in ("begin", "end") else "empty"
            rc = [ns / b[fl][0] for ns, b in got if b.get(fl, (0,))[0]]
            re_ = [ns / b[fe][0] for ns, b in got if b.get(fe, (0,))[0]]
            e[prog] = {"ns_per_run": _med([ns for ns, _ in got]),
                       "ratio_clock": rc, "ratio_empty": re_}
            say("%-8s lockscope %-12s %5.0f ns/run = %.2fx the clock "
                "floor (min %.2f, max %.2f), %.2fx the empty one" %
                (w, prog, e[prog]["ns_per_run"], _med(rc), min(rc),
                 max(rc), _med(re_)))
        out[w] = e
    nl = out.get("netlink", {}).get("all programs")
    if nl:
        r = _med(nl["ratio_clock"])
        say("netlink  exact mode / one-clock-read floor, per round: median "
            "%.2fx (target <= %.1fx: %s)" %
            (r, TARGET, "met" if r <= TARGET else "missed"))
    return out
