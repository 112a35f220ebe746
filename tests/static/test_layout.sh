#!/usr/bin/env bash
# tests/static/test_layout.sh - the tree keeps its architecture
# (docs/architecture.md): formatting, who may include libbpf, one job per
# file said in an opening comment, files of a readable size, includes and
# calls that run down the floors only and close no circle.
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

# BPF's decisions have one copy (bpf/decide.h, chain_walk.h, whatif_rule.h):
# user space reads none of the kernel flags they decide on by itself.
copies=$(grep -rnE 'LS_LCB_|LS_OWNER_FLAGS|LS_RWSEM_READER_OWNED|LS_BLOCKER_' user || true)
if [ -z "$copies" ]; then
	pass "layout: user/ decodes no kernel flag that bpf/decide.h decides on"
else
	fail "layout: user/ decodes kernel flags itself (call bpf/decide.h): $(echo $copies | cut -c1-300)"
fi

# Includes and calls run down the floors (cmd -> view -> analysis/serve ->
# export -> collect -> model -> bpf/util) and close no circle between files
# (tests/static/include_graph.py says how it draws the graph).
if ! command -v python3 >/dev/null; then
	skip "layout: python3 not installed (include graph)"
else
	python3 tests/static/include_graph.py "$LS_ROOT" | verdicts "layout"

	# The check itself can fail: on a copy of the tree, an include planted
	# up the floors and two files planted to include each other are named.
	plant=$(mktemp -d)
	trap 'rm -rf "$plant"' EXIT
	cp -r user bpf "$plant"/
	sed -i '0,/^#include/s//#include "view\/fmt.h"\n#include/' "$plant/user/model/hist.c"
	printf '#include "util/plant_b.h"\n' >"$plant/user/util/plant_a.h"
	: >"$plant/user/util/plant_b.h"
	printf '#include "util/plant_a.h"\n' >"$plant/user/util/plant_b.c"
	out=$(python3 tests/static/include_graph.py "$plant")
	if grep -q '^fail|an arrow runs up the floors: user/model/hist (user/model) -> user/view/fmt (user/view): #include "view/fmt.h"' <<<"$out"; then
		pass "layout: a planted upward include (model/hist.c -> view/fmt.h) is named"
	else
		fail "layout: a planted upward include went unseen: $out"
	fi
	if grep -q '^fail|a circle of 2 files: user/util/plant_a user/util/plant_b' <<<"$out"; then
		pass "layout: a planted circle (util/plant_a.h -> plant_b.h, plant_b.c -> plant_a.h) is named"
	else
		fail "layout: a planted circle went unseen: $out"
	fi
fi
