#!/usr/bin/env bash
# tests/integration/test_hostile.sh - text whoever names a cgroup chose
# reaches no output raw: cgroups made here under the cgroup v2 mount with
# terminal escapes (ESC, BEL), a TAB, quotes and backslashes, a C1 CSI and
# a right-to-left override, and a path of 500 bytes of multibyte
# characters, each with the pipe hammer in it.  hist and top -b --by
# cgroup print no control and only UTF-8, the cut path ends between
# characters; serve's /metrics passes promtool check metrics; record
# --by cgroup writes a file its own reader takes (compare, report), says
# in it and once on stderr what it changed, and matches the schema.  Error
# messages echo hostile paths made safe.
# About 30 s.
. "$(dirname "$0")/../lib.sh"
W=$LS_ROOT/build
out=$LS_OUT/hostile
rm -rf "$out"
mkdir -p "$out"

# clean FILE: FILE is UTF-8 with no control but newline, no C1 and no
# bidirectional override; prints what is wrong
clean() {
	python3 - "$1" <<'PY'
import re, sys
b = open(sys.argv[1], "rb").read()
try:
    t = b.decode("utf-8")
except UnicodeDecodeError as e:
    print("not UTF-8 at byte %d: %r" % (e.start, b[max(0, e.start - 20):e.start + 4]))
    sys.exit(1)
m = re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", t)
if m:
    print("raw %r at %d: %r" % (m.group(), m.start(), t[max(0, m.start() - 30):m.start() + 10]))
    sys.exit(1)
PY
}
# ---- error messages echo what the user typed, made safe (no root) --------
"$LS" record -o "/nonexistent-$$/"$'\e[31mred\xe2\x82' -d 1 >/dev/null 2>"$out/err1.txt"
rc=$?
why=$(clean "$out/err1.txt")
check "hostile: a bad -o path with an ESC and a cut character: exit $rc, the message made safe: $(cat "$out/err1.txt") ${why}" \
	test $rc -eq 2 -a -z "$why" -a -s "$out/err1.txt"
"$LS" compare $'\e]0;owned\a\xc2\x9b' -- x >/dev/null 2>"$out/err2.txt"
rc=$?
why=$(clean "$out/err2.txt")
check "hostile: compare of a record named with OSC and C1 bytes: exit $rc, the message made safe: $(cat "$out/err2.txt") ${why}" \
	test $rc -eq 2 -a -z "$why" -a -s "$out/err2.txt"

# a record file named with ESC sequences (found by a glob, say): compare's
# text and report's page name it made safe
evil="$out/"$'evil\e[2J\e]0;x\a.json'
cp "$LS_ROOT/tests/data/record-base1.json" "$evil"
"$LS" compare "$evil" -- "$LS_ROOT/tests/data/record-new1.json" >"$out/evil.txt" 2>&1
rc=$?
why=$(clean "$out/evil.txt")
check "hostile: compare names a record file named with ESC made safe (exit $rc) ${why}" \
	test $rc -le 1 -a -z "$why" -a -s "$out/evil.txt"
"$LS" report -o "$out/evil.html" "$evil" 2>"$out/evil.err"
rc=$?
why=$(clean "$out/evil.html")
check "hostile: report's page names a record file named with ESC made safe (exit $rc) ${why}" \
	test $rc -eq 0 -a -z "$why"

need_tracepoints "hostile" || exit 0
if [ ! -x "$W/pipe_hammer" ]; then
	skip "hostile: $W/pipe_hammer not built (make tests-build)"
	exit 0
fi
root=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' /proc/self/mountinfo | head -1)
if [ -z "$root" ]; then
	skip "hostile: no cgroup v2 mount here"
	exit 0
fi
P=lsh$$
long=$(python3 -c 'print("\u20ac" * 80 + "\u00e9")') # 242 bytes
# short enough to show whole in hist's 40-column cgroup cell, escaped
names=("$P-e"$'\e[31m\e]0;x\a' "$P-t"$'\tx' "$P-"'q"\b' "$P-c"$'\xc2\x9b\xe2\x80\xae'
	"$P-long/$long/$long")
SPID=
cleanup() {
	[ -n "$SPID" ] && kill "$SPID" 2>/dev/null && wait "$SPID" 2>/dev/null
	for n in "${names[@]}"; do rmdir "$root/$n" 2>/dev/null; done
	rmdir "$root/$P-long/$long" "$root/$P-long" 2>/dev/null
	return 0
}
trap cleanup EXIT
for n in "${names[@]}"; do
	if ! mkdir -p "$root/$n"; then
		skip "hostile: cannot make cgroups under $root"
		exit 0
	fi
