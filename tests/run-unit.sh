#!/usr/bin/env bash
# tests/run-unit.sh BIN... - run cmocka test binaries with TAP output and
# report every test case through tests/lib.sh (pass/fail/skip).
set -u
. "$(dirname "$0")/lib.sh"
for bin in "$@"; do
	[ -x "$bin" ] || continue
	echo "== $bin"
	out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$bin" 2>&1)
	rc=$?
	n=0
	while IFS= read -r line; do
		case "$line" in
		"not ok "*) fail "$(basename "$bin"): ${line#not ok }"; n=$((n + 1)) ;;
		"ok "*"# SKIP"*) skip "$(basename "$bin"): ${line#ok }"; n=$((n + 1)) ;;
		"ok "*) pass "$(basename "$bin"): ${line#ok }"; n=$((n + 1)) ;;
		"#"*) echo "$line" ;;
		esac
	done <<<"$out"
	if [ "$n" -eq 0 ] || { [ "$rc" -ne 0 ] && ! grep -q '^not ok' <<<"$out"; }; then
		echo "$out"
		fail "$(basename "$bin"): exited $rc without TAP results"
	fi
done
