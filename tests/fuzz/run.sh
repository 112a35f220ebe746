#!/usr/bin/env bash
# tests/fuzz/run.sh [SECONDS] [HARNESS...] - run each libFuzzer harness
# (default: every build/fuzz/fuzz_*) for SECONDS (default $LS_FUZZ_SECONDS,
# else 5) on a scratch copy of its seeds: tests/fuzz/corpus/<name>/ (name
# without fuzz_), plus tests/data/*.json for the record reader.  Findings
# land in tests/out/fuzz/<name>/ as crash-*/leak-*/timeout-* files.  Prints
# one line per harness, "fuzz <name>: ok ..." or "fuzz <name>: FAILED ..."
# with the sanitizer's summary; exits 1 if any failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
secs=${LS_FUZZ_SECONDS:-5}
if [[ ${1:-} =~ ^[0-9]+$ ]]; then
	secs=$1
	shift
fi
[ $# -eq 0 ] && set -- "$root"/build/fuzz/fuzz_*
rc=0
for bin in "$@"; do
	bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
	name=$(basename "$bin")
	name=${name#fuzz_}
	work=${LS_OUT:-$root/tests/out}/fuzz/$name
	rm -rf "$work"
	mkdir -p "$work/corpus"
	cp "$root/tests/fuzz/corpus/$name/"* "$work/corpus/" 2>/dev/null
	[ "$name" = record_read ] && cp "$root"/tests/data/*.json "$work/corpus/"
	(cd "$work" && "$bin" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -max_len=65536 -close_fd_mask=3 \
		-print_final_stats=1 corpus) >"$work/log" 2>&1
	r=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
	if [ $r -eq 0 ] && [ -n "$runs" ]; then
		echo "fuzz $name: ok, $runs runs in ${secs}s, corpus $(ls "$work/corpus" | wc -l) inputs"
	else
		echo "fuzz $name: FAILED (exit $r), see $work/log:"
		grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$work/log" | head -5
		rc=1
	fi
done
exit $rc
