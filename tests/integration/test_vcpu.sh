#!/usr/bin/env bash
# Holders whose vCPU the hypervisor preempted, and steal time, on this host
# (a KVM guest with steal_time in BTF): doctor's line says the flag is
# read; hist under pipe_hammer shows the vcpu-preempted state (its share
# may be 0 here) and the waits by state add up to the lock's waits; the
# steal line matches /proc/stat over the same run within a tick per CPU;
# record carries steal per interval.  Workload: build/pipe_hammer.
. "$(dirname "$0")/../lib.sh"
W=$LS_ROOT/build
out=$LS_OUT/vcpu
mkdir -p "$out"
rm -f "$out"/*

need_tracepoints "vcpu" || exit 0
[ -x "$W/pipe_hammer" ] || { fail "vcpu: $W/pipe_hammer not built (make tests-build)"; exit 0; }

# steal ticks per CPU from /proc/stat, one line: "cpu0 cpu1 ..."
steal_now() { awk '/^cpu[0-9]/ { printf "%s ", $9 } END { print "" }' /proc/stat; }

"$LS" doctor >"$out/doctor.txt" 2>&1
line=$(grep 'vcpu-preempted holder' "$out/doctor.txt")
if [ -z "$line" ]; then
	fail "doctor: no vcpu-preempted holder line"
	exit 0
elif ! echo "$line" | grep -q ' read: '; then
	pass "doctor: one line says why the flag is not read: ${line#*holder }"
	skip "vcpu-preempted: the flag is not read here: ${line#*holder }"
	exit 0
else
	pass "doctor: vcpu-preempted holder flag read (steal_time.preempted via per-CPU bases)"
fi
# osq_node is in this kernel's .data..percpu BTF: an osq_lock bail-out's
# previous vCPU would be read where osq_lock can be probed (not here)
line=$(grep 'osq bail-out previous vCPU' "$out/doctor.txt" | sed 's/  */ /g')
if [[ "$line" == *"previous vCPU read: a bail-out's previous node (this CPU's osq_node->prev)"* ]]; then
	pass "doctor: osq bail-outs' previous vCPU readable:${line#*vCPU}"
else
	fail "doctor: osq bail-out line: '$line'"
fi

# --- hist: the vcpu-preempted state, and waits by state add up ----------------
"$LS" hist --json -F 0 -T mutex -- "$W/pipe_hammer" 2 2 >"$out/hist.json" 2>"$out/hist.err"
res=$(python3 - "$out/hist.json" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["locks"] if r["kind"] == "mutex" and r["contentions"] > 0]
if not rows:
    sys.exit("no contended mutex")
r = max(rows, key=lambda r: r["contentions"])
h = r["holder"]
if not h["vcpu_flag_read"]:
    sys.exit("vcpu_flag_read false on " + r["name"])
w = h["waits"]
if "vcpu-preempted" not in w:
    sys.exit("no vcpu-preempted state")
if sum(w.values()) != r["contentions"]:
    sys.exit("waits by state %d != contentions %d" % (sum(w.values()), r["contentions"]))
if sum(h["wait_ns"].values()) != r["total_ns"]:
    sys.exit("wait_ns by state %d != total_ns %d" % (sum(h["wait_ns"].values()), r["total_ns"]))
print("%s: %d waits, running %d, vcpu-preempted %d (unread: %d)" % (
    r["name"], r["contentions"], w["running"], w["vcpu-preempted"],
    d["counters"].get("holder vCPU flag unread", -1)))
PY
)
if [ $? -eq 0 ]; then
	pass "hist: vcpu-preempted counted and waits by state add up: $res"
else
	fail "hist: $res $(tail -2 "$out/hist.err")"
fi

# text: the state is shown, 0% or not
s0=$(steal_now)
"$LS" hist -F 0 -T mutex -- "$W/pipe_hammer" 2 2 >"$out/hist.txt" 2>"$out/hist2.err"
s1=$(steal_now)
if grep -q 'holder at wait start: .*vcpu-preempted [0-9.]*%' "$out/hist.txt"; then
	pass "hist text: $(grep -m1 -o 'holder at wait start: .*' "$out/hist.txt")"
else
	fail "hist text: no vcpu-preempted share: $(grep -m1 'holder at wait start' "$out/hist.txt")"
fi

# --- the steal line against /proc/stat around the same run ------------------
# lockscope's interval lies inside the outer one: each CPU's steal is at
# most the outer delta (plus one tick of rounding), never more.
hz=$(getconf CLK_TCK)
sl=$(grep -m1 '^steal (CPU time the hypervisor took): ' "$out/hist.txt")
res=$(python3 - "$hz" "$s0" "$s1" "$sl" <<'PY' 2>&1
import re, sys
hz = int(sys.argv[1])
a = [int(x) for x in sys.argv[2].split()]
b = [int(x) for x in sys.argv[3].split()]
cpus = dict((int(c), float(s)) for c, s in re.findall(r"cpu(\d+) ([0-9.]+)s", sys.argv[4]))
if len(cpus) != len(a):
    sys.exit("steal line has %d CPUs, /proc/stat %d: %s" % (len(cpus), len(a), sys.argv[4]))
for i in range(len(a)):
    outer = (b[i] - a[i]) / hz
    if cpus[i] > outer + 1.0 / hz + 0.005:
        sys.exit("cpu%d: %.2fs > /proc/stat's %.2fs over the run" % (i, cpus[i], outer))
print(" ".join("cpu%d %.2fs<=%.2fs" % (i, cpus[i], (b[i] - a[i]) / hz) for i in range(len(a))))
PY
)
if [ $? -eq 0 ]; then
	pass "steal line within /proc/stat's steal over the run: $res"
else
	fail "steal line: $res"
fi

# --- record: steal per interval ---------------------------------------------
"$LS" record -o "$out/rec.json" -i 1 -- "$W/pipe_hammer" 2 3 >/dev/null 2>"$out/rec.err"
res=$(python3 - "$out/rec.json" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
iv = d["intervals"]
if len(iv) < 2:
    sys.exit("%d intervals" % len(iv))
for i in iv:
    s = i.get("steal")
    if not s or len(s["per_cpu_s"]) < 1 or abs(sum(s["per_cpu_s"]) - s["seconds"]) > 0.02:
        sys.exit("interval %s: steal %r" % (i.get("index"), s))
print("%d intervals, steal %s s" % (len(iv), " ".join("%.2f" % i["steal"]["seconds"] for i in iv)))
PY
)
if [ $? -eq 0 ]; then
	pass "record: steal per interval: $res"
else
	fail "record: $res $(tail -2 "$out/rec.err")"
fi
