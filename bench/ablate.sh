#!/usr/bin/env bash
# bench/ablate.sh [ROUNDS [WORKLOAD]] [PATCH...] - what each part of the
# exact path costs: for each patch (default bench/ablations/*.patch, each
# a change of bpf/ that leaves one part out or tries one idea), build
# lockscope with it in a scratch worktree of HEAD and run bench/ab_cost.py
# against this build (ROUNDS rounds, default 12; WORKLOAD netlink or pipe,
# default netlink): both attached together, through all attach orders.
# Prints each patch's B/A medians (all programs, begin, end) per round.
# Run as root from the repository after make; the worktree is removed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-12}
work=${2:-netlink}
shift $(($# < 2 ? $# : 2))
patches=("$@")
[ ${#patches[@]} -gt 0 ] || patches=("$root"/bench/ablations/*.patch)
tmp=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tmp/wt" 2>/dev/null; rm -rf "$tmp"' EXIT
git -C "$root" worktree add -q --detach "$tmp/wt" HEAD || exit 1
cp -a "$root/build" "$tmp/wt/" 2>/dev/null
for p in "${patches[@]}"; do
	name=$(basename "$p" .patch)
	git -C "$tmp/wt" checkout -q -- bpf
	if ! git -C "$tmp/wt" apply "$(realpath "$p")" ||
		! make -C "$tmp/wt" -s lockscope >"$tmp/build.log" 2>&1; then
		echo "$name: failed to build: $(tail -2 "$tmp/build.log" 2>/dev/null)"
		continue
	fi
	cp "$tmp/wt/lockscope" "$tmp/ls-$name"
	echo "== $name ($work, $rounds rounds)"
	python3 "$root/bench/ab_cost.py" "$root/lockscope" "$tmp/ls-$name" \
		"$rounds" "$work" 3 | grep -E '^(B/A|load)'
done
