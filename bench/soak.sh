#!/usr/bin/env bash
# bench/soak.sh - lockscope serve as the shipped unit runs it
# (packaging/lockscope.service.in's ExecStart, on a free port), or with
# SOAK_AGENT=top, top -b (1 s refresh), for SOAK_MINUTES (default 10) under
# a rotating contention load (netlink-task, mmap and pipe hammers and
# lock_spread's new pipes, 20 s each: new processes, new locks), printing
# once a minute the agent's RSS and CPU and how full its maps are (counted
# from outside by bench/mapfill.py), then whether RSS and map fill stayed
# flat: the second half's maxima within 10% (RSS) and 20% (lock table) of
# the first half's.  Not part of the test suite (tests/integration/
# test_serve_memory.sh is its short form).  Needs root.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
LS=${LS:-$root/lockscope}
W=$root/build
minutes=${SOAK_MINUTES:-10}
step=${SOAK_STEP:-60}
out=${SOAK_OUT:-$(mktemp -d /tmp/lssoak.XXXXXX)}
mkdir -p "$out"

if [ "$(id -u)" != 0 ]; then
	echo "soak: failed to start: needs root" >&2
	exit 1
fi

agent=${SOAK_AGENT:-serve}
if [ "$agent" = serve ]; then
	read -r -a args < <(sed -n 's/^ExecStart=@SBINDIR@\/lockscope serve //p' \
		"$root/packaging/lockscope.service.in")
	for i in "${!args[@]}"; do
		[ "${args[$i]}" = --listen ] && args[i + 1]=127.0.0.1:0
	done
	"$LS" serve "${args[@]}" >"$out/top.log" 2>"$out/top.err" &
	ready='serving http'
	echo "soak: serve ${args[*]}"
else
	"$LS" top -b -i 1 >"$out/top.log" 2>"$out/top.err" &
	ready='^LOCK '
fi
top=$!
load=""
cleanup() {
	[ -n "$load" ] && kill "$load" 2>/dev/null
	kill -INT "$top" 2>/dev/null
	wait 2>/dev/null
}
trap cleanup EXIT INT TERM

for _ in $(seq 100); do
	grep -q "$ready" "$out/top.log" "$out/top.err" 2>/dev/null && break
	sleep 0.1
done
if ! kill -0 "$top" 2>/dev/null; then
	echo "soak: failed to start lockscope: $(cat "$out/top.err")" >&2
	exit 1
fi

# the load: one workload at a time, 20 s each, round and round
(
	trap 'kill $(jobs -p) 2>/dev/null; exit 0' TERM
	while :; do
		stress-ng --netlink-task 2 -t 20s >/dev/null 2>&1 &
		wait $!
		"$W/mmap_hammer" 4 20 >/dev/null 2>&1 &
		wait $!
		"$W/pipe_hammer" 2 20 >/dev/null 2>&1 &
		wait $!
		"$W/lock_spread" 3000 20 4 >/dev/null 2>&1 &
		wait $!
	done
) &
load=$!

ticks() { awk '{print $14 + $15}' "/proc/$top/stat"; }
hz=$(getconf CLK_TCK)
echo "soak: $minutes x ${step}s, lockscope pid $top, output in $out"
printf '%4s %9s %6s %17s %17s %15s %15s  %s\n' min rss_kB cpu% lock_stats \
	lock_callers task_state stacks "losses in the last frame"
rss=() fill=()
c0=$(ticks)
t0=$SECONDS
for m in $(seq "$minutes"); do
	sleep "$step"
	if ! kill -0 "$top" 2>/dev/null; then
		echo "soak: lockscope died: $(tail -3 "$out/top.err")"
		exit 1
	fi
	c1=$(ticks)
	t1=$SECONDS
	cpu=$(python3 -c "import sys; print('%.2f' % (100.0 * ($c1 - $c0) / $hz / max($t1 - $t0, 1)))")
	c0=$c1 t0=$t1
	r=$(awk '/^VmRSS:/ {print $2}' "/proc/$top/status")
	f=$(python3 "$root/bench/mapfill.py" "$top" lock_stats lock_callers task_state stacks)
	col() { python3 -c "import json,sys; d=json.loads(sys.argv[1]).get(sys.argv[2], {}); print('%d/%d' % (d.get('entries', 0), d.get('max', 0)))" "$f" "$1"; }
	ls_fill=$(col lock_stats)
	if [ "$agent" = serve ]; then
		url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$out/top.err" | head -1)
		loss=$(curl -s --max-time 5 "$url/metrics" | awk -F'[{}" ]+' '
			/^lockscope_losses_total\{/ && $NF > 0 { printf "%s %s, ", $3, $NF }')
		loss="losses: ${loss%, }"
	else
		loss=$(grep -o 'losses: .*' "$out/top.log" | tail -1)
	fi
	printf '%4d %9d %6s %17s %17s %15s %15s  %s\n' "$m" "$r" "$cpu" \
		"$ls_fill" "$(col lock_callers)" "$(col task_state)" \
		"$(col stacks)" "${loss#losses: }"
	rss+=("$r")
	fill+=("${ls_fill%/*}")
done
# flat: no growth from the first half of the run to the second
python3 - "${rss[*]}" "${fill[*]}" <<'EOF'
import sys
rss = [int(x) for x in sys.argv[1].split()]
fill = [int(x) for x in sys.argv[2].split()]
def flat(v, tol, slack):
    h = max(len(v) // 2, 1)
    return max(v[h:] or v) <= max(v[:h]) * (1 + tol) + slack
ok_r, ok_f = flat(rss, 0.10, 256), flat(fill, 0.20, 64)
print("rss %d..%d kB: %s; lock_stats %d..%d entries: %s" % (
    min(rss), max(rss), "flat" if ok_r else "GROWING",
    min(fill), max(fill), "flat" if ok_f else "GROWING"))
sys.exit(0 if ok_r and ok_f else 1)
EOF
