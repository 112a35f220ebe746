#!/usr/bin/env bash
# tests/integration/test_report.sh - flame graph data and the HTML report on
# this kernel: folded stacks from hist and record whose weights add up to
# the record's sampled wait, and `lockscope report` of real records (one
# run with -i, and a compare) rendered in headless Chromium: a screenshot
# that is not blank, the SVG of every part, and no network request; a
# record with a very long command keeps the page within the window.
. "$(dirname "$0")/../lib.sh"

O=$LS_OUT/report
rm -rf "$O"
mkdir -p "$O"
# Debian's python3 (python3-pil) even where another python3 comes first
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

# ---- bad input, no root needed -------------------------------------------
"$LS" report "$LS_ROOT/tests/data/record-malformed.json" -o "$O/bad.html" 2>"$O/bad.err"
rc=$?
check "report: a malformed record is refused (exit 2, one line)" \
	test "$rc" = 2 -a "$(wc -l <"$O/bad.err")" = 1 -a ! -e "$O/bad.html"
"$LS" report "$LS_ROOT/tests/data/record-base1.json" 2>"$O/noout.err"
rc=$?
check "report: no -o is exit 2" grep -q "report needs -o" "$O/noout.err"
[ "$rc" = 2 ] || fail "report: no -o gave exit $rc"
"$LS" report "$LS_ROOT/tests/data/record-base1.json" -o "$O/x.html" --folded x 2>/dev/null
check "report: --folded is refused (exit 2)" test $? = 2
"$LS" record -o - --folded - -d 1 2>/dev/null
check "record: -o - and --folded - together are refused (exit 2)" test $? = 2
"$LS" hist --folded "$O/nodir/x.folded" -d 1 2>"$O/baddir.err"
check "hist: a --folded path that cannot be written fails before tracing (exit 2)" \
	test $? = 2

# sums FILE.folded RECORD.json: folded weights = the record's stacks =
# its locks' caller_wait_ns (the sampled wait total), > 0; no more samples
# than the locks' sampled stacks since the tracing began (stacks count from
# the record's start); a busy lock's sampled wait within its total wait;
# every line "frame;frame weight"
sums() {
	"$PY" - "$1" "$2" <<'PYEOF'
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
d = json.load(open(sys.argv[2]))["totals"]
folded = sum(int(l.rsplit(" ", 1)[1]) for l in lines)
stacks = sum(s["wait_ns"] for s in d["stacks"])
callers = sum(l.get("caller_wait_ns", 0) for l in d["locks"])
samples = sum(s["samples"] for s in d["stacks"])
csamples = sum(l["caller_samples"] for l in d["locks"])
total = {(l["name"], l["kind"]): l["total_ns"] for l in d["locks"]}
per = {}
for s in d["stacks"]:
    per[(s["lock"], s["kind"])] = per.get((s["lock"], s["kind"]), 0) + s["wait_ns"]
bad = [l for l in lines if not re.fullmatch(r"[^; ][^;]*(;[^;]+)* [0-9]+", l)]
print(f"  folded {folded} ns in {len(lines)} lines, stacks {stacks}, "
      f"locks' caller_wait_ns {callers}; samples {samples} of {csamples}")
busy = {(l["name"], l["kind"]) for l in d["locks"] if l["contentions"] >= 1000}
ok = folded == stacks == callers > 0 and 0 < samples <= csamples and not bad
ok = ok and busy and all(per.get(k, 0) <= total[k] for k in busy)
sys.exit(0 if ok else 1)
PYEOF
}

