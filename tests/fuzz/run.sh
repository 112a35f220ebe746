#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS [FUZZER] - run the record reader's fuzzer for
# SECONDS, starting from the record files in tests/data.  New inputs go to
# a temporary corpus; crashes are kept in tests/out/fuzz/.  Exit 0 if no
# input crashed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-10}
bin=${2:-$root/build/fuzz_record_read}
out=$root/tests/out/fuzz
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
mkdir -p "$out"
cp "$root"/tests/data/*.json "$corpus"/
"$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=1024 \
	-artifact_prefix="$out/" -print_final_stats=1 "$corpus" 2>"$out/log"
rc=$?
tail -n 12 "$out/log"
exit $rc
