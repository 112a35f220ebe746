#!/usr/bin/env python3
"""tests/integration/figures.py - impossible figures in lockscope's outputs.

  figures.py json FILE...   record JSON, hist --json, compare --format json
  figures.py prom FILE...   a /metrics scrape (Prometheus text)
  figures.py text FILE...   text pages (hist, top, compare, report HTML)

Walks every value and prints one line per impossible one (path: why);
exits 1 if there was any, 0 otherwise, after a last line that says how
many values it checked.  Impossible: NaN or infinity anywhere; a negative
count or time; a share (a *_pct or *share* key but a change, a spread or
a threshold; a *_percent metric) outside [0, 100], a probability or a
*_ratio metric outside [0, 1]; a histogram bucket below a lower one, or a
+Inf bucket that is not the count; callers or sampled holder
sites, pairs and tids that add up to more than the samples they share; a
spin function's samples above all samples; the shares of the sampler's
spin functions above 100% together; a minimum above a maximum.  In text:
"nan" or "inf" as a word, and a caller share above 100%.
"""
import json
import math
import re
import sys

bad = []
checked = 0

# compare's changes are signed and unbounded; a spread (standard deviation
# over the mean) and a threshold are percentages but no shares
SIGNED = {"change_pct", "effect_pct", "effect_lo_pct", "effect_hi_pct"}
NO_SHARE = {"base_stddev_pct", "new_stddev_pct", "threshold_pct"}
PROBABILITY = {"p", "p_adj", "alpha"}


def no_constant(name):
    raise ValueError("%s in JSON" % name)


def share_key(k):
    return (k.endswith("_pct") or "share" in k) and k not in NO_SHARE


def sum_at_most(path, items, key, limit, what):
    if not isinstance(items, list) or not isinstance(limit, (int, float)):
        return
    total = sum(i.get(key, 0) for i in items if isinstance(i, dict))
    if total > limit:
        bad.append("%s: %s sum to %s, above %s" % (path, what, total, limit))


def object_rules(path, o):
    """Relations between the values of one object."""
    if "callers" in o and "caller_samples" in o:
        sum_at_most(path, o["callers"], "samples", o["caller_samples"],
                    "callers' samples")
    sampled = o.get("sampled")
    if isinstance(sampled, dict):
        for part in ("sites", "pairs", "tids"):
            sum_at_most(path + ".sampled." + part, sampled.get(part),
                        "count", sampled.get("count"), "counts")
            sum_at_most(path + ".sampled." + part, sampled.get(part),
                        "tenure_ns", sampled.get("tenure_ns"), "tenures")
    if isinstance(o.get("spin_functions"), list) and "samples" in o:
        for i, f in enumerate(o["spin_functions"]):
            if isinstance(f, dict) and f.get("samples", 0) > o["samples"]:
                bad.append("%s.spin_functions[%d]: %s samples of %s" %
                           (path, i, f["samples"], o["samples"]))
        sum_at_most(path, o["spin_functions"], "share_pct", 100.05,
                    "spin functions' shares")
    if o.get("contentions") and isinstance(o.get("min_ns"), int) and \
            isinstance(o.get("max_ns"), int) and o["min_ns"] > o["max_ns"]:
        bad.append("%s: min_ns %s above max_ns %s" %
                   (path, o["min_ns"], o["max_ns"]))


def walk(path, key, v):
    global checked
    if isinstance(v, dict):
        object_rules(path, v)
        for k, x in v.items():
            walk(path + "." + k, k, x)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk("%s[%d]" % (path, i), key, x)
    elif isinstance(v, bool) or v is None or isinstance(v, str):
        return
    else:
        checked += 1
        if isinstance(v, float) and not math.isfinite(v):
            bad.append("%s: %r" % (path, v))
        elif key in SIGNED:
            return
        elif v < 0:
            bad.append("%s: negative (%s)" % (path, v))
        elif share_key(key) and v > 100:
            bad.append("%s: share %s above 100%%" % (path, v))
        elif key in PROBABILITY and v > 1:
            bad.append("%s: probability %s above 1" % (path, v))


