#!/usr/bin/env bash
# bench/budget_trials.sh [ROUNDS] - exact against --budget 1, interleaved in
# one session: ns per BPF run (lockscope --cost: the kernel's run-time
# statistics) on netlink-task and the pipe hammer, and the pipe hammer's
# throughput against no observer.  One line per trial, then medians.
# Run as root from the source tree after make (build/pipe_hammer).
set -u
cd "$(dirname "$0")/.." || exit 1
rounds=${1:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
trial() { # MODE WORKLOAD -> one line
	local m=$1 w=$2 cmd t0 t1
	if [ "$w" = pipe ]; then cmd=(build/pipe_hammer 2 3); else cmd=(stress-ng --netlink-task 2 -t 3s); fi
	t0=$(date +%s.%N)
	if [ "$m" = none ]; then
		"${cmd[@]}" >"$out/o" 2>&1
		echo '{}' >"$out/j"
	else
		./lockscope hist --budget "$m" --cost -F 0 --json -- "${cmd[@]}" >"$out/j" 2>"$out/o"
	fi
	t1=$(date +%s.%N)
	python3 - "$m" "$w" "$out/j" "$out/o" "$t0" "$t1" <<'PY'
import json, re, sys
m, w, jf, of, t0, t1 = sys.argv[1:]
d = json.load(open(jf)); o = open(of).read()
ops = re.search(r'ops: (\d+)', o)
runs = sum(p['run_cnt'] for p in d.get('cost', [])); ns = sum(p['run_time_ns'] for p in d.get('cost', []))
b = d.get('budget', {})
wall = (float(t1) - float(t0)) * 1e9 * 2
print("mode=%s work=%s ops=%s runs=%d ns_per_run=%.0f share_pct=%.3f N=%s..%s over=%s/%s cont=%d" % (
    m, w, ops.group(1) if ops else "-", runs, ns / runs if runs else 0, 100 * ns / wall,
    b.get('sample_every_min', '-'), b.get('sample_every_max', '-'), b.get('over_budget_windows', '-'),
    b.get('windows', '-'), sum(l['contentions'] for l in d.get('locks', []))))
PY
}
for r in $(seq "$rounds"); do
	for w in pipe netlink; do
		for m in none 0 1; do
			[ "$w" = netlink ] && [ "$m" = none ] && continue
			echo "round=$r $(trial "$m" "$w")"
		done
	done
done | tee "$out/all"
python3 - "$out/all" <<'PY'
import re, statistics, sys
rows = [dict(kv.split('=', 1) for kv in l.split()) for l in open(sys.argv[1])]
def med(w, m, k):
    v = [float(r[k]) for r in rows if r['work'] == w and r['mode'] == m and r[k] not in ('-', '0')]
    return statistics.median(v) if v else float('nan')
for w in ('pipe', 'netlink'):
    for m in ('0', '1'):
        print("median %s --budget %s: %.0f ns/run, share %.3f%%" % (w, m, med(w, m, 'ns_per_run'), med(w, m, 'share_pct')))
none = [float(r['ops']) for r in rows if r['work'] == 'pipe' and r['mode'] == 'none']
for m in ('0', '1'):
    ratios = [float(r['ops']) / float(n['ops']) for r, n in zip([r for r in rows if r['work'] == 'pipe' and r['mode'] == m],
                                                           [r for r in rows if r['work'] == 'pipe' and r['mode'] == 'none'])]
    print("pipe throughput --budget %s / none, per round: %s, median %.3f" % (m, ", ".join("%.3f" % x for x in ratios), statistics.median(ratios)))
PY
