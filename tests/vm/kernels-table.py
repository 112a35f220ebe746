#!/usr/bin/env python3
"""kernels-table.py LABEL=LOG... - the "Kernels" tables of docs/sources.md, from the
console logs of tests/vm/kernels-payload.sh (tests/vm/kernels.sh makes them).

Prints two markdown tables: which mechanism each source used on each kernel
(from doctor), and which columns had data under the workloads, with the
measured figure (from hist --json), with and without the tracepoints."""
import json
import re
import sys


def section(text, name):
    m = re.search(r"^LS-OUT-BEGIN %s\n(.*?)^LS-OUT-END %s$" % (name, name),
                  text, re.S | re.M)
    if not m:
        return None
    return "\n".join(l for l in m.group(1).splitlines()
                     if not l.startswith("LS-OUT-RC "))


def hist(text, name):
    s = section(text, name)
    if s is None or "{" not in s:
        return None
    try:
        return json.loads(s[s.find("{"):s.rfind("}") + 1])
    except ValueError:
        return None


def doctor_rows(text):
    """source name -> (mechanism, active)"""
    rows = {}
    for line in (section(text, "doctor") or "").splitlines():
        m = re.match(r"^(tracepoints|cpu sampler|probe \S+)\s+(\S+)\s+"
                     r"(yes|no)\s+(yes|no)\s+(.*)$", line)
        if m:
            rows[m.group(1)] = (m.group(2), m.group(4) == "yes", m.group(5))
    return rows


def mech(rows, src):
    if src not in rows:
        return "?"
    m, active, why = rows[src]
    if not active:
        if "not in this kernel" in why:
            return "absent"
        return "none"
    return m


def kernel_line(text):
    m = re.search(r"^kernel (\S+) (\S+),", section(text, "doctor") or "",
                  re.M)
    return "%s %s" % (m.group(1), m.group(2)) if m else "?"


def pick(d, pred):
    return [r for r in (d or {}).get("locks", []) if pred(r)]


def total(rows, key):
    return sum(r.get(key, 0) for r in rows)


def ms(ns):
    return "%.1f ms" % (ns / 1e6)


def sources_table(runs):
    print("| kernel | tracepoints | sampler | `osq_lock` | `__mutex_lock` "
          "| rwsem slow paths | static lock names |")
    print("|---|---|---|---|---|---|---|")
    for label, text in runs:
        r = doctor_rows(text)
        doc = section(text, "doctor") or ""
        ks = re.search(r"^kallsyms: \d+ symbols, (\d+) data symbols", doc,
                       re.M)
        nsym = int(ks.group(1)) if ks else 0
        samp = r.get("cpu sampler", ("?", False, ""))
        nf = re.search(r"(\d+) spin functions", samp[2])
        print("| %s (`%s`) | %s | %s | %s | %s | %s / %s | %s |" % (
            label, kernel_line(text), mech(r, "tracepoints"),
            "%s, %s spin functions" % (samp[0], nf.group(1) if nf else "?")
            if samp[1] else "none",
            mech(r, "probe osq_lock"), mech(r, "probe __mutex_lock"),
            mech(r, "probe rwsem_down_write_slowpath"),
            mech(r, "probe rwsem_down_read_slowpath"),
            "yes (%d data symbols)" % nsym if nsym > 1000 else
            "no (`<kind>@<caller>`)"))


SLEEPING_MUTEX = ("mutex", "rt_mutex")  # rt_mutex: PREEMPT_RT's mutexes


def mmap_w(r):  # rwsem:W, or rtlock:W where rwsems are rt_mutex based
    return r["name"] in ("mmap_lock", "mm_struct.mmap_lock") and r["kind"].endswith(":W")


def pipe_m(r):
    return r["kind"] in SLEEPING_MUTEX and "pipe" in r["name"]


def columns_table(runs):
    print("| kernel | mmap_lock writer: contentions, spin/sleep | osq | "
          "writer spin (probe) | pipe mutex: name, contentions, slow-path "
          "calls | genl mutex name | probe-only (`--no-tracepoints`) |")
    print("|---|---|---|---|---|---|---|")
    for label, text in runs:
        mm, pp = hist(text, "mmap"), hist(text, "pipe")
        w, p = pick(mm, mmap_w), pick(pp, pipe_m)
        wc = total(w, "contentions")
        a = "%s %d, %s / %s" % (w[0]["kind"], wc, ms(total(w, "spin_ns")),
                                ms(total(w, "sleep_ns"))) if wc else "none"
        oc = total(w, "osq_calls")
        o = "%d calls, %s" % (oc, ms(total(w, "osq_ns"))) if oc else "—"
        sc = total(w, "slow_path_calls")
        ws = "%s over %d calls" % (ms(total(w, "slow_path_untraced_ns")),
                                   sc) if sc else "—"
        pc = total(p, "contentions")
        ps = "`%s` (%s), %d, %s" % (p[0]["name"], p[0]["kind"], pc, total(
            p, "slow_path_calls") or "—") if p else "none"
        nl = hist(text, "netlink")
        if nl is None:
            g = "not run"
        else:
            top = max(pick(nl, lambda r: r["kind"] in SLEEPING_MUTEX),
                      key=lambda r: r["contentions"], default=None)
            g = "`%s`" % top["name"] if top else "none"
        pn, mn = hist(text, "pipe-notp"), hist(text, "mmap-notp")
        if section(text, "pipe-notp") is None:
            po = "not run"
        elif pn is None or mn is None:
            po = "fails: %s" % (section(text, "pipe-notp").strip()
                                .splitlines() or ["no output"])[0]
        else:
            pm = pick(pn, lambda r: r["kind"] in SLEEPING_MUTEX)
            pm.sort(key=lambda r: -r.get("slow_path_calls", 0))
            wm = pick(mn, lambda r: r["kind"].endswith(":W"))
            wm.sort(key=lambda r: -r.get("slow_path_calls", 0))
            po = "pipe mutex: %s; mmap writer: %s" % (
                "`%s` %d contentions, %d slow-path calls" % (
                    pm[0]["name"], pm[0]["contentions"],
                    pm[0].get("slow_path_calls", 0)) if pm else "no row",
                "`%s` %d contentions, %d slow-path calls" % (
                    wm[0]["name"], wm[0]["contentions"],
                    wm[0].get("slow_path_calls", 0)) if wm else "no row")
        print("| %s | %s | %s | %s | %s | %s | %s |" %
              (label, a, o, ws, ps, g, po))


def main(argv):
    runs = []
    for arg in argv[1:]:
        label, sep, path = arg.partition("=")
        if not sep:
            sys.exit("kernels-table: failed to parse '%s': want LABEL=LOG" %
                     arg)
        with open(path, errors="replace") as f:
            runs.append((label, f.read()))
    if not runs:
        sys.exit("kernels-table: failed to parse arguments: "
                 "usage: kernels-table.py LABEL=LOG...")
    sources_table(runs)
    print()
    columns_table(runs)


if __name__ == "__main__":
    main(sys.argv)