done
# the pipe hammer in every hostile cgroup at once for SECONDS (2): a
# script, as the names do not survive a command line well.  Which of the
# five pipes contend in a given run varies: checks ask for some of them.
{
	for n in "${names[@]}"; do
		printf '%s - %q %q 2 "${1:-2}" >/dev/null 2>&1 &\n' \
			"sh -c 'echo \$\$ >\"\$1/cgroup.procs\" && shift && exec \"\$@\"'" \
			"$root/$n" "$W/pipe_hammer"
	done
	echo wait
} >"$out/work.sh"
workload="$out/work.sh"

# the hostile cgroups a file shows, escaped as lockscope writes them
shown() { grep -c "$P-" "$1"; }

# ---- hist --by cgroup (text) ---------------------------------------------
# the pipe mutexes only: one per hammer, each waited on in its own cgroup
L="-L pipe_inode_info.mutex -n 20"
# (up to three runs: on a busy machine a 2 s run may see no pipe contend)
for try in 1 2 3; do
	"$LS" hist --by cgroup $L -F 0 -- bash "$workload" >"$out/hist.txt" 2>"$out/hist.err"
	rc=$?
	esc=$(grep -c '\\x[0-9a-f][0-9a-f]' "$out/hist.txt")
	ours=$(grep -c -e "$P-" -e $'^ *\\.\\.\\.\xe2\x82\xac' "$out/hist.txt")
	[ $rc -ne 0 ] || [ "$ours" -ge 2 ] && break
done
why=$(clean "$out/hist.txt")
if [ $rc -eq 0 ] && [ -z "$why" ] && [ "$esc" -ge 1 ] && [ "$ours" -ge 2 ]; then
	pass "hostile: hist --by cgroup prints $ours lines of the hostile cgroups, $esc escaped, no control, only UTF-8"
else
	fail "hostile: hist --by cgroup (exit $rc): ${why:-$ours lines of ours, $esc escaped}: $(grep -a -e "$P" -e '\.\.\.' "$out/hist.txt" | head -5 | cat -A | cut -c1-120)"
fi

# ---- top -b --by cgroup ----------------------------------------------------
for try in 1 2 3; do
	"$LS" top -b --by cgroup $L -i 1 -n 3 -F 0 -- bash "$workload" >"$out/top.txt" 2>"$out/top.err"
	rc=$?
	[ $rc -ne 0 ] || [ "$(shown "$out/top.txt")" -ge 1 ] && break
done
why=$(clean "$out/top.txt")
if [ $rc -eq 0 ] && [ -z "$why" ] && [ "$(shown "$out/top.txt")" -ge 1 ]; then
	pass "hostile: top -b --by cgroup shows the cgroups escaped ($(shown "$out/top.txt") lines), no control, only UTF-8"
else
	fail "hostile: top -b --by cgroup (exit $rc): ${why:-no hostile cgroup shown}: $(tail -1 "$out/top.err")"
fi

# ---- hist --json: the strings, once decoded, are safe too ------------------
for try in 1 2 3; do
	"$LS" hist --by cgroup --json $L -F 0 -- bash "$workload" >"$out/hist.json" 2>"$out/hist.jerr"
	rc=$?
	[ $rc -ne 0 ] || [ "$(grep -c "$P-" "$out/hist.json")" -ge 2 ] && break
done
why=$(python3 - "$out/hist.json" "$P" 2>&1 <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
cg = [c for r in d["locks"] for k in ("cgroups", "holder_cgroups") for c in r.get(k, [])]
long = [c for c in cg if c["cgroup"].startswith("...") and c["cgroup"].endswith("\u00e9")]
mine = [c for c in cg if sys.argv[2] in c["cgroup"]] + long
bad = [c["cgroup"] for c in cg if re.search("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", c["cgroup"])]
if bad or not mine:
    print("raw controls in %r, %d of ours" % (bad[:2], len(mine)))
elif len(mine) < 2:
    print("only %r of ours" % mine)
elif long and (len(long[0]["cgroup"].encode()) > 255 or long[0].get("cgroup_changed") != ["cut"]):
    print("long path: %r" % long[:1])
elif any(c.get("cgroup_changed") != ["escaped"] for c in mine if "\\x" in c["cgroup"]):
    print("escaped entries not marked: %r" % [c for c in mine if "\\x" in c["cgroup"]][:3])
elif any("cgroup_changed" in c for c in mine if "q\"\\b" in c["cgroup"]):
    print("quotes and backslashes are plain text, not changed")
PY
)
check "hostile: hist --json: no control in any cgroup name, the changed ones say so (exit $rc) $(tail -1 <<<"$why")" \
	test $rc -eq 0 -a -z "$why"

