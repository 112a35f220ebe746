#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""bench/bench.py - lockscope's cost, measured side by side.

Phases (all by default; pick with --phases):
  overhead  contention workloads with no observer, lockscope (all sources,
            tracepoints only, sampler only) and reference observers
            (bpftrace doing the same aggregation, perf lock record),
            interleaved over rounds with the order rotated each round;
            throughput of each as a ratio to no observer in the same round.
  cost      mean ns per BPF program run (BPF run-time stats, lockscope
            --cost), with --hold too where its probes work, and
            bpftrace's programs under the same stats.
  agent     the agent's CPU and RSS at a 1 s refresh with about 1k and
            10k distinct contended locks in its lock table.
  startup   time from exec to attached, and to the first frame of top.
  compare   compare's false-alarm rate (A/A) and power (A/B) on a pool of
            real records, beside the old rule's (bench/compare_rates.py;
            --compare-runs runs of each workload, about 15 s per run
            triple, or an existing --compare-pool).

Results go to bench/results/bench-<time>.txt (the table printed) and
.json (every raw figure).  Run as root on an otherwise quiet machine;
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
    "netlink": (lambda s: ["stress-ng", "--netlink-task", "2", "-t",
                           "%ds" % s, "--metrics-brief"], parse_stress_ng,
                "stress-ng --netlink-task 2 (genl mutex), bogo ops/s"),
    "mmap": (lambda s: [os.path.join(BUILD, "mmap_hammer"), "4", str(s)],
             parse_ops, "mmap_hammer 4 (mmap_lock rwsem writers), ops/s"),
    "pipe": (lambda s: [os.path.join(BUILD, "pipe_hammer"), "2", str(s)],
             parse_ops, "pipe_hammer 2 (pipe mutex), ops/s"),
}


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


def phase_cost(args, res, tmp):
    say("== cost: ns per BPF program run (BPF run-time stats), "
        "%d rounds per workload" % args.cost_rounds)
    out = {}
    # --hold: the same runs with hold probes, their programs' keys prefixed
    variants = [("", [])] + ([] if args.hold_why else [("--hold ",
                                                         ["--hold"])])
    for w in args.workloads:
        argv = WORKLOADS[w][0](args.secs)
        per = {}
        for _, (pre, opt) in ((r, v) for r in range(args.cost_rounds)
                              for v in variants):
            p = subprocess.run([LS, "hist", "--cost", "--json"] + opt +
                               ["--"] + argv,
                               stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True,
                               timeout=args.secs + 60)
            d = json_tail(p.stdout)
            cnt = sum(c["run_cnt"] for c in d["cost"])
            ns = sum(c["run_time_ns"] for c in d["cost"])
            for c in d["cost"]:
                if c["run_cnt"]:
                    per.setdefault(pre + c["program"], []).append(
                        (c["run_time_ns"] / c["run_cnt"], c["run_cnt"]))
            per.setdefault(pre + "all programs", []).append(
                (ns / cnt if cnt else 0, cnt))
        out[w] = {k: {"ns_per_run": summary([a for a, _ in v]),
                      "runs": summary([b for _, b in v])}
                  for k, v in per.items()}
        for k, v in out[w].items():
            s = v["ns_per_run"]
            say("%-8s %-28s %7.0f ns/run (min %.0f, max %.0f), "
                "%.0f runs/round" % (w, k, s["median"], s["min"], s["max"],
                                     v["runs"]["median"]))
    # bpftrace's own programs under the same stats, same workload
    ref = []
    if "netlink" in args.workloads:
        bt = os.path.join(tmp, "bench.bt")
        with open(bt, "w") as f:
            f.write(BPFTRACE_PROG)
        for _ in range(args.cost_rounds):
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
            if cnt:
                ref.append(ns / cnt)
        if ref:
            s = summary(ref)
            say("%-8s %-22s %7.0f ns/run (min %.0f, max %.0f)" % (
                "netlink", "bpftrace (reference)", s["median"], s["min"],
                s["max"]))
            out["bpftrace_netlink_ns_per_run"] = s
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


