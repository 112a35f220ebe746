#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""bench/bench.py - lockscope's cost, measured side by side.

Phases (all by default; pick with --phases):
  overhead  contention workloads with no observer, lockscope (all sources,
            tracepoints only, sampler only) and reference observers
            (bpftrace doing the same aggregation, perf lock record),
            lockscope --budget 1 too,
            interleaved over rounds with the order rotated each round;
            throughput of each as a ratio to no observer in the same round.
  cost      mean ns per BPF program run (BPF run-time stats, lockscope
            --cost), with --hold too where its probes work; each workload
            at several thread counts (ns per run against the event rate);
            on netlink, in the same rounds, bpftrace's programs under the
            same stats: the same aggregation, and the minimal one issue
            15 compares with (lockscope's ns per run as a ratio to it);
            in the same rounds, the floor (bench/floor.py): an empty
            program and one with one clock read on the same tracepoints.
  budget    exact mode and --budget 1 interleaved under each workload:
            BPF CPU share of the machine and ns per run
            (bench/budget_phase.py).
  agent     the agent's CPU and RSS at a 1 s refresh against the number
            of contended locks (1k, 10k, 100k by default, the lock table
            sized with --max-locks to hold them): once with every lock
            contended, once with the same table and nothing changing;
            fitted lines say whether cost grows with changed locks or
            with all of them.
  startup   exec to attached and to the first frame of top; first data
            under netlink: the first frame of top -b -i 0.2 with the
            genl mutex row, and the shortest hist -d that shows it.
  compare   compare's false-alarm rate (A/A) and power (A/B) on a pool of
            real records, beside the old rule's (bench/compare_rates.py;
            --compare-runs runs of each workload, about 15 s per run
            triple, or an existing --compare-pool).

