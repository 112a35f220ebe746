#!/usr/bin/env bash
# tests/static/test_lkp.sh - the lkp-tests program folder
# (packaging/lkp/programs/lockscope/) is one lkp-tests can take: its
# scripts pass shellcheck, meta.yaml and include parse as YAML, meta.yaml
# names exactly the parameters the scripts declare (`# - NAME` lines) and
# results in the robot's key grammar.
set -u
. "$(dirname "$0")/../lib.sh"
cd "$LS_ROOT" || exit 1

P=packaging/lkp/programs/lockscope

for f in monitor parse pkg/PKGBUILD meta.yaml include README.md; do
	check "lkp program: $f exists" test -s "$P/$f"
done
check "lkp program: monitor and parse are executable" test -x "$P/monitor" -a -x "$P/parse"

if command -v shellcheck >/dev/null; then
	# SC1091: lib/wait.sh is lkp-tests' own
	check "lkp program: shellcheck monitor, parse" \
		shellcheck -s sh -e SC1091 "$P/monitor" "$P/parse"
	# makepkg sets srcdir and pkgdir and reads the variables
	check "lkp program: shellcheck pkg/PKGBUILD" \
		shellcheck -s bash -e SC1091,SC2034,SC2154 "$P/pkg/PKGBUILD"
	check "lkp stand-in and tools: shellcheck" \
		shellcheck -s sh -e SC2013 tests/lkp/bin/run-monitor tests/lkp/bin/post-run \
		tests/lkp/bin/event/wait tests/lkp/bin/event/wakeup tests/lkp/lib/wait.sh
	check "lkp tools: shellcheck" shellcheck packaging/lkp/tools/*.sh
else
	skip "lkp program: shellcheck is not installed"
fi

# robot-rows.py on the real pair of the README's example and on an A/A
# pair (tests/data/lkp/: parse outputs of netlink-task 2 vs 4 and 2 vs 2)
T=packaging/lkp/tools/robot-rows.py
D=tests/data/lkp
rows=$(python3 "$T" "$D"/pair/base-* -- "$D"/pair/new-*)
check "lkp robot-rows: the genetlink mutex's contentions rise in the pair" \
	grep -Eq '^ +[0-9]+ ±[ 0-9]+%  +\+[0-9.]+%  +[0-9]+ ±[ 0-9]+%  lockscope\.mutex@genl_rcv_msg\.contentions$' <<<"$rows"
check "lkp robot-rows: the README's example is this table" \
	bash -c 'diff <(sed -n "/^## Example/,/^## /p" "$1" | sed -n "/^\`\`\`$/,/^\`\`\`$/p" | sed "1d;\$d") <(printf "%s\n" "$2")' \
	_ "$P/README.md" "$rows"
check "lkp robot-rows: an A/A pair gives no row" \
	bash -c '[ "$(python3 "$1" "$2"/aa/base-* -- "$2"/aa/new-* | wc -l)" -eq 2 ]' _ "$T" "$D"

# parse on a real monitor file (tests/data/lkp/series.lkp: interval=1
# around netlink-task 2): top=3 keeps 3 locks in every sample, the same
# keys in each; a top it cannot read is said, and 10 used
PARSE=$P/parse
check "lkp parse: top=3 keeps 3 locks, the same keys in every sample" python3 - \
	<(top=3 "$PARSE" <"$D/series.lkp") <<'PY'
import sys
samples = []
for line in open(sys.argv[1]):
    k, v = line.rstrip("\n").split(": ", 1)
    if k == "time":
        samples.append([])
    else:
        samples[-1].append(k)
locks = {k[: -len(".contentions")] for k in samples[0]
         if k.endswith(".contentions") and k != "contentions"}
print(len(samples), "samples,", sorted(locks))
sys.exit(0 if len(samples) > 3 and len(locks) == 3 and
         all(s == samples[0] for s in samples) else 1)
PY
check "lkp parse: top=x says it cannot and uses 10" bash -c '
	err=$(top=x "$1" <"$2" 2>&1 >/dev/null) &&
	[ "$err" = "lockscope parse: failed to parse top '"'x'"': expected a count; using 10" ] &&
	[ "$(top=x "$1" <"$2" 2>/dev/null)" = "$("$1" <"$2")" ]' _ "$PARSE" "$D/series.lkp"

if ! python3 -c 'import yaml' 2>/dev/null; then
	skip "lkp program: python3-yaml is not installed"
	exit 0
fi
verdicts "lkp program" < <(python3 - "$P" <<'PY'
import re, sys, yaml

def say(ok, text):
    print(("pass" if ok else "fail") + "|" + text)

d = sys.argv[1]
meta = yaml.safe_load(open(d + "/meta.yaml"))
inc = yaml.safe_load(open(d + "/include"))
say(isinstance(meta, dict), "meta.yaml parses as a YAML mapping")
say(isinstance(inc, dict) and isinstance(inc.get("need_kconfig"), list),
    "include parses, with a need_kconfig list")
kc = [k for e in inc.get("need_kconfig", []) for k in (e if isinstance(e, dict) else {e: None})]
say({"BPF_SYSCALL", "DEBUG_INFO_BTF"} <= set(kc), "include asks for BPF_SYSCALL and DEBUG_INFO_BTF")
declared = set()
for f in ("monitor", "parse"):
    for line in open(d + "/" + f):
        m = re.match(r"^# - (\w+)$", line.rstrip("\n"))
        if m:
            declared.add(m.group(1))
params = set((meta.get("parameters") or {}).keys())
say(declared and declared == params,
    f"meta.yaml parameters {sorted(params)} are the scripts' # - lines {sorted(declared)}")
res = list((meta.get("results") or {}).keys())
gram = re.compile(r"^lockscope\.[^\s]+$")
say(res and all(gram.match(k) and not k.startswith("lockscope.lockscope.") for k in res),
    f"meta.yaml lists {len(res)} results, each lockscope.<key> without whitespace")
PY
)