# ---- real records ---------------------------------------------------------
run_ok=0
tp=0
if need_tracepoints "report: real records" && tp=1 &&
	need_cmd "report: real records" stress-ng; then
	# one run seen by three instances at once, each the PROGRAM of the
	# one before: record -i 1, record --by class (one row per class: the
	# instances' stacks go to their class's row) and hist --folded -
	"$LS" record -o "$O/run.json" -i 1 --folded "$O/run.folded" -- \
		"$LS" record --by class -o "$O/class.json" --folded "$O/class.folded" -- \
		sh -c 'o=$1; shift; exec "$@" >"$o" 2>/dev/null' sh "$O/hist.folded" \
		"$LS" hist --folded - -- stress-ng --netlink-task 2 -t 3s >/dev/null 2>&1
	if [ -s "$O/run.json" ] && [ -s "$O/run.folded" ]; then
		run_ok=1
		check "record --folded: weights add up to the sampled wait total" \
			sums "$O/run.folded" "$O/run.json"
	else
		fail "record --folded: no record or no folded file written"
	fi
	check "record --by class --folded: the classes' stacks add up to their sampled wait" \
		sums "$O/class.folded" "$O/class.json"
	check "hist --folded -: folded lines on standard output, the genl mutex among them" \
		grep -qE '^mutex@genl_rcv_msg;.*genl_rcv_msg;.* [0-9]+$' "$O/hist.folded"
fi

# render FILE.html FILE.png: screenshot in a fresh profile, with a net log
render() {
	local prof
	prof=$(mktemp -d)
	timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --user-data-dir="$prof" \
		--log-net-log="$2.netlog.json" --window-size=1280,3000 \
		--screenshot="$2" "file://$1" >/dev/null 2>&1
	rm -rf "$prof"
	[ -s "$2" ]
}

# not_blank FILE.png: many colours, not one background
not_blank() {
	"$PY" - "$1" <<'PYEOF'
import sys
from PIL import Image, ImageStat
im = Image.open(sys.argv[1]).convert("L")
st = ImageStat.Stat(im)
dark = sum(im.histogram()[:200]) / (im.width * im.height)
print(f"  {im.width}x{im.height}, grey stddev {st.stddev[0]:.1f}, {dark:.1%} non-white pixels")
sys.exit(0 if st.stddev[0] > 20 and dark > 0.03 else 1)
PYEOF
}

# no_page_requests FILE.netlog.json: the page (file:// origin) asked the
# network for nothing (the browser's own update checks are not the page's)
no_page_requests() {
	"$PY" - "$1" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
page = [e["params"]["url"] for e in d["events"]
        if "file://" in str(e.get("params", {}).get("network_isolation_key", ""))
        and not e["params"].get("url", "file:").startswith("file:")]
print("  requests from the page:", page or "none")
sys.exit(1 if page else 0)
PYEOF
}

# parts FILE.html CLASS=MIN...: at least MIN <svg> of each class; no tag
# loads or runs anything (src, href, on*, script, url())
parts() {
	"$PY" - "$@" <<'PYEOF'
import sys
from html.parser import HTMLParser
count, bad = {}, []
class P(HTMLParser):
    def handle_starttag(self, tag, attrs):
        if tag == "script":
            bad.append(tag)
        for k, v in attrs:
            if k in ("src", "href") or k.startswith("on") or "url(" in (v or ""):
                bad.append(f"{tag} {k}")
            if tag in ("svg", "table") and k == "class":
                for c in v.split():
                    count[c] = count.get(c, 0) + 1
text = open(sys.argv[1]).read()
P().feed(text)
ok = not bad and "default-src 'none'" in text and "http" not in text.replace("http-equiv", "")
for want in sys.argv[2:]:
    c, n = want.split("=")
    ok = ok and count.get(c, 0) >= int(n)
print("  elements:", count, "loaders:", bad or "none")
sys.exit(0 if ok else 1)
PYEOF
}

have_chromium() {
	need_cmd "$1" chromium || return 1
	"$PY" -c 'import PIL' 2>/dev/null && return 0
	skip "$1: python3-pil is not installed (scripts/setup.sh test)"
	return 1
}