Results go to bench/results/bench-<time>.txt (the table printed), .json
(every raw figure) and .svg (the curves).  BENCH_QUICK=1 runs the curve
phases short and once (files named bench-<time>-quick.*): a check of the
bench, not figures to quote.  Run as root on an otherwise quiet machine;
other BPF programs on the lock tracepoints are reported when seen.
"""
import argparse
import json
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_rates  # noqa: E402
import budget_phase  # noqa: E402
import curves  # noqa: E402
import floor  # noqa: E402
import mapfill  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LS = os.environ.get("LS", os.path.join(ROOT, "lockscope"))
BUILD = os.path.join(ROOT, "build")
TICK = os.sysconf("SC_CLK_TCK")
NCPU = os.cpu_count() or 1

# Per-lock count and wait time, begin/end matched by thread: what lockscope's
# tracepoint source does, written the bpftrace way.
BPFTRACE_PROG = r"""
tracepoint:lock:contention_begin {
	@start[tid] = nsecs;
	@lock[tid] = args->lock_addr;
}
tracepoint:lock:contention_end /@start[tid]/ {
	@count[@lock[tid]] = count();
	@wait_ns[@lock[tid]] = sum(nsecs - @start[tid]);
	delete(@start[tid]);
	delete(@lock[tid]);
}
"""

# The minimal aggregator issue 15 compares with: the begin time by thread
# and a per-lock count at begin; a per-lock sum and a delete at end.
BPFTRACE_MIN_PROG = r"""
tracepoint:lock:contention_begin {
	@s[tid] = nsecs;
	@n[args->lock_addr] = count();
}
tracepoint:lock:contention_end /@s[tid]/ {
	@w[args->lock_addr] = sum(nsecs - @s[tid]);
	delete(@s[tid]);
}
"""

log_lines = []


def say(msg=""):
    print(msg, flush=True)
    log_lines.append(msg)


def note(msg):
    print(msg, file=sys.stderr, flush=True)


# ---- workloads ---------------------------------------------------------


def parse_stress_ng(out, secs):
    # "stress-ng: metrc: [pid] netlink-task  965354  3.00  0.31  5.66  321779.49  161848.02"
    for line in out.splitlines():
        f = line.split()
        if "netlink-task" in f:
            i = f.index("netlink-task")
            nums = f[i + 1:]
            if len(nums) >= 5:
                return float(nums[4])  # bogo ops/s (real time)
    raise RuntimeError("no netlink-task metrics in stress-ng output")


def parse_ops(out, secs):
    m = re.search(r"^ops: (\d+)$", out, re.M)
    if not m:
        raise RuntimeError("no 'ops: N' line in workload output")
    return int(m.group(1)) / secs


WORKLOADS = {
    "netlink": (lambda s, n=2: ["stress-ng", "--netlink-task", str(n), "-t",
                                "%ds" % s, "--metrics-brief"],
                parse_stress_ng,
                "stress-ng --netlink-task 2 (genl mutex), bogo ops/s"),
    "mmap": (lambda s, n=4: [os.path.join(BUILD, "mmap_hammer"), str(n),
                             str(s)],
             parse_ops, "mmap_hammer 4 (mmap_lock rwsem writers), ops/s"),
    "pipe": (lambda s, n=2: [os.path.join(BUILD, "pipe_hammer"), str(n),
                             str(s)],
             parse_ops, "pipe_hammer 2 (pipe mutex), ops/s"),
}
# The cost phase's curve: each workload at these thread counts (the first
# is the one the overhead phase and the cost table use; one netlink task
# alone hardly contends).
COST_LEVELS = {"netlink": (2, 3, 4), "mmap": (4, 2, 8), "pipe": (2, 1, 4)}


def run_workload(name, secs):
    argv, parse, _ = WORKLOADS[name]
    p = subprocess.run(argv(secs), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True,
                       timeout=secs + 60)
    if p.returncode:
        raise RuntimeError("%s exit %d: %s" % (name, p.returncode,
                                                p.stdout[-300:]))
    return parse(p.stdout, secs)


# ---- observers ---------------------------------------------------------


def wait_for(path, pattern, timeout, proc):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            return False
        try:
            with open(path, errors="replace") as f:
                if re.search(pattern, f.read()):
                    return True
        except OSError:
            pass
        time.sleep(0.02)
    return False


def perf_event_fds(pid):
    n = 0
    try:
        for fd in os.listdir("/proc/%d/fd" % pid):
            try:
                if "perf_event" in os.readlink("/proc/%d/fd/%s" % (pid, fd)):
                    n += 1
            except OSError:
                pass
    except OSError:
        pass
    return n


class Observer:
    """One observer process: started in its own session, ready when its
    output says it is attached, stopped with SIGINT like a user would."""

    def __init__(self, name, argv, ready, tmp):
        self.name, self.argv, self.ready, self.tmp = name, argv, ready, tmp
        self.proc = None
        self.out = os.path.join(tmp, "observer.out")

    def start(self):
        with open(self.out, "w") as f:
            self.proc = subprocess.Popen(self.argv, stdout=f,
                                         stderr=subprocess.STDOUT,
                                         start_new_session=True)
        ok = False
        if self.ready == "perf":
            # perf says nothing until the end: ready when its events are
            # open (two tracepoints on every CPU) and a moment has passed
            end = time.monotonic() + 20
            while time.monotonic() < end and self.proc.poll() is None:
                if perf_event_fds(self.proc.pid) >= 2 * NCPU:
                    time.sleep(0.3)
                    ok = True
                    break
                time.sleep(0.02)
        else:
            ok = wait_for(self.out, self.ready, 30, self.proc)
        if not ok:
            self.stop()
            raise RuntimeError("%s did not start: %s" % (self.name,
                                                        self.tail()))

    def tail(self):
        try:
            with open(self.out, errors="replace") as f:
                return f.read()[-400:]
        except OSError:
            return ""

    def stop(self):
        if not self.proc:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        try:  # anything it left behind in its own session (perf's sleep)
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        self.proc = None


def observer_configs(tmp):
    bt = os.path.join(tmp, "bench.bt")
    with open(bt, "w") as f:
        f.write(BPFTRACE_PROG)
    top = [LS, "top", "-b", "-i", "1"]
    return {
        "none": None,
        "lockscope": (top, r"lockscope top -"),
        "lockscope -F 0": (top + ["-F", "0"], r"lockscope top -"),
        "lockscope --no-tracepoints": (top + ["--no-tracepoints"],
                                       r"lockscope top -"),
        "lockscope --budget 1": (top + ["--budget", "1"],
                                 r"lockscope top -"),
        "lockscope --hold": ([LS, "hist", "--hold"],
                             r"tracing lock contention"),
        "bpftrace": (["bpftrace", bt], r"Attaching"),
        "perf lock record": (["perf", "lock", "record", "-a", "-o",
                              os.path.join(tmp, "perf.data"), "--",
                              "sleep", "100000"], "perf"),
    }


CONFIG_NOTES = {
    "none": "no observer",
    "lockscope": "lockscope top -b -i 1: tracepoints + cpu sampler (99 Hz)",
    "lockscope -F 0": "tracepoints only",
    "lockscope --no-tracepoints": "cpu sampler only",
    "lockscope --budget 1": "all sources under a 1% CPU budget",
    "lockscope --hold": "lockscope hist --hold: all sources, plus hold "
                        "times (probes on lock/unlock functions)",
    "bpftrace": "bpftrace: per-lock count and wait time, begin/end by tid",
    "perf lock record": "perf lock record -a (to a file in /tmp)",
}


OTHERS = ("lockscope", "bpftrace", "perf", "stress-ng", "qemu-system-x86")


def others():
    """Observers and loads on this machine that this bench did not start."""
    me, found = os.getpid(), []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                st = f.read()
        except OSError:
            continue
        comm = st[st.index("(") + 1:st.rindex(")")]
        if comm not in OTHERS and not comm.startswith("qemu"):
            continue
        pid, mine = int(d), False
        while pid > 1:  # descended from this bench?
            if pid == me:
                mine = True
                break
            try:
                with open("/proc/%d/stat" % pid) as f:
                    pid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                break
        if not mine:
            found.append(comm)
    return sorted(set(found))


def busy_seconds():
    """CPU seconds the whole machine has been busy (all CPUs)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    return (sum(v) - v[3] - v[4]) / TICK  # minus idle and iowait


