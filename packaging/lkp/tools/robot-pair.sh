#!/usr/bin/env bash
# robot-pair.sh - a base/new pair of lkp jobs through the monitor program:
# RUNS runs of stress-ng --netlink-task BASE_TASKS, then RUNS with
# NEW_TASKS, each under packaging/lkp/programs/lockscope run by the
# stand-in in tests/lkp; keeps each run's parse output in OUT/base-N and
# OUT/new-N and prints robot-rows.py's table of them.  Root.
# Usage: robot-pair.sh OUT [RUNS] [BASE_TASKS] [NEW_TASKS] [SECONDS]
set -u
out=${1:?usage: robot-pair.sh OUT [RUNS] [BASE_TASKS] [NEW_TASKS] [SECONDS]}
runs=${2:-3}
base_tasks=${3:-2}
new_tasks=${4:-4}
secs=${5:-5}
root=$(cd "$(dirname "$0")/../../.." && pwd)
prog=$root/packaging/lkp/programs/lockscope
PATH=$root:$PATH
mkdir -p "$out"

# one job: monitor, benchmark, post-run, parse into $out/$1
job() {
	local j rm_pid
	j=$(mktemp -d)
	mkdir -p "$j/tmp" "$j/result" "$j/src/programs"
	cp -r "$root/tests/lkp/bin" "$root/tests/lkp/lib" "$j/src/"
	ln -s "$prog" "$j/src/programs/lockscope"
	export LKP_SRC=$j/src TMP=$j/tmp RESULT_ROOT=$j/result TMP_RESULT_ROOT=$j/result
	"$LKP_SRC/bin/run-monitor" lockscope &
	rm_pid=$!
	"$LKP_SRC/bin/event/wakeup" activate-monitor
	for _ in $(seq 300); do
		grep -qs 'recording lock contention' "$TMP"/lockscope.*/err && break
		kill -0 "$rm_pid" 2>/dev/null || break
		sleep 0.1
	done
	stress-ng --netlink-task "$2" -t "${secs}s" >/dev/null 2>&1
	"$LKP_SRC/bin/post-run"
	wait "$rm_pid"
	"$prog/parse" <"$RESULT_ROOT/lockscope" >"$out/$1"
	rm -rf "$j"
}

# alternate base and new, so a drift of the machine hits both sides
for i in $(seq "$runs"); do
	job "base-$i" "$base_tasks"
	job "new-$i" "$new_tasks"
done
python3 "$(dirname "$0")/robot-rows.py" "$out"/base-* -- "$out"/new-*