if [ "$run_ok" = 1 ]; then
	"$LS" report -o "$O/run.html" "$O/run.json"
	check "report of a record: written (exit 0)" test $? = 0 -a -s "$O/run.html"
	check "report of a record: run, losses and top locks tables, histograms, two time series, a flame graph; nothing that loads" \
		parts "$O/run.html" meta=1 losses=1 top-locks=1 ls-hist=1 \
		ls-series-rate=1 ls-series-wait=1 ls-flame=1
	if have_chromium "report of a record in Chromium"; then
		if render "$O/run.html" "$O/run.png"; then
			check "report of a record in Chromium: the screenshot is not blank" \
				not_blank "$O/run.png"
			check "report of a record in Chromium: no network request from the page" \
				no_page_requests "$O/run.png.netlog.json"
		else
			fail "report of a record in Chromium: no screenshot"
		fi
	fi
	# a compare: two more records (of one run), the second side busier
	# (4 tasks)
	"$LS" record -o "$O/new1.json" -- "$LS" record -o "$O/new2.json" -- \
		stress-ng --netlink-task 4 -t 2s >/dev/null 2>&1
	"$LS" report -o "$O/cmp.html" "$O/run.json" "$O/run.json" -- \
		"$O/new1.json" "$O/new2.json"
	check "report of a compare: written (exit 0, also when a metric got worse)" \
		test $? = 0 -a -s "$O/cmp.html"
	check "report of a compare: change table, overlaid distributions, a flame graph per side; nothing that loads" \
		parts "$O/cmp.html" meta=1 changes=1 ls-overlay=1 ls-flame=2
	if have_chromium "report of a compare in Chromium"; then
		if render "$O/cmp.html" "$O/cmp.png"; then
			check "report of a compare in Chromium: the screenshot is not blank" \
				not_blank "$O/cmp.png"
			check "report of a compare in Chromium: no network request from the page" \
				no_page_requests "$O/cmp.png.netlog.json"
		else
			fail "report of a compare in Chromium: no screenshot"
		fi
	fi
fi
# a whatif result (tests/data/whatif-result.json, a real run on this
# project's host): a dose-response plot per lock; nothing that loads
"$LS" report -o "$O/whatif.html" "$LS_ROOT/tests/data/whatif-result.json"
check "report of a whatif result: written (exit 0)" test $? = 0 -a -s "$O/whatif.html"
check "report of a whatif result: a dose-response plot per lock (points, lines, bands); nothing that loads" \
	parts "$O/whatif.html" meta=1 ls-whatif=2
if have_chromium "report of a whatif result in Chromium"; then
	if render "$O/whatif.html" "$O/whatif.png"; then
		check "report of a whatif result in Chromium: the screenshot is not blank" \
			not_blank "$O/whatif.png"
		check "report of a whatif result in Chromium: no network request from the page" \
			no_page_requests "$O/whatif.png.netlog.json"
	else
		fail "report of a whatif result in Chromium: no screenshot"
	fi
fi
# the checker itself: a page that loads an image is caught
if have_chromium "report: the network check catches a request"; then
	printf '<html><body><img src="http://127.0.0.1:9/x.png"></body></html>' >"$O/neg.html"
	render "$O/neg.html" "$O/neg.png"
	if no_page_requests "$O/neg.png.netlog.json" >/dev/null; then
		fail "report: the network check missed a page's request"
	else
		pass "report: the network check catches a page's request"
	fi
fi

# page_width FILE.html: the page's width in Chromium in a 1280-pixel window
# (a copy without the page's script ban, plus one line that reports
# document.documentElement.scrollWidth in the title)
page_width() {
	local prof
	"$PY" - "$1" >"$1.width.html" <<'PYEOF'
import re, sys
t = open(sys.argv[1]).read()
t = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", t)
t = t.replace("</body>", "<script>document.title = 'W=' + document.documentElement.scrollWidth</script></body>")
print(t)
PYEOF
	prof=$(mktemp -d)
	timeout 60 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update \
		--user-data-dir="$prof" --window-size=1280,1000 --dump-dom \
		"file://$1.width.html" 2>/dev/null | sed -n 's/.*<title>W=\([0-9]*\)<.*/\1/p'
	rm -rf "$prof"
}
# a very long command (one 300-character argument, many words) keeps the
# page within the window, for a record and for a compare
if have_chromium "report: a long command"; then
	"$PY" - "$LS_ROOT/tests/data/record-base1.json" "$O/longcmd.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["run"]["command"] = ["stress-ng", "--" + "x" * 300] + ["word"] * 60
