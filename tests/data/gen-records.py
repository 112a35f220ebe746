#!/usr/bin/env python3
"""Write the fixed record files that tests/unit/test_compare.c and
tests/integration/test_record.sh compare.  Their numbers are chosen so
means, standard deviations and changes are easy to check by hand (see the
tests).  Run from this directory: ./gen-records.py

./gen-records.py --locks N [--seed S] OUT writes instead one synthetic record
of N locks of N classes to OUT, each row as large as a real one
(histograms, callers, holder side, one sampled stack): what a record of a
machine with N contended locks holds, for the scale tests of record load,
compare and report."""
import json
import random
import sys

CTR = ["begins", "ends", "spin-to-sleep", "recorded", "samples",
       "kernel samples", "spin samples", "caller stacks", "osq_lock calls",
       "osq_lock bail-outs", "slow-path calls"]
LOSS = ["task map full", "lock map full", "nesting too deep",
        "end without begin", "stack failed", "caller map full",
        "sample map full", "begin without end", "probe nesting",
        "osq outer lock unknown", "skipped by kernel (nested)"]


def lock(name, kind, cont, total, sleep=0, mx=50000, failed=0, peak=2):
    return {"name": name, "kind": kind, "contentions": cont,
            "total_ns": total, "spin_ns": total - sleep, "sleep_ns": sleep,
            "min_ns": 100, "max_ns": mx,
            "avg_ns": total // cont if cont else 0,
            "spin_won": cont - failed, "spin_failed": failed, "gave_up": 0,
            "begins": cont, "waiters": 0, "peak_waiters": peak,
            "peak_waiters_interval": peak, "hist_log2_ns": [],
            "hist_spin_log2_ns": [], "hist_sleep_log2_ns": [],
            "osq_ns": 0, "osq_calls": 0, "osq_bailouts": 0,
            "osq_peak_spinners": 0, "slow_path_ns": 0, "slow_path_calls": 0,
            "slow_path_untraced_ns": 0, "caller_samples": 0, "callers": []}


def record(locks, osq, kernel):
    cont = sum(l["contentions"] for l in locks)
    return {
        "schema": "lockscope-record", "schema_version": 1,
        "lockscope_version": "lockscope 0.1",
        "run": {"started": "2026-01-01T00:00:00Z",
                "kernel_release": kernel, "kernel_version": "#1 SMP",
                "machine": "x86_64", "cpus": 2,
                "lockscope_cmdline": ["lockscope", "record", "-o", "x.json",
                                      "--", "stress-ng", "--netlink-task",
                                      "2", "-t", "3s"],
                "command": ["stress-ng", "--netlink-task", "2", "-t", "3s"],
                "exit_status": 0, "duration_s": 3.0, "interval_s": None,
                "interrupted": False, "sources": [],
                "options": {"pid": None, "sample_hz": 99, "stack_every": 64,
                            "tracepoints": True, "max_locks": 16384,
                            "max_tasks": 8192, "addresses": False,
                            "lock_filter": None, "kind_filter": []}},
        "totals": {
            "counters": dict({c: 0 for c in CTR}, begins=cont, ends=cont,
                             recorded=cont, samples=1000),
            "losses": {l: 0 for l in LOSS},
            "sampler": {"samples": 1000, "user": 500,
                        "kernel_other": 500 - osq, "cpus": 2,
                        "spin_functions": [
                            {"function": "osq_lock", "samples": osq,
                             "share_pct": osq / 10.0, "callers": []},
                            {"function": "mutex_spin_on_owner", "samples": 0,
                             "share_pct": 0.0, "callers": []}]},
            "cost": [], "locks": locks},
        "intervals": []}


