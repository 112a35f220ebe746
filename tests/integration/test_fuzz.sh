#!/usr/bin/env bash
# libFuzzer harnesses (ASan + UBSan) for the kallsyms parser, the kallsyms
# file reader, the command line parser and the record reader, a few seconds
# each (LS_FUZZ_SECONDS, default 5); `make fuzz` runs them longer.
. "$(dirname "$0")/../lib.sh"
bins=$(ls "$LS_ROOT"/build/fuzz/fuzz_* 2>/dev/null | grep -v '\.o$')
if [ -z "$bins" ]; then
	if ! make -s -C "$LS_ROOT" fuzz-build >"$LS_OUT/fuzz-build.log" 2>&1; then
		skip "fuzz: harnesses do not build (clang with libFuzzer, package libclang-rt-14-dev): $(tail -1 "$LS_OUT/fuzz-build.log")"
		exit 0
	fi
	bins=$(ls "$LS_ROOT"/build/fuzz/fuzz_* | grep -v '\.o$')
fi
for b in $bins; do
	# shellcheck disable=SC2086
	line=$("$LS_ROOT/tests/fuzz/run.sh" "$b")
	if [ $? -eq 0 ]; then
		pass "$line"
	else
		fail "$line"
	fi
done
