#!/usr/bin/env bash
# tests/static/test_bench.sh - the bench's own code (bench/*.py): it
# compiles, its fits are right on exact data, and its SVG writer makes a
# well-formed chart with one marker per point, text escaped, for a tiny
# hand-made data set (no run of the bench: that needs root and minutes).
set -u
. "$(dirname "$0")/../lib.sh"
cd "$LS_ROOT" || exit 1

if ! command -v python3 >/dev/null; then
	skip "bench: python3 not installed"
	exit 0
fi

# compile() without writing: bench/__pycache__ stays as it is
if out=$(python3 -c 'import sys
for f in sys.argv[1:]:
    compile(open(f).read(), f, "exec")' bench/*.py 2>&1); then
	pass "bench: every bench/*.py compiles"
else
	fail "bench: py_compile: $out"
fi

if out=$(PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=bench python3 - 2>&1 <<'EOF'
import xml.etree.ElementTree as ET
import curves
import svgplot

# fits on exact data
a, b, r2 = svgplot.fit_line([(1, 5), (2, 8), (4, 14)])
assert abs(a - 2) < 1e-9 and abs(b - 3) < 1e-9 and abs(r2 - 1) < 1e-9, (a, b, r2)
c, k, r2 = svgplot.fit_power([(1000, 0.4), (10000, 4.0), (100000, 40.0)])
assert abs(k - 1) < 1e-9 and abs(c - 0.0004) < 1e-12, (c, k)
assert svgplot.fit_line([(1, 1)]) is None
a, b, c = svgplot.fit_two([(0, 1, 3), (1, 1, 5), (0, 2, 4), (2, 3, 9)])  # 2 + 2u + v
assert abs(a - 2) < 1e-9 and abs(b - 2) < 1e-9 and abs(c - 1) < 1e-9, (a, b, c)
assert svgplot.fit_two([(1, 1, 1), (2, 2, 2), (3, 3, 3)]) is None
assert svgplot.fit_line([(2, 1), (2, 3)]) is None

# a two-panel chart: well-formed, one circle per point, text escaped
svg = svgplot.chart("t <&> \"q\"", [
    {"title": "cpu", "xlabel": "locks", "ylabel": "%", "logx": True,
     "series": [("busy <a>", [(1000, 0.4), (10000, 3.1), (100000, 30.0)]),
                ("idle", [(1000, 0.1), (10000, 0.9)])]},
    {"title": "empty", "xlabel": "x", "ylabel": "y", "series": []},
    {"title": "zero", "xlabel": "x", "ylabel": "y", "logx": True,
     "series": [("z", [(0, 5), (10, 6), (100, 7)])]}])
root = ET.fromstring(svg.split("\n", 1)[1])
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg", root.tag
circles = root.findall(".//%scircle" % ns)
assert len(circles) == 7, len(circles)  # (0, 5) not on the log axis
texts = [t.text for t in root.iter(ns + "text")]
assert "t <&> \"q\"" in texts and "busy <a>" in texts and "no data" in texts, texts
assert any(t and "not drawn" in t for t in texts), texts
xs = [float(c.get("cx")) for c in circles[:3]]
assert xs[0] < xs[1] < xs[2] and abs((xs[1] - xs[0]) - (xs[2] - xs[1])) < 0.2, xs

# the bench's statements from a hand-made agent result: cost that follows
# every lock in the table is said to, cost that follows changes is not
def run(n, busy, idle):
    return {"fill": {"lock_stats": {"entries": n}}, "pipe_visits_per_s": 5 * n,
            "busy": {"cpu_percent": busy, "rss_kb": 1024 * (20 + n / 1000)},
            "idle": {"cpu_percent": idle, "entries": n}, "rss_kb": 1024 * 20}
table = {"1000": run(1000, 0.4, 0.3), "10000": run(10000, 3.0, 2.4)}
assert "with all locks" in curves.agent_growth(table)[-1], curves.agent_growth(table)
changed = {"1000": run(1000, 0.4, 0.05), "10000": run(10000, 3.0, 0.06)}
assert "with changed locks" in curves.agent_growth(changed)[-1]
assert len(curves.panels({"agent": changed})) == 2

# the floor's ratios and verdict from hand-made rounds: lockscope's ns per
# run over the floor's of the same round, the median of the rounds
import floor
def fl(e, c):
    return {"empty": (e, 10), "clock": (c, 10), "empty_begin": (e, 5),
            "empty_end": (e, 5), "clock_begin": (c, 5), "clock_end": (c, 5)}
def ls(b, e, a):
    return {"begin_btf": (b, 5), "end_btf": (e, 5), "all programs": (a, 10)}
said = []
got = floor.report({"netlink": [(ls(120, 100, 110), fl(40, 80)),
                                (ls(90, 90, 90), fl(40, 60)),
                                (ls(300, 300, 300), fl(40, 100))]},
                   said.append)
r = got["netlink"]["all programs"]["ratio_clock"]
assert [round(x, 3) for x in r] == [1.375, 1.5, 3.0], r
assert got["netlink"]["clock_ns"] == 80 and got["netlink"]["empty_ns"] == 40
assert "median 1.50x (target <= 1.5x: met)" in said[-1], said[-1]
got = floor.report({"netlink": [(ls(200, 200, 200), fl(40, 80))]},
                   said.append)
assert "2.50x (target <= 1.5x: missed)" in said[-1], said[-1]
print("ok")
EOF
); then
	pass "bench: fits exact, SVG chart well-formed with a marker per point, growth statements follow the data, floor ratios per round"
else
	fail "bench: svgplot/curves check: $out"
fi