json.dump(d, open(sys.argv[2], "w"))
PYEOF
	"$LS" report -o "$O/short.html" "$LS_ROOT/tests/data/record-base1.json"
	"$LS" report -o "$O/long.html" "$O/longcmd.json"
	"$LS" report -o "$O/longcmp.html" "$O/longcmd.json" -- "$O/longcmd.json"
	# the three browsers at once: each takes seconds to start
	wpids=()
	for f in short long longcmp; do
		page_width "$O/$f.html" >"$O/$f.width" &
		wpids+=($!)
	done
	wait "${wpids[@]}"
	ws=$(cat "$O/short.width") wl=$(cat "$O/long.width") wc=$(cat "$O/longcmp.width")
	if [ -z "$ws" ] || [ "$ws" -gt 1280 ]; then
		skip "report: a long command: the page width cannot be measured (${ws:-no width}) here"
	else
		check "report: a long command keeps the record's page within the window (${wl:-?} px; ${ws} px without it)" \
			test "${wl:-99999}" -le 1280
		check "report: a long command keeps the compare page within the window (${wc:-?} px)" \
			test "${wc:-99999}" -le 1280
	fi
fi
# ---- the wait-for graph of a chain made on purpose ----------------------------
# A record of build/chain_hammer: its pipe mutex's holders wait on mmap_lock;
# the report draws that edge (both locks named inside the graph's SVG),
# and Chromium renders it.
if { [ "$tp" = 1 ] || need_tracepoints "report: wait-for graph"; } &&
	[ -x "$LS_ROOT/build/chain_hammer" ]; then
	for _ in 1 2 3; do
		"$LS" record -o "$O/chains.json" -- "$LS_ROOT/build/chain_hammer" 4 >/dev/null 2>&1
		edges=$(jget "$O/chains.json" "sum(1 for l in d['totals']['locks'] if l.get('chains') and any('mmap_lock' in c['blocked_on'] for c in l['chains']['chains']) and l['name'].startswith('pipe_inode_info.mutex'))" 2>/dev/null)
		[ "${edges:-0}" -gt 0 ] && break
	done
	if [ "${edges:-0}" -gt 0 ]; then
		"$LS" report -o "$O/chains.html" "$O/chains.json"
		check "report: the wait-for graph (inline SVG) of a chain_hammer record; nothing that loads" \
			parts "$O/chains.html" ls-chains=1
		check "report: the graph draws the pipe mutex and mm_struct.mmap_lock" \
			"$PY" -c "import re,sys; t=open(sys.argv[1]).read(); g=re.search(r'<svg class=\"ls-chains\".*?</svg>', t, re.S).group(0); sys.exit(0 if 'pipe_inode_info.mutex' in g and 'mm_struct.mmap_lock' in g and '<polygon' in g else 1)" "$O/chains.html"
		if have_chromium "report: wait-for graph in Chromium"; then
			if render "$O/chains.html" "$O/chains.png"; then
				check "report: wait-for graph in Chromium: the screenshot is not blank" \
					not_blank "$O/chains.png"
				check "report: wait-for graph in Chromium: no network request from the page" \
					no_page_requests "$O/chains.png.netlog.json"
			else
				fail "report: wait-for graph in Chromium: no screenshot"
			fi
		fi
	else
		fail "report: wait-for graph: 3 records of chain_hammer without a pipe mutex chain to mmap_lock"
	fi
fi
