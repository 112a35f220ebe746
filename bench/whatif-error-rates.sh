#!/usr/bin/env bash
# [WIF_ROUNDS=R] bench/whatif-error-rates.sh [N] - the error rates of lockscope whatif's
# verdict on this machine, N trials each (default 10):
#   A/A: --placebo on whatif_hammer's file.f_pos_lock (the schedule runs, nothing
#        is injected): "not on it" or "cannot tell" is right;
#   power: the same lock with real delays (it bounds group A's throughput
#        by construction): "on the critical path" is right.
# Prints each trial's verdict and both rates with 95% Wilson intervals, and
# how often the held-out check found each arm's response a line.
# Run as root from the repository after make; results in bench/results/.
set -u
N=${1:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
LS=$root/lockscope
H=$root/build/whatif_hammer
out=$root/bench/results/whatif-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
# whatif's defaults: delays sized by the pre-run, 3 rounds (WIF_ROUNDS=N:
# N rounds)
args=(--yes-perturb --json -L f_pos_lock --metric ops
	${WIF_ROUNDS:+--rounds "$WIF_ROUNDS"})
for arm in aa power; do
	for i in $(seq "$N"); do
		extra=()
		[ $arm = aa ] && extra=(--placebo)
		"$LS" whatif "${args[@]}" "${extra[@]}" -- "$H" 1 2 2 \
			>"$out/$arm-$i.json" 2>"$out/$arm-$i.err"
		python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["locks"][0]["verdict"])' \
			"$out/$arm-$i.json" 2>/dev/null | tee -a "$out/$arm.verdicts" |
			sed "s/^/$arm $i: /"
		python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["locks"][0]["fit"]["check"])' \
			"$out/$arm-$i.json" 2>/dev/null >>"$out/$arm.fits"
	done
done
python3 - "$out" <<'PY'
import math, sys
def wilson(k, n, z=1.96):
    if n == 0:
        return (float('nan'),) * 3
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0, c - h), min(1, c + h)
d = sys.argv[1]
for arm, good, what in (("aa", ("not on it", "cannot tell"), "A/A quiet"),
                        ("power", ("on the critical path",), "known answer found")):
    try:
        v = [l.strip() for l in open(f"{d}/{arm}.verdicts") if l.strip()]
    except OSError:
        v = []
    k = sum(x in good for x in v)
    p, lo, hi = wilson(k, len(v))
    print(f"{what}: {k}/{len(v)} = {100*p:.0f}% [95% CI {100*lo:.0f}%, {100*hi:.0f}%]")
    try:
        v = [l.strip() for l in open(f"{d}/{arm}.fits") if l.strip()]
    except OSError:
        v = []
    k = sum(x == "linear" for x in v)
    p, lo, hi = wilson(k, len(v))
    print(f"  {arm} held-out level on the line: {k}/{len(v)} = {100*p:.0f}% [95% CI {100*lo:.0f}%, {100*hi:.0f}%]")
PY
