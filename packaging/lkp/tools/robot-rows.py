#!/usr/bin/env python3
"""robot-rows.py - the rows lockscope's parse output would give in the
kernel test robot's %stddev %change table.

Usage: robot-rows.py BASE... -- NEW...   (files of parse output, one per run)

Per run, the reduction of lkp-tests: each key gets the monitor's prefix
"lockscope."; a key that is zero in every sample is dropped; one sample
is the value, a time series its mean (no lockscope key is an event or
independent counter); a key missing from a run counts 0 there (the
lib/stats.rb case for a lock the base never saw).  Per side: mean and
sample standard deviation in percent of the mean.  A row is shown when
the key is allow-listed, one side has at least 3 runs, the ratio of the
means is above 1.01 and, unless the key is a perf metric, above 1.05, the
key's threshold holds (the largest mean reaches it; an integer one also
needs a change of half of it), and the two sides' min..max ranges do not
overlap: a stand-in for the robot's distance test, which this script does
not copy (with 3 runs a side, 1 key in 10 passes it under A/A).  The
allow-list, perf-metric patterns and thresholds are read from the etc/
lines of packaging/lkp/programs/lockscope/README.md, the lines proposed
upstream.
"""
import math
import os
import re
import statistics
import sys

README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                      "programs", "lockscope", "README.md")


def etc_block(text, name):
    """The lines of the fenced block under the heading naming etc/NAME."""
    m = re.search(r"^#+ `etc/" + re.escape(name) + r"`.*?\n```\n(.*?)```",
                  text, re.S | re.M)
    if not m:
        sys.exit(f"robot-rows.py: failed to read {README}: no etc/{name} block")
    return [l for l in m.group(1).splitlines() if l.strip()]


def rules():
    text = open(README).read()
    allow = [re.compile(p) for p in etc_block(text, "report-allowlist")]
    perf = [re.compile(p) for p in etc_block(text, "perf-metrics-patterns")]
    thr = []
    for line in etc_block(text, "perf-metrics-threshold.yaml"):
        k, v = line.split(": ")
        thr.append((re.compile("^" + k + "$"),
                    float(v) if "." in v else int(v)))
    return allow, perf, thr


def reduce_run(path):
    series = {}
    for line in open(path):
        k, sep, v = line.rstrip("\n").partition(": ")
        if not sep or k == "time":
            continue
        series.setdefault("lockscope." + k, []).append(
            float(v) if "." in v else int(v))
    return {k: (v[0] if len(v) == 1 else sum(v) / len(v))
            for k, v in series.items() if any(v)}


def shown(k, a, b, allow, perf, thr):
    ma, mb = statistics.mean(a), statistics.mean(b)
    lo, hi = min(ma, mb), max(ma, mb)
    if not any(p.search(k) for p in allow):
        return False
    if max(len(a), len(b)) < 3 or hi == 0:
        return False
    ratio = hi / lo if lo > 0 else math.inf
    if ratio <= 1.01 or (ratio <= 1.05 and
                         not any(p.search(k) for p in perf)):
        return False
    for pat, v in thr:
        if pat.match(k):
            if hi < v or (isinstance(v, int) and hi - lo < v / 2):
                return False
            break
    return min(b) > max(a) or min(a) > max(b)


def fmt(v):
    return f"{v:.0f}" if abs(v) >= 100 else f"{v:.2f}"


def main(argv):
    if "--" not in argv or argv.index("--") in (0, len(argv) - 1):
        sys.exit(__doc__)
    allow, perf, thr = rules()
    i = argv.index("--")
    base = [reduce_run(p) for p in argv[:i]]
    new = [reduce_run(p) for p in argv[i + 1:]]
    print("         %stddev     %change         %stddev")
    print("             \\          |                \\  ")
    for k in sorted(set().union(*base, *new)):
        a = [r.get(k, 0) for r in base]
        b = [r.get(k, 0) for r in new]
        if not shown(k, a, b, allow, perf, thr):
            continue
        ma, mb = statistics.mean(a), statistics.mean(b)
        sa = statistics.stdev(a) * 100 / ma if ma and len(a) > 1 else 0
        sb = statistics.stdev(b) * 100 / mb if mb and len(b) > 1 else 0
        ch = f"{(mb - ma) * 100 / ma:+.1f}%" if ma else "+Inf%"
        print(f"{fmt(ma):>10} \u00b1{sa:3.0f}%  {ch:>9}  "
              f"{fmt(mb):>10} \u00b1{sb:3.0f}%  {k}")


if __name__ == "__main__":
    main(sys.argv[1:])
