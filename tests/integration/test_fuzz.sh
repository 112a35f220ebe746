#!/usr/bin/env bash
# libFuzzer harnesses (ASan + UBSan) for the kallsyms parser, the kallsyms
# file reader, the command line parser and the record reader, a few seconds
# each (LS_FUZZ_SECONDS, default 5), one per CPU at a time; `make fuzz` runs
# them longer.
. "$(dirname "$0")/../lib.sh"
bins=$(ls "$LS_ROOT"/build/fuzz/fuzz_* 2>/dev/null | grep -v '\.o$')
if [ -z "$bins" ]; then
	if ! make -s -C "$LS_ROOT" fuzz-build >"$LS_OUT/fuzz-build.log" 2>&1; then
		skip "fuzz: harnesses do not build (clang with libFuzzer, package libclang-rt-14-dev): $(tail -1 "$LS_OUT/fuzz-build.log")"
		exit 0
	fi
	bins=$(ls "$LS_ROOT"/build/fuzz/fuzz_* | grep -v '\.o$')
fi
# as many harnesses at a time as there are CPUs: each is one process
# fuzzing for its LS_FUZZ_SECONDS of wall clock, on a CPU of its own
res=$(mktemp -d)
trap 'rm -rf "$res"' EXIT
i=0
for b in $bins; do
	i=$((i + 1))
	("$LS_ROOT/tests/fuzz/run.sh" "$b" >"$res/$i.line"
		echo $? >"$res/$i.rc") &
	[ "$(jobs -rp | wc -l)" -lt "$(nproc)" ] || wait -n
done
wait
for j in $(seq "$i"); do
	if [ "$(cat "$res/$j.rc")" = 0 ]; then
		pass "$(cat "$res/$j.line")"
	else
		fail "$(cat "$res/$j.line")"
	fi
done
