#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""bench/compare_rates.py - how often `lockscope compare` cries wolf, and
how often it sees a real change, measured on real records.

A pool of records is made with `lockscope record` (or an existing one is
read with --pool): runs of each workload below, interleaved so that the
machine's drift hits every workload alike.

  A/A  same kernel, same workload: draws of 2 x n distinct runs of one
       workload, split n / n at random.  Every exit status 1 is a false
       alarm.  Target: at most 1 in 20.
  A/B  a real change: mmap_hammer with 2 threads against 4 threads on one
       process's mmap_lock (four writers queue where two did: the writers'
       wait grows about 25-fold, peak waiters from 1-2 to 3-4).  Draws of n
       runs of each.  Every exit status 1 is a detection.  Target: 80% at
       n = 5.  And a smaller one, 2 threads against 3; and pipe_hammer 2
       against 4 threads, where the pipe mutex's contentions hardly move.

Each draw is scored twice: by lockscope's exit status (Welch's test per
metric, Benjamini-Hochberg across metrics) and by the rule compare used
before, "means further apart than the two standard deviations together",
computed from the means and standard deviations in the same JSON output.

Used by bench.py (phase "compare"); alone:
  compare_rates.py --pool DIR [--record N] [--draws N] [--seed N]
"""
import argparse
import glob
import json
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LS = os.environ.get("LS", os.path.join(ROOT, "lockscope"))
BUILD = os.path.join(ROOT, "build")

# pool name -> command; the example of docs/record.md is "netlink"
WORKLOADS = {
    "netlink": ["stress-ng", "--netlink-task", "2", "-t", "3s"],
    "mmap2": [os.path.join(BUILD, "mmap_hammer"), "2", "3"],
    "mmap3": [os.path.join(BUILD, "mmap_hammer"), "3", "3"],
    "mmap4": [os.path.join(BUILD, "mmap_hammer"), "4", "3"],
}
AA = ["netlink", "mmap2", "pipe2"]  # A/A trials, n = 3 a side (pipe2:
# pipe_hammer 2 3, only when a pool given with --pool holds such runs)
# real changes, n = 3 and 5 a side; pipe4 (pipe_hammer 4 3) only when a
# pool given with --pool holds such runs: a change too small to see here
AB = [("mmap2", "mmap4"), ("mmap2", "mmap3"), ("pipe2", "pipe4")]


def record_pool(pool, runs, say):
    os.makedirs(pool, exist_ok=True)
    start = len(glob.glob(os.path.join(pool, "netlink-*.json")))
    say("recording %d runs each of %s into %s" % (
        runs, ", ".join(WORKLOADS), pool))
    for i in range(start + 1, start + runs + 1):
        for name, argv in WORKLOADS.items():
            out = os.path.join(pool, "%s-%02d.json" % (name, i))
            p = subprocess.run([LS, "record", "-o", out, "--"] + argv,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True,
                               timeout=120)
            if p.returncode:
                raise RuntimeError("record %s: exit %d: %s" % (
                    name, p.returncode, p.stderr[-300:]))


def pool_runs(pool, name):
    return sorted(f for f in glob.glob(os.path.join(pool, name + "-*.json"))
                  if re.search(r"-\d+\.json$", f))


def old_rule(cmp, threshold=0.0):
    """Exit status of the rule before: a non-minor metric whose means
    differ by more than the threshold and than sd(base) + sd(new)."""
    n = 0
    for r in cmp["rows"]:
        if r["minor"]:
            continue
        delta = r["new_mean"] - r["base_mean"]
        ch = r["change_pct"]
        ch = float("inf") if ch is None else abs(ch)
        if ch > threshold and abs(delta) > r["base_stddev"] + r["new_stddev"]:
            n += delta > 0
    return n


def compare(base, new):
    p = subprocess.run([LS, "compare", "--format", "json"] + base + ["--"]
                       + new, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60)
    if p.returncode not in (0, 1):
        raise RuntimeError("compare: exit %d: %s" % (p.returncode,
                                                     p.stderr[-300:]))
    cmp = json.loads(p.stdout)
    if (p.returncode == 1) != (cmp["regressed"] > 0):
        raise RuntimeError("compare: exit status %d with %d regressed" % (
            p.returncode, cmp["regressed"]))
    return p.returncode, old_rule(cmp), cmp


def trial(label, draws, pick, say):
    new_fail = old_fail = 0
    flagged = []
    for _ in range(draws):
        base, new = pick()
        rc, old, cmp = compare(base, new)
        new_fail += rc == 1
        old_fail += old > 0
        flagged += [r["key"] for r in cmp["rows"] if r["regressed"]]
    top = sorted(set(flagged), key=lambda k: (-flagged.count(k), k))[:3]
    say("%-34s %5d  %6d (%5.1f%%)  %6d (%5.1f%%)  %s" % (
        label, draws, new_fail, 100.0 * new_fail / draws, old_fail,
        100.0 * old_fail / draws,
        ", ".join("%s x%d" % (k, flagged.count(k)) for k in top) or "-"))
    return {"draws": draws, "exit1_new": new_fail, "exit1_old": old_fail,
            "flagged_new": {k: flagged.count(k) for k in set(flagged)}}


def rates(pool, draws, seed, say):
    rng = random.Random(seed)
    res = {"pool": pool, "draws": draws, "seed": seed, "aa": {}, "ab": {}}
    say("%-34s %5s  %15s  %15s  %s" % ("trial (runs a side)", "draws",
                                        "exit 1: new", "old rule",
                                        "metrics new flags worse, most often"))
    for name in AA:
        runs = pool_runs(pool, name)
        if len(runs) < 6:
            say("%-34s skipped: %d runs in the pool, 6 needed" % (
                "A/A " + name, len(runs)))
            continue

        def pick(runs=runs):
            s = rng.sample(runs, 6)
            return s[:3], s[3:]
        res["aa"][name] = trial("A/A %s (3, pool of %d)" % (
            name, len(runs)), draws, pick, say)
        res["aa"][name]["pool_runs"] = len(runs)
    for pair in AB:
        a, b = pool_runs(pool, pair[0]), pool_runs(pool, pair[1])
        for n in (3, 5):
            label = "A/B %s -> %s" % pair
            if min(len(a), len(b)) < n:
                say("%-34s skipped: %d and %d runs in the pool, %d needed" % (
                    label, len(a), len(b), n))
                continue

            def pick(a=a, b=b, n=n):
                return rng.sample(a, n), rng.sample(b, n)
            res["ab"]["%s-%s-n%d" % (pair + (n,))] = trial(
                "%s (%d, pools %d/%d)" % (label, n, len(a), len(b)), draws,
                pick, say)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pool", required=True,
                    help="directory of records (made by --record)")
    ap.add_argument("--record", type=int, default=0,
                    help="record this many more runs of each workload")
    ap.add_argument("--draws", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.record:
        record_pool(args.pool, args.record, print)
    json.dump(rates(args.pool, args.draws, args.seed, print), sys.stderr,
              indent=1)


if __name__ == "__main__":
    main()
