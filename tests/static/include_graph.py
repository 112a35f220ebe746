#!/usr/bin/env python3
"""tests/static/include_graph.py [ROOT] - the file graph of user/ and bpf/
runs down the floors and has no circle (tests/static/test_layout.sh).

A node is a file without its last extension: a header and its .c are one
node (user/collect/maps.h and maps.c).  An arrow A -> B is an #include in A
of a file of B, or a use in A's .c of a function that B's .c defines (a call
through a header shared by many .c files, such as collect/collector_int.h,
is an arrow to the .c that defines it).  Prints one "pass|TEXT" or
"fail|TEXT" line per check, for tests/lib.sh verdicts.
"""
import os
import re
import sys

# The floors, top to bottom (CONTRIBUTING.md, docs/architecture.md): an
# arrow may point to its own floor or one below, never above.  A folder of
# user/ missing here is an error: a new folder is given its floor first.
FLOORS = {
    "user/cmd": 7,
    "user/view": 6,
    "user/analysis": 5,
    "user/serve": 5,
    "user/export": 4,
    "user/collect": 3,
    "user/model": 2,
    "bpf": 1,
    "user/util": 1,
}
INCLUDE_DIRS = ["user", "bpf"]  # the Makefile's -Iuser -Ibpf

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# a function definition at column 0: type, name, parameters, then "{"
DEFINITION = re.compile(
    r"^(static\s+)?(?!typedef\b)[A-Za-z_][^;{}()=#\n]*?\b([A-Za-z_]\w*)\("
    r"[^;{}]*?\)\s*\{",
    re.M,
)
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "__attribute__"}
TAG = re.compile(r"\b(?:struct|union|enum)\s+\w+")  # a type, not a call
WORD = re.compile(r"\b[A-Za-z_]\w*\b")


def node_of(path):
    return os.path.splitext(path)[0]


def floor_of(path):
    for folder, floor in FLOORS.items():
        if path.startswith(folder + "/"):
            return folder, floor
    return None, None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    os.chdir(root)
    files = []
    for top in ("user", "bpf"):
        for d, _, names in os.walk(top):
            files += [os.path.join(d, n) for n in names if n.endswith((".c", ".h"))]
    files.sort()
    known = set(files)
    text = {}
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as fh:
            text[f] = fh.read()

    edges = {}  # (from node, to node) -> set of reasons

    def arrow(a, b, why):
        if node_of(a) != node_of(b):
            edges.setdefault((node_of(a), node_of(b)), set()).add(why)

    # includes, resolved as the compiler does
    for f in files:
        for inc in INCLUDE.findall(text[f]):
            for d in [os.path.dirname(f)] + INCLUDE_DIRS:
                p = os.path.normpath(os.path.join(d, inc))
                if p in known:
                    arrow(f, p, "#include \"%s\"" % inc)
                    break

    # uses of the functions another .c defines
    stripped = {f: STRING.sub('""', COMMENT.sub(" ", text[f])) for f in files}
    defined_in = {}  # extern function -> .c
    own = {}  # file -> every function it defines (static ones too)
    for f in files:
        own[f] = set()
        for m in DEFINITION.finditer(stripped[f]):
            if m.group(2) in KEYWORDS:
                continue
            own[f].add(m.group(2))
            if f.startswith("user/") and f.endswith(".c") and not m.group(1):
                defined_in.setdefault(m.group(2), f)
    for f in files:
        if not f.endswith(".c") or not f.startswith("user/"):
            continue  # the BPF objects link with none of user/
        words = set(WORD.findall(TAG.sub(" ", stripped[f])))
        for w in words - own[f]:
            g = defined_in.get(w)
            if g:
                arrow(f, g, w)

    failed = False
    folders = sorted({os.path.dirname(f) for f in files if f.startswith("user/")})
    loose = [d for d in folders if d not in FLOORS]
    if loose:
        failed = True
        print("fail|folders with no floor in tests/static/include_graph.py: " + " ".join(loose))
    # upward arrows
    up = []
    nodes = {node_of(f): f for f in files}
    for (a, b), why in sorted(edges.items()):
        fa, la = floor_of(nodes[a])
        fb, lb = floor_of(nodes[b])
        if la is not None and lb is not None and lb > la:
            up.append("%s (%s) -> %s (%s): %s" % (a, fa, b, fb, ", ".join(sorted(why))))
    if up:
        failed = True
        for u in up:
            print("fail|an arrow runs up the floors: " + u)
    else:
        print("pass|no include or call runs up the floors (%d arrows)" % len(edges))

    # circles: strongly connected components (Tarjan, iterative)
    succ = {}
    for a, b in edges:
        succ.setdefault(a, []).append(b)
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(succ.get(start, []))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        comps.append(sorted(comp))
            elif nxt not in index:
                index[nxt] = low[nxt] = counter[0]
                counter[0] += 1
                stack.append(nxt)
                on.add(nxt)
                work.append((nxt, iter(sorted(succ.get(nxt, [])))))
            elif nxt in on:
                low[v] = min(low[v], index[nxt])
    if comps:
        failed = True
        for comp in comps:
            inside = [
                "%s -> %s (%s)" % (a, b, ", ".join(sorted(edges[(a, b)])))
                for a in comp
                for b in comp
                if (a, b) in edges
            ]
            print("fail|a circle of %d files: %s; %s" % (len(comp), " ".join(comp), "; ".join(inside)))
    else:
        print(
            "pass|no circle between the files of user/ and bpf/ (%d files, a header and its .c as one)"
            % len(nodes)
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
