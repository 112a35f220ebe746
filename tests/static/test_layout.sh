#!/usr/bin/env bash
# tests/static/test_layout.sh - the tree keeps its architecture
# (docs/architecture.md): formatting, who may include libbpf, one job per
# file said in an opening comment, files of a readable size.
set -u
. "$(dirname "$0")/../lib.sh"
cd "$LS_ROOT" || exit 1

# make check-format: clang-format would change nothing.
if command -v clang-format >/dev/null; then
	if out=$(make -s check-format 2>&1); then
		pass "layout: make check-format is clean"
	else
		fail "layout: make check-format: $(grep -c 'clang-format-violations' <<<"$out") places to reformat"
		grep -m 5 'clang-format-violations' <<<"$out"
	fi
else
	skip "layout: clang-format not installed"
fi

# Only user/collect/ talks to libbpf.
bad=$(grep -rlE '#include[[:space:]]*[<"]bpf/|#include[[:space:]]*"[a-z_]+\.skel\.h"' user |
	grep -v '^user/collect/' || true)
if [ -z "$bad" ]; then
	pass "layout: no file outside user/collect/ includes libbpf or a skeleton"
else
	fail "layout: libbpf included outside user/collect/: $(echo $bad)"
fi

# Every user file sits in a role folder and opens with what its job is.
loose=$(find user -maxdepth 1 -type f)
nocomment=""
for f in user/*/*.[ch]; do
	# line 1 is the SPDX tag; the job is said on line 2 or 3
	sed -n '2,3p' "$f" | grep -qE '^(/\*| \*)' || nocomment="$nocomment $f"
done
if [ -z "$loose" ] && [ -z "$nocomment" ]; then
	pass "layout: every user file is in a role folder and says its job first"
else
	fail "layout: loose files: $(echo $loose); no opening comment:$nocomment"
fi

# No user file grows past about 600 lines (650 allowed for a long table).
long=$(wc -l user/*/*.[ch] | awk '$2 != "total" && $1 > 650 { print $2 " (" $1 ")" }')
if [ -z "$long" ]; then
	pass "layout: no user file above 650 lines"
else
	fail "layout: files above 650 lines: $(echo $long)"
fi