# ---- serve --by cgroup: promtool check metrics ---------------------------
if command -v promtool >/dev/null; then
	"$LS" serve --by cgroup -i 0.5 -F 0 --listen 127.0.0.1:0 >"$out/serve.log" 2>&1 &
	SPID=$!
	URL=$(serve_url "$out/serve.log" "$SPID" 127.0.0.1) || URL=
	if [ -z "$URL" ]; then
		fail "hostile: serve --by cgroup starts: $(tail -2 "$out/serve.log")"
	else
		# in a process group of its own: ended once seen
		setsid bash "$workload" 6 &
		wpid=$!
		# poll until a scrape shows four hostile cgroups and the long path
		# (both families), or the hammers end; then end them
		for _ in $(seq 40); do
			curl -sf "$URL/metrics" >"$out/metrics.txt"
			[ "$(grep -c "cgroup=\"/$P-" "$out/metrics.txt")" -ge 8 ] &&
				grep -q $'cgroup="\\.\\.\\.\xe2\x82\xac' "$out/metrics.txt" && break
			kill -0 $wpid 2>/dev/null || break
			sleep 0.25
		done
		kill -- -$wpid 2>/dev/null
		wait $wpid
		curl -sf "$URL/metrics" >"$out/metrics.txt"
		pt=$(promtool check metrics <"$out/metrics.txt" 2>&1)
		prc=$?
		why=$(clean "$out/metrics.txt")
		n=$(grep -c "cgroup=\"/$P-" "$out/metrics.txt")
		nl=$(grep -c $'cgroup="\\.\\.\\.\xe2\x82\xac[^"]*\xc3\xa9"' "$out/metrics.txt")
		if [ $prc -eq 0 ] && [ -z "$why" ] && [ "$n" -ge 6 ] && [ "$nl" -ge 2 ]; then
			pass "hostile: /metrics with $n hostile cgroup samples and $nl of the cut long path passes promtool check metrics, no control"
		else
			fail "hostile: /metrics: promtool exit $prc: $(head -2 <<<"$pt") ${why}; $n hostile samples, $nl of the long path"
		fi
		# promtool checks the escaping; the label values must say the names
		check "hostile: /metrics escapes quotes and backslashes as the format wants" \
			grep -qF "cgroup=\"/$P-q\\\"\\\\b\"" "$out/metrics.txt"
	fi
	kill "$SPID" 2>/dev/null
	wait "$SPID" 2>/dev/null
	SPID=
else
	skip "hostile: promtool not installed (package prometheus)"
fi

# ---- record --by cgroup: its own reader takes it, it says what changed -----
"$LS" record --by cgroup -F 0 -o "$out/rec.json" -- bash "$workload" >/dev/null 2>"$out/rec.err"
rc=$?
note=$(grep -c 'cgroup names\? written changed' "$out/rec.err")
if [ $rc -eq 0 ] && [ "$note" -eq 1 ] && grep -q "escaped\|cut" "$out/rec.json"; then
	pass "hostile: record --by cgroup says once what it changed: $(grep 'written changed' "$out/rec.err")"
else
	fail "hostile: record --by cgroup (exit $rc): $note notes on stderr: $(head -3 "$out/rec.err")"
fi
"$LS" compare --by cgroup "$out/rec.json" -- "$out/rec.json" >"$out/cmp.txt" 2>"$out/cmp.err"
rc=$?
why=$(clean "$out/cmp.txt")
check "hostile: compare --by cgroup reads the record back (exit $rc, 0 or 1 is a verdict) and prints no control ${why} $(head -1 "$out/cmp.err")" \
	test $rc -le 1 -a -z "$why"
"$LS" compare --by cgroup --format csv "$out/rec.json" -- "$out/rec.json" >"$out/cmp.csv" 2>"$out/cmp.cerr"
rc=$?
why=$(clean "$out/cmp.csv")
check "hostile: compare --by cgroup --format csv: exit $rc, no control ${why} $(head -1 "$out/cmp.cerr")" \
	test $rc -le 1 -a -z "$why" -a -s "$out/cmp.csv"
"$LS" report -o "$out/page.html" "$out/rec.json" >/dev/null 2>"$out/rep.err"
rc=$?
why=$(clean "$out/page.html")
check "hostile: report reads the record (exit $rc) and its page holds no control ${why} $(head -1 "$out/rep.err")" \
	test $rc -eq 0 -a -z "$why"
"$LS" record --by cgroup -F 0 --format csv -o "$out/rec.csv" -- bash "$workload" >/dev/null 2>"$out/csv.err"
rc=$?
why=$(clean "$out/rec.csv")
check "hostile: record --by cgroup --format csv: exit $rc, no control ${why} $(head -1 "$out/csv.err")" \
	test $rc -eq 0 -a -z "$why"
if python3 -c 'import jsonschema' 2>/dev/null; then
	schema=$(python3 - "$LS_ROOT/docs/record-schema.json" "$out/rec.json" 2>&1 <<'PY'
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
PY
)
	check "hostile: the record matches docs/record-schema.json $(tail -1 <<<"$schema")" [ -z "$schema" ]
else
	skip "hostile: python3-jsonschema not installed"
fi
