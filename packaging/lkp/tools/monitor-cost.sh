#!/usr/bin/env bash
# monitor-cost.sh - what the lkp monitor's lockscope costs a benchmark:
# stress-ng --netlink-task throughput (bogo ops/s) without and with the
# monitor's command (record --by class --format lkp --source none, the
# cheap mode), interleaved in alternating order, ROUNDS rounds; prints
# every round's ratio and the median.  Root; a shared machine is noisy.
# Usage: monitor-cost.sh [LOCKSCOPE] [ROUNDS] [TASKS] [SECONDS]
set -u
ls_bin=${1:-lockscope}
rounds=${2:-7}
tasks=${3:-2}
secs=${4:-5}

# one benchmark run: its bogo ops/s (real time) from --metrics-brief
run() {
	stress-ng --netlink-task "$tasks" -t "${secs}s" --metrics-brief 2>&1 |
		awk '$4 == "netlink-task" { print $9 }'
}

# one run under the monitor's lockscope, started and attached before it
run_monitored() {
	local err pid ops
	err=$(mktemp)
	"$ls_bin" record --by class --format lkp -o /dev/null --source none 2>"$err" &
	pid=$!
	for _ in $(seq 200); do
		grep -q 'recording lock contention' "$err" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	ops=$(run)
	kill -TERM "$pid"
	wait "$pid"
	rm -f "$err"
	echo "$ops"
}

ratios=()
for r in $(seq "$rounds"); do
	if ((r % 2)); then
		base=$(run)
		mon=$(run_monitored)
	else
		mon=$(run_monitored)
		base=$(run)
	fi
	ratio=$(awk -v a="$mon" -v b="$base" 'BEGIN { printf "%.3f", a / b }')
	ratios+=("$ratio")
	echo "round $r: without $base, with $mon bogo ops/s: ratio $ratio"
done
printf '%s\n' "${ratios[@]}" | sort -n |
	awk '{ v[NR] = $1 } END { printf "median ratio %.3f (min %.3f, max %.3f) over %d rounds\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR], NR }'