def phase_agent(args, res, tmp):
    say("== agent: lockscope top -b -i 1 (all sources) with many distinct "
        "contended locks; CPU over %d s" % args.agent_secs)
    out = {}
    for target in args.locks:
        pipes = target + target // 5
        spread = subprocess.Popen([os.path.join(BUILD, "lock_spread"),
                                   str(pipes), "100000"],
                                  stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL,
                                  start_new_session=True)
        top = Observer("lockscope", [LS, "top", "-b", "-i", "1"],
                       r"lockscope top -", tmp)
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
            c0, w0 = proc_cpu_ticks(pid), time.monotonic()
            time.sleep(args.agent_secs)
            c1, w1 = proc_cpu_ticks(pid), time.monotonic()
            rss, hwm = proc_status(pid, "VmRSS"), proc_status(pid, "VmHWM")
            fill = map_fill(pid)
            losses = ""
            with open(top.out, errors="replace") as f:
                for line in f:
                    if "losses:" in line:
                        losses = line.split("losses:", 1)[1].strip()
        finally:
            top.stop()
            spread.send_signal(signal.SIGTERM)
            spread.wait()
        cpu = 100.0 * (c1 - c0) / TICK / (w1 - w0)
        e = {"pipes": pipes, "cpu_percent": cpu, "rss_kb": rss,
             "hwm_kb": hwm, "fill": fill, "fill_seconds": fill_s,
             "last_frame_losses": losses}
        out[str(target)] = e
        say("%6d locks wanted: %d in lock_stats (of %d), %d callers; "
            "agent CPU %.2f%%, RSS %d kB (peak %d kB); last frame losses: %s"
            % (target, fill.get("lock_stats", {}).get("entries", 0),
               fill.get("lock_stats", {}).get("max", 0),
               fill.get("lock_callers", {}).get("entries", 0), cpu, rss, hwm,
               losses))
    res["agent"] = out


def phase_startup(args, res, tmp):
    say("== startup: exec to attached (hist's 'tracing' line) and to the "
        "first frame of top -b (default interval), %d runs" % args.rounds)
    att, first = [], []
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
        t0 = time.monotonic()
        p = subprocess.Popen([LS, "top", "-b"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
        line = p.stdout.readline()
        t1 = time.monotonic()
        p.send_signal(signal.SIGINT)
        p.communicate()
        if not line.startswith("lockscope top"):
            raise RuntimeError("top printed no frame: %s" % line)
        first.append(t1 - t0)
        time.sleep(0.2)
    a, f = summary(att), summary(first)
    say("exec to attached: median %.3f s (min %.3f, max %.3f)" % (
        a["median"], a["min"], a["max"]))
    say("exec to first frame of top: median %.3f s (min %.3f, max %.3f)" % (
        f["median"], f["min"], f["max"]))
    res["startup"] = {"attach_s": a, "first_frame_s": f}


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
    ap.add_argument("--phases", default="overhead,cost,agent,startup,compare")
    ap.add_argument("--rounds", type=int,
                    default=int(os.environ.get("BENCH_ROUNDS", 5)))
    ap.add_argument("--secs", type=int,
                    default=int(os.environ.get("BENCH_SECS", 5)))
    ap.add_argument("--workloads", default="netlink,mmap,pipe")
    ap.add_argument("--configs", default=",".join(CONFIG_NOTES))
    ap.add_argument("--cost-rounds", type=int, default=3)
    ap.add_argument("--max-foreign", type=float, default=0.15,
                    help="leave out rounds where others used more CPUs")
    ap.add_argument("--locks", default="1000,10000")
    ap.add_argument("--agent-secs", type=int, default=30)
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
           "argv": sys.argv, "hold_skipped": args.hold_why}
    say("lockscope bench %s, kernel %s, %d CPUs, git %s" % (
        res["started"], res["kernel"], NCPU, res["git"]))
    if args.hold_why:
        say("lockscope --hold: skipped (overhead and cost): %s" %
            args.hold_why)
    with tempfile.TemporaryDirectory(prefix="lsbench.") as tmp:
        for ph in args.phases.split(","):
            t = time.monotonic()
            {"overhead": phase_overhead, "cost": phase_cost,
             "agent": phase_agent, "startup": phase_startup,
             "compare": phase_compare}[ph](args, res, tmp)
            note("%s took %.0f s" % (ph, time.monotonic() - t))
            say()
    os.makedirs(args.out, exist_ok=True)
    stem = os.path.join(args.out, "bench-" + time.strftime("%Y%m%d-%H%M%S"))
    with open(stem + ".json", "w") as f:
        json.dump(res, f, indent=1)
    with open(stem + ".txt", "w") as f:
        f.write("\n".join(log_lines) + "\n")
    print("results: %s.txt, %s.json" % (stem, stem))


if __name__ == "__main__":
    main()
