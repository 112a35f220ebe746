#!/usr/bin/env bash
# tests/static/test_docs.sh - the documentation holds together: every
# relative link and #anchor in README.md, CONTRIBUTING.md,
# bench/results/README.md and docs/*.md resolves (a file that exists, a
# heading of that file), README.md stays at most 300 lines, user docs name no
# issue numbers, and the man page (the options reference) names exactly the
# commands and options of `lockscope --help`, with the same short options.
# LS_DOCS (a list of files) replaces the checked files, to show the check
# failing on a planted broken link.
set -u
. "$(dirname "$0")/../lib.sh"
cd "$LS_ROOT" || exit 1

if ! command -v python3 >/dev/null; then
	skip "docs: python3 not installed"
	exit 0
fi

# shellcheck disable=SC2086
docs=${LS_DOCS:-README.md CONTRIBUTING.md bench/results/README.md $(ls docs/*.md)}
# shellcheck disable=SC2086
if out=$(python3 - $docs 2>&1 <<'EOF'
import os, re, sys

def slug(text):
    # GitHub's anchors: inline markup dropped, lower case, punctuation but
    # '-' and '_' removed, spaces to '-'
    text = re.sub(r"`([^`]*)`", r"\1", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[*_]{2}([^*_]+)[*_]{2}", r"\1", text)
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")

anchors = {}
def anchors_of(path):
    if path not in anchors:
        seen, found, fence = {}, set(), False
        for line in open(path, encoding="utf-8"):
            if line.startswith("```"):
                fence = not fence
            m = re.match(r"^(#{1,6}) (.*)", line)
            if fence or not m:
                continue
            s = slug(m.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            found.add(s if n == 0 else "%s-%d" % (s, n))
        anchors[path] = found
    return anchors[path]

bad, links = [], 0
for doc in sys.argv[1:]:
    fence = False
    for no, line in enumerate(open(doc, encoding="utf-8"), 1):
        if line.startswith("```"):
            fence = not fence
        if fence or line.startswith("    "):
            continue
        line = re.sub(r"`[^`]*`", "", line)
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            if re.match(r"^[a-z]+:", target):
                continue
            links += 1
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            if not os.path.exists(full):
                bad.append("%s:%d: %s: no such file" % (doc, no, target))
            elif anchor and (not full.endswith(".md") or anchor not in anchors_of(full)):
                bad.append("%s:%d: %s: no heading #%s in %s" % (doc, no, target, anchor, full))
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("%d links in %d files" % (links, len(sys.argv) - 1))
EOF
); then
	pass "docs: every relative link and #anchor resolves ($out)"
else
	fail "docs: broken links: $out"
fi

[ -n "${LS_DOCS:-}" ] && exit 0

n=$(wc -l <README.md)
check "docs: README.md is at most 300 lines ($n)" [ "$n" -le 300 ]

# shellcheck disable=SC2086
hits=$(grep -niE '\bissues? #?[0-9]+' README.md $(ls docs/*.md) | head -5)
check "docs: no issue numbers in the user docs${hits:+: $hits}" [ -z "$hits" ]

# The man page against --help: the same commands, the same long options,
# each with the same short option.
if [ ! -x "$LS" ]; then
	skip "docs: the man page against --help: $LS is not built"
	exit 0
fi
# the options of `lockscope [COMMAND] --help` ("d duration", "- by"), but
# argp's own --help, --usage and --version
help_opts() {
	"$LS" "$@" --help | sed -nE 's/^  (-(.), |    )--([a-z][a-z0-9-]*).*/\2 \3/p' |
		sed 's/^ /- /' | grep -vE ' (help|usage|version)$' | sort -u
}
man_opts() {
	# the first line after each .TP of OPTIONS, \- as -: .BI -d ", --duration=" x
	awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH / { on = 0 }
		on && prev == ".TP" { print } { prev = $0 }' man/lockscope.8 |
		sed 's/\\-/-/g' | while IFS= read -r l; do
			short=$(sed -nE 's/^\.B[IR]* +"?-([a-zA-Z0-9])[ ",].*/\1/p' <<<"$l")
			for long in $(grep -oE -- '--[a-z][a-z0-9-]*' <<<"$l"); do
				echo "${short:--} ${long#--}"
				short= # one short option names the first long one
			done
		done | sort -u
}
help_cmds() { "$LS" --help | awk '/^Commands/ { on = 1; next } on && /^$/ { exit } on { print $1 }' | sort; }
man_cmds() {
	awk '/^\.SH COMMANDS/ { on = 1; next } /^\.SH / { on = 0 }
		on && prev == ".TP" && /^\.B / { print $2 } { prev = $0 }' man/lockscope.8 | sort
}
d=$(diff <(help_cmds) <(man_cmds))
check "docs: the man page's COMMANDS are those of --help ($(help_cmds | wc -l))${d:+: $(tr '\n' ' ' <<<"$d")}" [ -z "$d" ]
all=$(help_opts)
d=$(diff <(echo "$all") <(man_opts))
check "docs: the man page's OPTIONS are those of --help, short and long ($(wc -l <<<"$all"))${d:+: < help, > man: $(tr '\n' ' ' <<<"$d")}" [ -z "$d" ]
missing=
for c in $(help_cmds); do
	extra=$(comm -23 <(help_opts "$c") <(echo "$all") | tr '\n' ' ')
	[ -n "$extra" ] && missing="$missing $c: $extra;"
done
check "docs: every option of each COMMAND --help is in lockscope --help and the man page${missing:+:$missing}" [ -z "$missing" ]
