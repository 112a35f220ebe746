# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""bench/curves.py - the bench's curves: how the agent's cost grows with
the number of locks, the BPF programs' cost with the event rate, and
their CPU share, exact and under the budget, against the event rate, as
fitted statements and as one SVG (svgplot.py) beside the text results."""
import statistics

import svgplot


def _pct(a, b):
    return 100.0 * a / b if b else float("inf")


def agent_points(agent):
    """Per run: (locks in the table, locks changed per second, CPU %, RSS
    MB) while lock_spread walks, and after its walk ended (none change)."""
    busy, idle = [], []
    for e in agent.values():
        n = e["fill"].get("lock_stats", {}).get("entries", 0)
        v = e.get("pipe_visits_per_s") or 0
        busy.append((n, min(n, v), e["busy"]["cpu_percent"],
                     e["busy"]["rss_kb"] / 1024))
        idle.append((e["idle"]["entries"] or n, 0.0,
                     e["idle"]["cpu_percent"], e["rss_kb"] / 1024))
    return sorted(busy), sorted(idle)


def agent_growth(agent):
    """Lines saying how CPU and RSS grow with the locks, from the fits:
    CPU = a + b * changed locks + c * locks in the table, over both."""
    busy, idle = agent_points(agent)
    out = []
    fb = svgplot.fit_line([(n, c) for n, _, c, _ in busy])
    fi = svgplot.fit_line([(n, c) for n, _, c, _ in idle])
    fr = svgplot.fit_line([(n, r) for n, _, _, r in busy])
    pb = svgplot.fit_power([(n, c) for n, _, c, _ in busy])
    f2 = svgplot.fit_two([(ch, n, c) for n, ch, c, _ in busy + idle])
    if not fb or not fi:
        return ["growth: too few distinct table sizes to fit"]
    out.append("fit, agent CPU while the locks change: %.3f%% + %.4f%% "
               "per 1k locks in the table (r2 %.2f%s)" %
               (fb[0], fb[1] * 1000, fb[2],
                ", log-log slope %.2f" % pb[1] if pb else ""))
    out.append("fit, agent CPU with the same table, nothing changing: "
               "%.3f%% + %.4f%% per 1k locks (r2 %.2f)" %
               (fi[0], fi[1] * 1000, fi[2]))
    if fr:
        out.append("fit, agent RSS: %.1f MB + %.2f kB per lock (r2 %.2f)" %
                   (fr[0], fr[1] * 1024, fr[2]))
    if not f2:
        out.append("growth: changed and idle locks did not vary "
                   "independently: no split")
        return out
    out.append("fit, both together: CPU = %.3f%% + %.4f%% per 1k locks "
               "changed each second + %.4f%% per 1k locks in the table" %
               (f2[0], f2[1] * 1000, f2[2] * 1000))
    per_changed, per_held = f2[1], f2[2]
    if per_changed > 0 and per_held <= 0.25 * per_changed:
        out.append("growth: with changed locks: a lock that does not "
                   "change costs %.0f%% of one that does" %
                   max(0.0, _pct(per_held, per_changed)))
    else:
        out.append("growth: with all locks in the table, not only changed "
                   "ones: %.4f%% CPU per 1k locks held, changing or not, "
                   "and %.4f%% per 1k changed on top" %
                   (per_held * 1000, per_changed * 1000))
    return out


def cost_growth(curve):
    """Lines: ns per run against begins per second, fitted per workload."""
    out = []
    for w, pts in curve.items():
        xy = [(p["begins_per_s"]["median"], p["ns_per_run"]["median"])
              for p in pts]
        f = svgplot.fit_line(xy)
        if not f:
            out.append("fit, %s: too few distinct rates" % w)
            continue
        lo, hi = min(x for x, _ in xy), max(x for x, _ in xy)
        out.append("fit, %s: ns/run = %.0f %+.1f per 100k begins/s "
                   "(r2 %.2f) over %.0f..%.0f begins/s" %
                   (w, f[0], f[1] * 1e5, f[2], lo, hi))
    return out


def budget_points(budget, ncpu):
    """Per mode (exact, budget 1): (contentions per second, BPF CPU share
    %) of each workload, medians of its rounds; a run's seconds are its
    programs' run time (ns per run x runs) over its share of all CPUs."""
    out = {}
    for modes in budget.values():
        for m, e in modes.items():
            rates = [r["contentions"] * r["share_pct"] / 100 * 1e9 * ncpu /
                     (r["ns_per_run"] * r["runs"])
                     for r in e.get("runs", []) if r["runs"] and r["ns_per_run"]]
            if rates:
                out.setdefault(m, []).append(
                    (statistics.median(rates), e["share_pct"]))
    return out


def panels(res):
    """The chart's panels from a bench result (phases that ran)."""
    out = []
    if res.get("agent") and len(res["agent"]) > 0:
        busy, idle = agent_points(res["agent"])
        out.append({"title": "agent CPU (top -b -i 1)",
                    "xlabel": "locks in the table (log)",
                    "ylabel": "% of one CPU", "logx": True,
                    "series": [("locks changing (lock_spread)",
                                [(n, c) for n, _, c, _ in busy]),
                               ("same table, none changing",
                                [(n, c) for n, _, c, _ in idle])]})
        out.append({"title": "agent RSS",
                    "xlabel": "locks in the table (log)", "ylabel": "MB",
                    "logx": True,
                    "series": [("locks changing (lock_spread)",
                                [(n, r) for n, _, _, r in busy]),
                               ("same table, none changing",
                                [(n, r) for n, _, _, r in idle])]})
    cost = res.get("cost", {})
    if cost.get("curve"):
        series = [(w, [(p["begins_per_s"]["median"],
                        p["ns_per_run"]["median"]) for p in pts])
                  for w, pts in cost["curve"].items()]
        for key, name in (("bpftrace_min_netlink", "bpftrace minimal, netlink"),
                          ("bpftrace_netlink", "bpftrace same aggr., netlink")):
            if cost.get(key + "_ns_per_run"):
                series.append((name, [(cost[key + "_begins_per_s"]["median"],
                                       cost[key + "_ns_per_run"]["median"])]))
        note = "lines: lockscope, 3 thread counts; dots: bpftrace"
        out.append({"title": "BPF ns per run (all programs)",
                    "xlabel": "contentions per second (log)",
                    "ylabel": "ns per run", "logx": True,
                    "series": series, "note": note})
    pts = budget_points(res.get("budget", {}), res.get("cpus") or 1)
    if pts:
        xs = [x for v in pts.values() for x, _ in v]
        series = [(m if m == "exact" else "--" + m, v)
                  for m, v in sorted(pts.items(), key=lambda i: i[0] != "exact")]
        series.append(("target: 1%", [(min(xs), 1.0), (max(xs), 1.0)]))
        out.append({"title": "BPF CPU share, exact and under --budget 1",
                    "xlabel": "contentions per second (log)",
                    "ylabel": "% of all CPUs (log)", "logx": True,
                    "logy": True, "series": series,
                    "note": "one dot a workload (netlink, mmap, pipe): "
                            "median of its rounds"})
    return out


def write_svg(res, path, label=""):
    """Write the chart of @res to @path; False when no phase has curves."""
    p = panels(res)
    if not p:
        return False
    title = "lockscope bench %s, kernel %s, %d CPUs, git %s%s" % (
        res.get("started", "?"), res.get("kernel", "?"), res.get("cpus", 0),
        res.get("git", "?"), label)
    with open(path, "w") as f:
        f.write(svgplot.chart(title, p))
    return True