def own_seconds():
    """CPU seconds of this bench and every child it has reaped."""
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    s = resource.getrusage(resource.RUSAGE_SELF)
    return c.ru_utime + c.ru_stime + s.ru_utime + s.ru_stime


# ---- statistics ---------------------------------------------------------


def summary(vals):
    vals = sorted(vals)
    return {"median": statistics.median(vals), "min": vals[0],
            "max": vals[-1], "n": len(vals), "values": vals}


def pct(x):
    return "%+.1f%%" % (100.0 * (x - 1.0))


# ---- phases -------------------------------------------------------------


def phase_overhead(args, res, tmp):
    configs = observer_configs(tmp)
    names = [c for c in configs if c in args.configs]
    tput = {w: {c: [] for c in names} for w in args.workloads}
    foreign = []
    # CPU used by others during each run, in CPUs: a round in which any run
    # shared the machine with more than --max-foreign is left out
    fcpu = {w: {c: [] for c in names} for w in args.workloads}
    say("== overhead: %d rounds x %d configurations x %s, %d s each, "
        "order rotated each round" % (args.rounds, len(names),
                                      "/".join(args.workloads), args.secs))
    for r in range(args.rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for w in args.workloads:
            for c in order:
                spec = configs[c]
                obs = None
                b0, o0, t0 = busy_seconds(), own_seconds(), time.monotonic()
                if spec:
                    obs = Observer(c, spec[0], spec[1], tmp)
                    obs.start()
                foreign.append((others(), os.getloadavg()[0]))
                try:
                    v = run_workload(w, args.secs)
                finally:
                    if obs:
                        obs.stop()
                fcpu[w][c].append(max(0.0, (busy_seconds() - b0) -
                                      (own_seconds() - o0)) /
                                  (time.monotonic() - t0))
                tput[w][c].append(v)
                note("round %d %-8s %-28s %12.0f  (others used %.2f CPU)" %
                     (r + 1, w, c, v, fcpu[w][c][-1]))
                try:
                    os.unlink(os.path.join(tmp, "perf.data"))
                except OSError:
                    pass
                time.sleep(0.3)
    out = {}
    say("%-8s %-28s %14s %9s %20s" % ("workload", "observer",
                                       "median ops/s", "ratio",
                                       "ratio min..max"))
    kept = {}
    for w in args.workloads:
        clean = [r for r in range(args.rounds)
                 if max(fcpu[w][c][r] for c in names) <= args.max_foreign]
        if len(clean) < 3:
            say("note: %s: only %d of %d rounds ran without others above "
                "%.2f CPU: all rounds used" % (w, len(clean), args.rounds,
                                                args.max_foreign))
            clean = list(range(args.rounds))
        kept[w] = clean
    for w in args.workloads:
        out[w] = {}
        base = tput[w]["none"] if "none" in tput[w] else None
        for c in names:
            e = {"throughput": summary([tput[w][c][r] for r in kept[w]]),
                 "all_rounds": tput[w][c], "others_cpu": fcpu[w][c]}
            if base:
                ratios = [tput[w][c][r] / base[r] for r in kept[w]
                          if base[r] > 0]
                e["ratio"] = summary(ratios)
                rs = e["ratio"]
                say("%-8s %-28s %14.0f %9.3f %9.3f..%-9.3f %s" % (
                    w, c, e["throughput"]["median"], rs["median"],
                    rs["min"], rs["max"],
                    "" if c == "none" else "(%s)" % pct(rs["median"])))
            out[w][c] = e
    for w in args.workloads:
        say("%s: %d of %d rounds used (others at most %.2f CPU during each "
            "run of the round)" % (w, len(kept[w]), args.rounds,
                                   args.max_foreign))
    busy = sorted({c for o, _ in foreign for c in o})
    say("load average (1 min) at the runs: median %.2f, max %.2f" % (
        statistics.median([l for _, l in foreign]),
        max(l for _, l in foreign)))
    if busy:
        say("note: processes not started by this bench ran during %d of %d "
            "runs: %s" % (sum(1 for o, _ in foreign if o), len(foreign),
                          ", ".join(busy)))
    budget_phase.throughput_targets(out, say)
    res["overhead"] = {"rounds": args.rounds, "secs": args.secs,
                       "rounds_used": kept, "max_foreign_cpu": args.max_foreign,
                       "configs": {c: CONFIG_NOTES[c] for c in names},
                       "workloads": {w: WORKLOADS[w][2]
                                     for w in args.workloads},
                       "others_per_run": [{"others": o, "loadavg1": l}
                                          for o, l in foreign],
                       "results": out}


def hold_unavailable():
    """Why --hold cannot work here (doctor's hold row), or None."""
    out = subprocess.run([LS, "doctor"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    for line in out.splitlines():
        if line.startswith("hold (--hold) "):
            f = line.split(None, 5)  # hold (--hold) MECH AVAIL ACTIVE WHY
            return None if f[3] == "yes" else f[5]
    return "lockscope doctor shows no hold row"


def json_tail(text):
    i = text.find("\n{\n")
    i = 0 if text.startswith("{") else i + 1
    return json.loads(text[i:text.rindex("}") + 1])


def bpftrace_prog_stats():
    out = subprocess.run(["bpftool", "prog", "show", "-j"], text=True,
                         stdout=subprocess.PIPE).stdout
    st = {}
    for p in json.loads(out):
        name = p.get("name", "")
        if p.get("type") == "tracepoint" and "contention" in name:
            s = st.setdefault(name, [0, 0])
            s[0] += p.get("run_cnt", 0)
            s[1] += p.get("run_time_ns", 0)
    return st


def lockscope_cost_run(args, w, level, opt):
    """One hist --cost run of workload @w at @level threads: {program:
    (ns_per_run, runs)}, "all programs" included, and the begins/s."""
    argv = WORKLOADS[w][0](args.secs, level)
    p = subprocess.run([LS, "hist", "--cost", "--json"] + opt + ["--"] +
                       argv, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True,
                       timeout=args.secs + 60)
    d = json_tail(p.stdout)
    cnt = sum(c["run_cnt"] for c in d["cost"])
    ns = sum(c["run_time_ns"] for c in d["cost"])
    per = {c["program"]: (c["run_time_ns"] / c["run_cnt"], c["run_cnt"])
           for c in d["cost"] if c["run_cnt"]}
    per["all programs"] = (ns / cnt if cnt else 0, cnt)
    begins = sum(c["run_cnt"] for c in d["cost"]
                 if c["program"].startswith("begin"))
    return per, begins / args.secs


def bpftrace_cost_run(args, prog_text, tmp):
    """(ns per run, begins per second) of a bpftrace program on netlink,
    run-time stats on (a lockscope with only the sampler holds the stats
    switch); (None, 0) when its programs did not run."""
    bt = os.path.join(tmp, "cost.bt")
    with open(bt, "w") as f:
        f.write(prog_text)
    stats = Observer("lockscope --cost",
                     [LS, "hist", "--cost", "--no-tracepoints"],
                     r"tracing lock contention", tmp)
    stats.out = os.path.join(tmp, "stats.out")
    stats.start()
    bpft = Observer("bpftrace", ["bpftrace", bt], r"Attaching", tmp)
    try:
        bpft.start()
        a = bpftrace_prog_stats()
        run_workload("netlink", args.secs)
        b = bpftrace_prog_stats()
    finally:
        bpft.stop()
        stats.stop()
    cnt = sum(b[k][0] - a.get(k, [0, 0])[0] for k in b)
    ns = sum(b[k][1] - a.get(k, [0, 0])[1] for k in b)
    # program names are cut at 15 characters: "contention_begi"
    begins = sum(b[k][0] - a.get(k, [0, 0])[0] for k in b if "_begi" in k)
    return (ns / cnt if cnt else None), begins / args.secs


def phase_cost(args, res, tmp):
    say("== cost: ns per BPF program run (BPF run-time stats); %d rounds "
        "at each workload's usual thread count, %d at the others (the "
        "curve against the event rate); on netlink, each round also runs "
        "two bpftrace aggregators under the same stats" %
        (args.cost_rounds, args.curve_rounds))
    out, curve = {}, {}
    # --hold: the same runs with hold probes, their programs' keys prefixed
    variants = [("", [])] + ([] if args.hold_why else [("--hold ",
                                                         ["--hold"])])
    ref = {"full": [], "minimal": []}
    ref_rate = {"full": [], "minimal": []}
    pairs = []  # (lockscope all programs, minimal bpftrace), same round
    floor_pairs = {}  # workload: [(lockscope, floor)], same rounds
    for w in args.workloads:
        per, curve[w] = {}, []
        for li, level in enumerate(COST_LEVELS[w]):
            rounds = args.cost_rounds if li == 0 else args.curve_rounds
            pts = []
            for _ in range(rounds):
                for pre, opt in variants if li == 0 else variants[:1]:
                    got, rate = lockscope_cost_run(args, w, level, opt)
                    if not pre:
                        got_exact = got
                    if li == 0:
                        for k, v in got.items():
                            per.setdefault(pre + k, []).append(v)
                    if not pre:
                        pts.append((rate, got["all programs"][0]))
                if li == 0:  # the floor, in the same round
                    fl = floor.run(lambda: subprocess.run(
                        WORKLOADS[w][0](args.secs, level), check=True,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                        timeout=args.secs + 60))
                    floor_pairs.setdefault(w, []).append((got_exact, fl))
                if li == 0 and w == "netlink":
                    mn, mr = bpftrace_cost_run(args, BPFTRACE_MIN_PROG, tmp)
                    fl, fr = bpftrace_cost_run(args, BPFTRACE_PROG, tmp)
                    if fl:
                        ref["full"].append(fl)
                        ref_rate["full"].append(fr)
                    if mn:
                        ref["minimal"].append(mn)
                        ref_rate["minimal"].append(mr)
                        pairs.append((pts[-1][1], mn))
            curve[w].append({"threads": level,
                             "begins_per_s": summary([r for r, _ in pts]),
                             "ns_per_run": summary([n for _, n in pts])})
        out[w] = {k: {"ns_per_run": summary([a for a, _ in v]),
                      "runs": summary([b for _, b in v])}
                  for k, v in per.items()}
        for k, v in out[w].items():
            st = v["ns_per_run"]
            say("%-8s %-28s %7.0f ns/run (min %.0f, max %.0f), "
                "%.0f runs/round" % (w, k, st["median"], st["min"],
                                     st["max"], v["runs"]["median"]))
    for k, label in (("full", "bpftrace, same aggregation"),
                     ("minimal", "bpftrace, minimal")):
        if ref[k]:
            st = summary(ref[k])
            rt = summary(ref_rate[k])
            say("%-8s %-28s %7.0f ns/run (min %.0f, max %.0f), %.0f "
                "begins/s" % ("netlink", label, st["median"], st["min"],
                              st["max"], rt["median"]))
            key = "bpftrace_netlink" if k == "full" else "bpftrace_min_netlink"
            out[key + "_ns_per_run"] = st
            out[key + "_begins_per_s"] = rt
    if pairs:
        st = summary([a / b for a, b in pairs])
        out["ratio_to_bpftrace_min"] = st
        say("netlink  lockscope / minimal bpftrace, per round: median "
            "%.2fx (min %.2f, max %.2f; target <= 0.6x: %s)" %
            (st["median"], st["min"], st["max"],
             "met" if st["median"] <= 0.6 else "missed"))
    say("-- ns per run (all programs) against the event rate "
        "(tracepoint begins per second), median of each level:")
    for w in args.workloads:
        for p in curve[w]:
            say("%-8s %2d threads %10.0f begins/s %7.0f ns/run" % (
                w, p["threads"], p["begins_per_s"]["median"],
                p["ns_per_run"]["median"]))
    if pairs:
        say("(ns per run depends on the rate: at low rates each run "
            "starts with cold caches; compare figures at similar rates)")
    for line in curves.cost_growth(curve):
        say(line)
    out["floor"] = floor.report(floor_pairs, say)
    out["curve"] = curve
    res["cost"] = out


def proc_cpu_ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        f = f.read().rsplit(")", 1)[1].split()
    return int(f[11]) + int(f[12])  # utime + stime


def proc_status(pid, key):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def map_fill(pid, names=("lock_stats", "lock_callers", "task_state")):
    """Entries in lockscope's maps, counted from outside (mapfill.py)."""
    return mapfill.fill(pid, names)


def table_size(target):
    """--max-locks for a run that wants @target locks: the default 16384,
    or the power of two that holds 1.25 times as many (lock_spread's
    pipes plus the machine's own locks)."""
    n = 16384
    while n < target * 5 // 4:
        n *= 2
    return n


def raise_nofile(pipes):
    """In lock_spread's child: room for all its pipes in one process, so
    that every size runs the same 4 threads (root may raise the hard
    limit up to fs.nr_open; if not, lock_spread shares them out)."""
    want = 2 * pipes + 256

    def pre():
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, want))
        except (ValueError, OSError):
            pass
    return pre


def agent_window(pid, secs, out_path):
    """CPU (% of one CPU) and frames printed by top over @secs."""
    def frames():
        with open(out_path, errors="replace") as f:
            return f.read().count("lockscope top -")
    f0, c0, w0 = frames(), proc_cpu_ticks(pid), time.monotonic()
    time.sleep(secs)
    c1, w1, f1 = proc_cpu_ticks(pid), time.monotonic(), frames()
    return 100.0 * (c1 - c0) / TICK / (w1 - w0), f1 - f0, w1 - w0


def last_losses(out_path):
    losses = ""
    with open(out_path, errors="replace") as f:
        for line in f:
            if "losses:" in line:
                losses = line.split("losses:", 1)[1].strip()
    return losses


def phase_agent(args, res, tmp):
    say("== agent: lockscope top -b -i 1 (all sources) against the number "
        "of contended locks; CPU over %d s while lock_spread walks its "
        "pipes (each pass contends every pipe's mutex), then %d s with the "
        "same table and nothing changing (lock_spread ended)" %
        (args.agent_secs, args.agent_secs))
    out = {}
    for target in args.locks:
        pipes = target + target // 5
        size = table_size(target)
        spread = subprocess.Popen([os.path.join(BUILD, "lock_spread"),
                                   str(pipes), "100000"],
                                  stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True,
                                  preexec_fn=raise_nofile(pipes),
                                  start_new_session=True)
        top = Observer("lockscope", [LS, "top", "-b", "-i", "1",
                                     "--max-locks", str(size)],
                       r"lockscope top -", tmp)
        spread_out, t_spread = "", time.monotonic()
        try:
            top.start()
            pid = top.proc.pid
            t0 = time.monotonic()
            fill = {}
            while time.monotonic() - t0 < args.fill_timeout:
                time.sleep(3)
                fill = map_fill(pid, ("lock_stats",))
                if fill.get("lock_stats", {}).get("entries", 0) >= target:
                    break
            fill_s = time.monotonic() - t0
            busy = agent_window(pid, args.agent_secs, top.out)
            rss_busy = proc_status(pid, "VmRSS")
            fill = map_fill(pid)
            losses_busy = last_losses(top.out)
            # end the walk: the table keeps its entries (top forgets a
            # lock after 60 idle refreshes, longer than the window)
            spread.send_signal(signal.SIGTERM)
            spread_out = spread.communicate(timeout=60)[1]
            t_walk = time.monotonic() - t_spread
            time.sleep(1.5)  # the interval that still saw changes
            idle = agent_window(pid, args.agent_secs, top.out)
            fill_idle = map_fill(pid, ("lock_stats",))
            rss, hwm = proc_status(pid, "VmRSS"), proc_status(pid, "VmHWM")
            losses_idle = last_losses(top.out)
        finally:
            top.stop()
            if spread.poll() is None:
                os.killpg(spread.pid, signal.SIGKILL)
                spread.wait()
        m = re.search(r"^visits: (\d+)$", spread_out, re.M)
        visits = int(m.group(1)) / t_walk if m else None
        entries = fill.get("lock_stats", {}).get("entries", 0)
        e = {"pipes": pipes, "max_locks": size, "fill": fill,
             "fill_seconds": fill_s,
             "busy": {"cpu_percent": busy[0], "frames": busy[1],
                      "secs": busy[2], "rss_kb": rss_busy,
                      "last_frame_losses": losses_busy},
             "idle": {"cpu_percent": idle[0], "frames": idle[1],
                      "secs": idle[2], "entries":
                      fill_idle.get("lock_stats", {}).get("entries", 0),
                      "last_frame_losses": losses_idle},
             "rss_kb": rss, "hwm_kb": hwm,
             "pipe_visits_per_s": visits,
             "passes_per_s": visits / pipes if visits else None}
        out[str(target)] = e
        say("%6d locks wanted (--max-locks %d): %d in lock_stats, %d "
            "callers (of %d); filled in %.0f s; the walk made %s passes/s "
            "over the pipes" % (target, size, entries,
                                fill.get("lock_callers", {}).get("entries", 0),
                                fill.get("lock_callers", {}).get("max", 0),
                                fill_s, "%.2f" % e["passes_per_s"]
                                if visits else "?"))
        say("       walking: agent CPU %.2f%%, RSS %d kB, %d frames "
            "in %.0f s; last frame losses: %s" %
            (busy[0], rss_busy, busy[1], busy[2], losses_busy or "?"))
        say("       walk ended: agent CPU %.2f%%, RSS %d kB (peak %d "
            "kB), %d frames in %.0f s; last frame losses: %s" %
            (idle[0], rss, hwm, idle[1], idle[2], losses_idle or "?"))
    res["agent"] = out
    if len(out) > 1:
        for line in curves.agent_growth(out):
            say(line)


# The netlink workload's lock, as hist and top name it.
GENL_ROW = re.compile(r"genl", re.M)
HIST_LADDER = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5)