def big_lock(i, rnd):
    """Lock @i of a synthetic record: every field a real row has."""
    hist = [0] * 8 + [rnd.randrange(1, 20000) for _ in range(8)] + [0] * 8
    cont = sum(hist)
    total = cont * rnd.randrange(500, 5000)
    calls = rnd.randrange(1, 400)
    # a class of its own (compare matches classes): the worst case
    name = "mutex@pipe_write_%d" % i
    l = lock(name, "mutex", cont, total)
    l.update({
        "class": name, "origin": "caller",
        "osq_bailouts_prev_read": 0, "osq_bailouts_prev_preempted": 0,
        "hist_log2_ns": hist, "hist_spin_log2_ns": hist,
        "caller_samples": calls, "caller_wait_ns": calls * 1200,
        "callers": [{"function": "anon_pipe_write", "samples": calls}],
        "holder": {
            "has_owner_word": True, "vcpu_flag_read": True,
            "waits": {"unknown": 0, "running": cont // 2, "preempted": 0,
                      "sleeping": 0, "free": cont - cont // 2,
                      "vcpu-preempted": 0},
            "wait_ns": {"unknown": 0, "running": total // 2, "preempted": 0,
                        "sleeping": 0, "free": total - total // 2,
                        "vcpu-preempted": 0},
            "preempted_pct": 0.0, "tenure_ns": total, "tenure_count": cont,
            "tenure_unsampled_ns": total // 2, "tenure_unseen_ns": 0,
            "hist_tenure_log2_ns": hist,
            "sampled": {
                "tenure_ns": 1000 * calls, "count": calls,
                "sites": [{"tenure_ns": 1000 * calls, "count": calls,
                           "function": "anon_pipe_read"}],
                "pairs": [{"tenure_ns": 1000 * calls, "count": calls,
                           "waiter": "anon_pipe_write",
                           "holder": "anon_pipe_read"}],
                "tids": [{"tenure_ns": 1000 * calls, "count": calls,
                          "tid": 1000 + i % 50000}]}}})
    return l


def big_record(n, seed):
    rnd = random.Random(seed)
    locks = [big_lock(i, rnd) for i in range(n)]
    rec = record(locks, 50, "6.18.0-synthetic")
    rec["totals"]["stacks"] = [
        {"lock": l["name"], "kind": "mutex",
         "frames": ["entry_SYSCALL_64_after_hwframe", "do_syscall_64",
                    "ksys_write", "vfs_write", "anon_pipe_write",
                    "__mutex_lock.constprop.0"],
         "samples": l["caller_samples"], "wait_ns": l["caller_wait_ns"]}
        for l in locks]
    return rec


if len(sys.argv) > 1:
    args = sys.argv[1:]
    if len(args) not in (3, 5) or args[0] != "--locks" or (
            len(args) == 5 and args[2] != "--seed"):
        sys.exit("usage: gen-records.py [--locks N [--seed S] OUT]")
    seed = int(args[3]) if len(args) == 5 else 1
    # json.dumps, not json.dump: dump streams through the pure-Python
    # encoder, three times the CPU of the C one for the same bytes
    with open(args[-1], "w") as f:
        f.write(json.dumps(big_record(int(args[1]), seed)))
        f.write("\n")
    sys.exit(0)

G = "mutex@genl_rcv_msg"
runs = {
    "record-base1.json": record([
        lock(G, "mutex", 100, 1000000),
        lock("rwsem@mmap_region", "rwsem:W", 10, 20000),
        lock("mutex@pipe_write", "mutex", 1000, 5000000)], 50, "6.1.0-base"),
    "record-base2.json": record([
        lock(G, "mutex", 120, 1400000),
        lock("mutex@pipe_write", "mutex", 1000, 5000000)], 70, "6.1.0-base"),
    # two rows of one name and kind (two locks): counted as one class
    "record-new1.json": record([
        lock(G, "mutex", 100, 1500000, sleep=150000, failed=2),
        lock(G, "mutex", 50, 500000, sleep=50000, failed=1),
        lock("siglock", "spinlock", 4, 4000),
        lock("mutex@pipe_write", "mutex", 900, 4500000)], 60, "6.1.0-new"),
    "record-new2.json": record([
        lock(G, "mutex", 130, 2200000, sleep=200000, failed=5),
        lock("siglock", "spinlock", 6, 6000),
        lock("mutex@pipe_write", "mutex", 900, 4500000)], 60, "6.1.0-new"),
    # third runs: the means stay (110 and 140, 1.2 and 2.1 ms, ...), three
    # runs a side are what compare needs before a change can count
    "record-base3.json": record([
        lock(G, "mutex", 110, 1200000),
        lock("mutex@pipe_write", "mutex", 1000, 5000000)], 60, "6.1.0-base"),
    "record-new3.json": record([
        lock(G, "mutex", 140, 2100000, sleep=200000, failed=3),
        lock("siglock", "spinlock", 5, 5000),
        lock("mutex@pipe_write", "mutex", 900, 4500000)], 60, "6.1.0-new"),
}
for name, rec in runs.items():
    with open(name, "w") as f:
        json.dump(rec, f, indent=1)
        f.write("\n")
v2 = dict(runs["record-base1.json"], schema_version=2)
with open("record-v2.json", "w") as f:
    json.dump(v2, f, indent=1)
    f.write("\n")