def check_json(f):
    try:
        d = json.load(open(f), parse_constant=no_constant)
    except ValueError as e:
        bad.append("%s: %s" % (f, e))
        return
    walk(f, "", d)


SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)(\s+\S+)?$')


LE = re.compile(r'(^|,)le="([^"]*)"')


def prom_histograms(f, samples):
    """Buckets of each histogram series never fall as le grows, and the
    +Inf bucket holds the series' count."""
    series, counts = {}, {}
    for name, labels, x in samples:
        if name.endswith("_bucket"):
            m = LE.search(labels)
            if not m:
                continue
            rest = (name[:-7], LE.sub("", labels).strip(","))
            series.setdefault(rest, []).append((float(m.group(2)), x))
        elif name.endswith("_count"):
            counts[(name[:-6], labels)] = x
    for (name, labels), b in series.items():
        b.sort()
        for (le0, x0), (le1, x1) in zip(b, b[1:]):
            if x1 < x0:
                bad.append("%s: %s{%s}: bucket le=%g holds %g, le=%g %g" %
                           (f, name, labels, le1, x1, le0, x0))
        c = counts.get((name, labels))
        if c is not None and b[-1][0] == math.inf and b[-1][1] != c:
            bad.append("%s: %s{%s}: +Inf bucket %g, count %g" %
                       (f, name, labels, b[-1][1], c))


def check_prom(f):
    global checked
    samples = []
    for n, line in enumerate(open(f), 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            bad.append("%s:%d: not a sample: %s" % (f, n, line[:80]))
            continue
        name, value = m.group(1), m.group(3)
        checked += 1
        try:
            x = float(value)
        except ValueError:
            bad.append("%s:%d: value %r" % (f, n, value))
            continue
        samples.append((name, (m.group(2) or "{}")[1:-1], x))
        where = "%s:%d: %s%s" % (f, n, name, m.group(2) or "")
        if not math.isfinite(x):
            bad.append("%s: %s" % (where, value))
        elif x < 0:
            bad.append("%s: negative (%s)" % (where, value))
        elif name.endswith("_ratio") and x > 1:
            bad.append("%s: ratio %s above 1" % (where, value))
        elif (name.endswith("_percent") or name.endswith("_pct")) and x > 100:
            bad.append("%s: share %s above 100" % (where, value))
    prom_histograms(f, samples)


WORD = re.compile(r'(?<![\w.])[-+]?(nan|inf|infinity)(?![\w])', re.I)
CALLER = re.compile(r'\s([^\s,]+) ([0-9]+)%')


def check_text(f):
    global checked
    text = open(f, errors="replace").read()
    for n, line in enumerate(text.splitlines(), 1):
        checked += 1
        for m in WORD.finditer(line):
            bad.append("%s:%d: %r in %s" % (f, n, m.group(0), line.strip()[:100]))
        if re.search(r'callers \([0-9]+ sampled stacks', line):
            shares = [int(p) for _, p in CALLER.findall(line.split(":", 1)[1])]
            if any(p > 100 for p in shares) or sum(shares) > 100 + len(shares):
                bad.append("%s:%d: caller shares %s: %s" %
                           (f, n, shares, line.strip()[:100]))


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("json", "prom", "text"):
        sys.exit("usage: figures.py json|prom|text FILE...")
    for f in sys.argv[2:]:
        {"json": check_json, "prom": check_prom, "text": check_text}[
            sys.argv[1]](f)
    for b in bad[:20]:
        print(b)
    if len(bad) > 20:
        print("... and %d more" % (len(bad) - 20))
    print("%d values checked, %d impossible" % (checked, len(bad)))
    sys.exit(1 if bad else 0)


main()