def first_hist(ladder):
    """With netlink running: exec to the end of the first hist run whose
    table has the workload's lock, from the shortest -d of @ladder that
    yields it: (seconds, d), or (None, None)."""
    for d in ladder:
        t0 = time.monotonic()
        p = subprocess.run([LS, "hist", "-d", str(d)], timeout=60,
                           stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        if not p.returncode and GENL_ROW.search(p.stdout):
            return time.monotonic() - t0, d
    return None, None


def first_top(argv, want_row, timeout=10):
    """Exec to the first frame of top -b, and (@want_row) to the first
    frame with a contended row of the workload's lock: (seconds to the
    first frame, seconds to the row or None, frames before the row)."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    first, got, frames = None, None, 0
    try:
        for line in p.stdout:
            if line.startswith("lockscope top -"):
                frames += 1
                if first is None:
                    first = time.monotonic() - t0
                if not want_row:
                    break
            elif frames and GENL_ROW.search(line) and \
                    not line.startswith(("events/s", "cost:", "steal")):
                got = time.monotonic() - t0
                break
            if time.monotonic() - t0 > timeout:
                break
    finally:
        p.send_signal(signal.SIGINT)
        p.communicate()
    return first, got, frames - 1 if got is not None else frames


def phase_startup(args, res, tmp):
    say("== startup, %d runs: exec to attached (hist's 'tracing' line, "
        "idle machine) and to the first frame of top -b (default "
        "interval); first data with stress-ng --netlink-task 2 running: "
        "exec to the first frame of top -b -i 0.2 with the genl mutex row, "
        "and exec to the end of the shortest hist -d (of %s) whose table "
        "has it" % (args.rounds, "/".join(str(d) for d in HIST_LADDER)))
    att, first, top_row, hist_row, hist_d = [], [], [], [], []
    top_loaded, top_before = [], []  # first frame under load; frames
    # before the one with the row
    for _ in range(args.rounds):
        t0 = time.monotonic()
        p = subprocess.Popen([LS, "hist"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        line = p.stderr.readline()
        t1 = time.monotonic()
        p.send_signal(signal.SIGINT)
        p.wait()
        if "tracing" not in line:
            raise RuntimeError("hist did not start: %s" % line)
        att.append(t1 - t0)
        f = first_top([LS, "top", "-b"], False)[0]
        if f is None:
            raise RuntimeError("top printed no frame")
        first.append(f)
        time.sleep(0.2)
        load = subprocess.Popen(WORKLOADS["netlink"][0](60),
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            time.sleep(1)  # the workload past its start
            f, t, before = first_top([LS, "top", "-b", "-i", "0.2"], True)
            if f is not None:
                top_loaded.append(f)
            if t is not None:
                top_row.append(t)
                top_before.append(before)
            t, d = first_hist(HIST_LADDER)
            if t is not None:
                hist_row.append(t)
                hist_d.append(d)
        finally:
            os.killpg(load.pid, signal.SIGINT)
            load.wait()
        time.sleep(0.2)
    out = {"attach_s": summary(att), "first_frame_s": summary(first)}
    say("exec to attached: median %.3f s (min %.3f, max %.3f)" % (
        out["attach_s"]["median"], out["attach_s"]["min"],
        out["attach_s"]["max"]))
    say("exec to first frame of top: median %.3f s (min %.3f, max %.3f)" %
        (out["first_frame_s"]["median"], out["first_frame_s"]["min"],
         out["first_frame_s"]["max"]))
    for key, vals, what in (
            ("top_first_data_s", top_row,
             "first data, top -b -i 0.2 (frame with the genl row)"),
            ("hist_first_data_s", hist_row,
             "first data, hist (table with the genl row)")):
        if vals:
            out[key] = summary(vals)
            say("%s: median %.3f s (min %.3f, max %.3f), %d of %d runs; "
                "target <= 0.5 s: %s" % (
                    what, out[key]["median"], out[key]["min"],
                    out[key]["max"], len(vals), args.rounds,
                    "met" if out[key]["median"] <= 0.5 else "missed"))
        else:
            say("%s: no run showed the lock" % what)
    if top_loaded:
        out["top_first_frame_loaded_s"] = summary(top_loaded)
        say("  top -b -i 0.2 under load: first frame median %.3f s (max "
            "%.3f)%s" % (out["top_first_frame_loaded_s"]["median"],
                         out["top_first_frame_loaded_s"]["max"],
                         "; frames without the row before it: %s" %
                         ",".join(str(b) for b in top_before)
                         if top_before else ""))
    if hist_d:
        out["hist_shortest_d"] = summary(hist_d)
        say("  hist's shortest -d with the row: median %g s (max %g): "
            "counting from the first read after attach" % (
                out["hist_shortest_d"]["median"],
                out["hist_shortest_d"]["max"]))
    res["startup"] = out


def phase_compare(args, res, tmp):
    # new records are kept beside the results: the figures' evidence
    pool = args.compare_pool or os.path.join(
        args.out, "compare-pool-" + time.strftime("%Y%m%d-%H%M%S"))
    say("== compare: A/A and A/B exit statuses on real records")
    if args.compare_runs:
        compare_rates.record_pool(pool, args.compare_runs, say)
    res["compare"] = compare_rates.rates(pool, args.compare_draws, 1, say)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # BENCH_QUICK=1: the curve phases, short and once each (a check of the
    # bench itself, not figures to quote); explicit options still win
    quick = os.environ.get("BENCH_QUICK") == "1"
    ap.add_argument("--phases", default="cost,budget,agent,startup" if quick
                    else "overhead,cost,budget,agent,startup,compare")
    ap.add_argument("--rounds", type=int,
                    default=int(os.environ.get("BENCH_ROUNDS",
                                               2 if quick else 5)))
    ap.add_argument("--secs", type=int,
                    default=int(os.environ.get("BENCH_SECS",
                                               2 if quick else 5)))
    ap.add_argument("--workloads", default="netlink,mmap,pipe")
    ap.add_argument("--configs", default=",".join(CONFIG_NOTES))
    ap.add_argument("--cost-rounds", type=int, default=1 if quick else 3,
                    help="cost rounds at each workload's usual threads")
    ap.add_argument("--curve-rounds", type=int, default=1 if quick else 2,
                    help="cost rounds at the curve's other thread counts")
    ap.add_argument("--max-foreign", type=float, default=0.15,
                    help="leave out rounds where others used more CPUs")
    ap.add_argument("--locks", default="1000,10000,100000")
    ap.add_argument("--agent-secs", type=int, default=5 if quick else 20)
    ap.add_argument("--fill-timeout", type=int, default=120)
    ap.add_argument("--compare-pool",
                    help="records for the compare phase (default: new ones)")
    ap.add_argument("--compare-runs", type=int, default=10,
                    help="runs of each workload to record (0: pool only)")
    ap.add_argument("--compare-draws", type=int, default=100)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    args = ap.parse_args()
    args.workloads = args.workloads.split(",")
    args.configs = args.configs.split(",")
    args.locks = [int(x) for x in args.locks.split(",")]
    for w in args.workloads:
        if w not in WORKLOADS:
            sys.exit("bench: failed to parse --workloads '%s'" % w)
    if os.geteuid() != 0:
        sys.exit("bench: failed to start: needs root (BPF, perf, bpftool)")
    if not os.path.exists("/sys/kernel/tracing/events/lock"):
        subprocess.run(["mount", "-t", "tracefs", "nodev",
                        "/sys/kernel/tracing"], stderr=subprocess.DEVNULL)
    args.hold_why = hold_unavailable()
    if args.hold_why and "lockscope --hold" in args.configs:
        args.configs.remove("lockscope --hold")
    res = {"started": time.strftime("%Y-%m-%d %H:%M:%S"),
           "kernel": os.uname().release, "cpus": NCPU,
           "lockscope": LS,
           "git": subprocess.run(["git", "-C", ROOT, "describe", "--always",
                                  "--dirty"], stdout=subprocess.PIPE,
                                 text=True).stdout.strip(),
           "argv": sys.argv, "hold_skipped": args.hold_why,
           "quick": quick}
    say("lockscope bench %s, kernel %s, %d CPUs, git %s%s" % (
        res["started"], res["kernel"], NCPU, res["git"],
        " (BENCH_QUICK: short runs, not figures to quote)" if quick else ""))
    if args.hold_why:
        say("lockscope --hold: skipped (overhead and cost): %s" %
            args.hold_why)
    with tempfile.TemporaryDirectory(prefix="lsbench.") as tmp:
        for ph in args.phases.split(","):
            t = time.monotonic()
            {"overhead": phase_overhead, "cost": phase_cost,
             "budget": lambda a, r, t: budget_phase.phase(
                 a, r, LS, WORKLOADS, say, note),
             "agent": phase_agent, "startup": phase_startup,
             "compare": phase_compare}[ph](args, res, tmp)
            note("%s took %.0f s" % (ph, time.monotonic() - t))
            say()
    os.makedirs(args.out, exist_ok=True)
    stem = os.path.join(args.out, "bench-" + time.strftime("%Y%m%d-%H%M%S") +
                        ("-quick" if quick else ""))
    with open(stem + ".json", "w") as f:
        json.dump(res, f, indent=1)
    with open(stem + ".txt", "w") as f:
        f.write("\n".join(log_lines) + "\n")
    svg = curves.write_svg(res, stem + ".svg",
                           " (BENCH_QUICK sample)" if quick else "")
    print("results: %s.txt, %s.json%s" % (stem, stem,
                                          ", %s.svg" % stem if svg else ""))


if __name__ == "__main__":
    main()
