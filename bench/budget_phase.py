# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""bench/budget_phase.py - the budget phase of make bench: exact mode and
`--budget 1` interleaved (the order swapped each round) under each
workload, their BPF CPU share (the kernel's run-time stats: run_time_ns
of every program over the workload's wall time and all CPUs) and ns per
run; and the throughput targets of both modes from the overhead phase."""
import json
import os
import statistics
import subprocess

NCPU = os.cpu_count() or 1
MODES = (("exact", []), ("budget 1", ["--budget", "1"]))
SHARE_TARGET = 1.0  # percent of the machine, --budget 1
TPUT_TARGETS = {"lockscope": 0.65, "lockscope --budget 1": 0.9}


def _json_tail(text):
    i = text.find("\n{\n")
    i = 0 if text.startswith("{") else i + 1
    return json.loads(text[i:text.rindex("}") + 1])


def _run(ls, argv, secs, opt):
    p = subprocess.run([ls, "hist", "--cost", "--json"] + opt + ["--"] +
                       argv, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True,
                       timeout=secs + 60)
    d = _json_tail(p.stdout)
    cnt = sum(c["run_cnt"] for c in d["cost"])
    ns = sum(c["run_time_ns"] for c in d["cost"])
    b = d.get("budget") or {}
    return {"share_pct": 100.0 * ns / (secs * 1e9 * NCPU),
            "ns_per_run": ns / cnt if cnt else 0.0, "runs": cnt,
            "contentions": sum(lk["contentions"] for lk in d["locks"]),
            "windows": b.get("windows"),
            "over_budget_windows": b.get("over_budget_windows"),
            "sample_every_max": b.get("sample_every_max")}


def phase(args, res, ls, workloads, say, note):
    say("== budget: exact mode and --budget 1, %d rounds each, order "
        "swapped each round: BPF CPU share of %d CPUs (run-time stats) "
        "and ns per run" % (args.cost_rounds, NCPU))
    runs = {w: {m: [] for m, _ in MODES} for w in args.workloads}
    for r in range(args.cost_rounds):
        modes = MODES if r % 2 == 0 else MODES[::-1]
        for w in args.workloads:
            for m, opt in modes:
                g = _run(ls, workloads[w][0](args.secs), args.secs, opt)
                g["loadavg1"] = os.getloadavg()[0]
                runs[w][m].append(g)
                note("round %d %-8s %-9s share %.3f%%, %4.0f ns/run, %d "
                     "contentions, over budget %s/%s windows (load %.2f)" %
                     (r + 1, w, m, g["share_pct"], g["ns_per_run"],
                      g["contentions"], g["over_budget_windows"],
                      g["windows"], g["loadavg1"]))
    out = {}
    for w in args.workloads:
        out[w] = {}
        for m, _ in MODES:
            v = runs[w][m]
            e = {"share_pct": statistics.median(x["share_pct"] for x in v),
                 "ns_per_run": statistics.median(x["ns_per_run"]
                                                 for x in v),
                 "runs": v}
            out[w][m] = e
            verdict = ""
            if m != "exact":
                verdict = " (target <= %.1f%%: %s)" % (
                    SHARE_TARGET, "met" if e["share_pct"] <= SHARE_TARGET
                    else "missed")
            say("%-8s %-9s BPF share %.3f%% (min %.3f, max %.3f), %.0f "
                "ns/run%s" % (w, m, e["share_pct"],
                              min(x["share_pct"] for x in v),
                              max(x["share_pct"] for x in v),
                              e["ns_per_run"], verdict))
    loads = [x["loadavg1"] for w in runs for m in runs[w]
             for x in runs[w][m]]
    say("load average (1 min) at the runs: median %.2f, max %.2f" %
        (statistics.median(loads), max(loads)))
    res["budget"] = out


def throughput_targets(results, say):
    """The pipe hammer's throughput targets, from the overhead phase's
    per-round ratios to no observer."""
    pipe = results.get("pipe", {})
    for c, t in TPUT_TARGETS.items():
        r = pipe.get(c, {}).get("ratio")
        if r:
            say("pipe     %-28s throughput ratio %.3f (target >= %.2f: %s)"
                % (c, r["median"], t, "met" if r["median"] >= t
                   else "missed"))
