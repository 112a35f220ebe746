#!/usr/bin/env bash
# tests/run.sh - the whole suite: unit tests (cmocka, no root), then the
# integration tests under tests/integration on this kernel.  Prints one
# closing line "N passed, N failed, N skipped"; exits 1 if anything failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export LS_ROOT=$root LS=$root/lockscope
export LS_RESULTS=$(mktemp)
trap 'rm -f "$LS_RESULTS"' EXIT

only=${1:-}

tests/run-unit.sh build/tests/test_* 
for t in tests/integration/*.sh; do
	[ -n "$only" ] && [[ "$t" != *"$only"* ]] && continue
	echo "== $t"
	bash "$t"
done

p=$(grep -c '^pass$' "$LS_RESULTS")
f=$(grep -c '^fail$' "$LS_RESULTS")
s=$(grep -c '^skip$' "$LS_RESULTS")
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
