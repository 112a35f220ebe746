#!/usr/bin/env bash
# Lock names on this kernel: slab objects and per-CPU data named by type and
# field through BTF, the CO-RE recogniser agreeing with the slab name, no two
# rows with one name, and the share of wait time (outside the kernel image)
# carried by rows named by type and field or by symbol.  One run under
# stress-ng sockdiag/netlink-task/mmap/dentry and the shipped workloads.
. "$(dirname "$0")/../lib.sh"
W=$LS_ROOT/build
out=$LS_OUT/names
mkdir -p "$out"

need_tracepoints "names" || exit 0
"$LS" doctor >"$out/doctor.txt" 2>&1
for src in "slab objects" "per-CPU data" "CO-RE recognisers" "kallsyms data symbols"; do
	row=$(grep -E "^  $src +(yes|no) +[^ ]" "$out/doctor.txt")
	if [ -n "$row" ]; then
		pass "names: doctor row '$src' with a reason: $(sed 's/  */ /g' <<<"$row")"
	else
		fail "names: doctor has no '$src' row: $(sed -n '/^lock names:/,/^$/p' "$out/doctor.txt")"
	fi
done
if ! grep -Eq '^  slab objects +yes ' "$out/doctor.txt"; then
	skip "names: slab names unavailable here: $(grep '^  slab objects' "$out/doctor.txt")"
	exit 0
fi
need_cmd "names" stress-ng || exit 0

# ~6 s: everything at once, then two short pipe runs
"$LS" hist --json -d 8 -- sh -c "
	stress-ng --sockdiag 2 --netlink-task 2 --mmap 2 --dentry 2 -t 6s >/dev/null 2>&1 &
	$W/mmap_hammer 2 2 >/dev/null; $W/pipe_hammer 2 2 >/dev/null
	$W/lock_spread 64 2 2 >/dev/null; wait" >"$out/all.json" 2>"$out/all.err"
rc=$?
if [ $rc -ne 0 ] || ! jget "$out/all.json" 'len(d["locks"])' >/dev/null 2>&1; then
	fail "names: hist --json exit $rc: $(tail -2 "$out/all.err")"
	exit 0
fi
py() { jget "$out/all.json" "$1"; }

# run-queue locks: rq.__lock, one per CPU
rq=$(py 'sorted({r["name"] for r in d["locks"] if r["class"] == "rq.__lock" and r["origin"] == "percpu"})')
if [ "$rq" != "[]" ]; then
	pass "names: run-queue locks named rq.__lock from per-CPU data: $rq"
else
	fail "names: no rq.__lock row: $(py '[(r["name"], r["origin"]) for r in d["locks"] if "schedule" in str(r["callers"])][:6]')"
fi

# task locks by field
tl=$(py 'sum(r["contentions"] for r in d["locks"] if r["class"] == "task_struct.pi_lock")')
tc=$(py 'sorted({c["function"] for r in d["locks"] if r["class"] == "task_struct.pi_lock" for c in r["callers"]})')
if [ "${tl:-0}" -gt 0 ] 2>/dev/null; then
	pass "names: task locks named task_struct.pi_lock ($tl contentions, callers $tc)"
else
	fail "names: no task_struct.pi_lock row: $(py '[r["name"] for r in d["locks"] if r["name"].startswith("task_struct")]')"
fi

# mmap_lock: the slab name and the CO-RE recogniser agree on every address
agree=$(py '[(r["name"], r["kind"], r["origin"]) for r in d["locks"] if r.get("recognised") == "mmap_lock"]')
bad=$(py '[(r["name"], r["origin"]) for r in d["locks"] if r.get("recognised") == "mmap_lock" and (r["class"] != "mm_struct.mmap_lock" or r["origin"] != "slab")]')
if [ "$agree" != "[]" ] && [ "$bad" = "[]" ]; then
	pass "names: mmap_lock via slab agrees with the CO-RE recogniser: $agree"
else
	fail "names: mmap_lock slab vs recogniser: seen $agree, disagreeing $bad"
fi
# ... and no mm_struct.mmap_lock named by slab that the recogniser missed
# while a waiter of that very mm waited (a recogniser row exists for it)
sig=$(py '[(r["name"], r["class"]) for r in d["locks"] if r.get("recognised") == "siglock" and r["class"] != "sighand_struct.siglock"]')
check "names: siglock rows (if any) are sighand_struct.siglock" [ "$sig" = "[]" ]

# no two rows share a display name (a lock's read and write sides are one
# lock: rows are told apart by name and kind)
dup=$(py '[k for k, n in __import__("collections").Counter((r["name"], r["kind"]) for r in d["locks"]).items() if n > 1]')
n=$(py 'len(d["locks"])')
if [ "$dup" = "[]" ]; then
	pass "names: $n rows, no two with one name and kind"
else
	fail "names: rows sharing a name: $dup"
fi

# the named share of wait outside the kernel image (static rows are in it)
share=$(py '
(lambda rows: round(100.0 * sum(r["total_ns"] for r in rows if r["origin"] in ("percpu", "task", "symbol") or (r["origin"] == "slab" and "+" not in r["class"])) / max(1, sum(r["total_ns"] for r in rows)), 1))([r for r in d["locks"] if r["origin"] not in ("static", "symbol")])')
nomm=$(py '
(lambda rows: round(100.0 * sum(r["total_ns"] for r in rows if r["origin"] in ("percpu", "task", "symbol") or (r["origin"] == "slab" and "+" not in r["class"])) / max(1, sum(r["total_ns"] for r in rows)), 1))([r for r in d["locks"] if r["origin"] not in ("static", "symbol") and r["class"] != "mm_struct.mmap_lock"])')
if python3 -c "import sys; sys.exit(0 if float('$share') >= 80 else 1)" 2>/dev/null; then
	pass "names: ${share}% of wait outside the kernel image is on rows named by type.field or symbol (>= 80%; ${nomm}% without mmap_lock)"
else
	fail "names: only ${share}% of wait outside the kernel image is named (${nomm}% without mmap_lock): $(py '[(r["name"], r["total_ns"]) for r in sorted(d["locks"], key=lambda r: -r["total_ns"]) if r["origin"] not in ("static",)][:8]')"
fi

# a name is stable between runs: the pipe mutex is not named by whichever
# caller was sampled first
# (a run whose two hammer threads shared one CPU may see no mutex wait at
# all: up to 3 tries each until a mutex waited; the names are then compared)
for i in 1 2; do
	for _ in 1 2 3; do
		if [ $i = 1 ]; then
			"$LS" hist --json -d 3 -- "$W/pipe_hammer" 2 2 >"$out/pipe$i.json" 2>/dev/null
		else
			"$LS" hist --json -d 3 -L pipe_inode_info.mutex -- "$W/pipe_hammer" 2 2 >"$out/pipe$i.json" 2>/dev/null
		fi
		p=$(jget "$out/pipe$i.json" '[r["name"] for r in sorted(d["locks"], key=lambda r: -r["total_ns"]) if r["kind"] == "mutex"][:1]')
		[ "$p" != "[]" ] && break
	done
	eval "p$i=\$p"
done
if [ "$p1" = "$p2" ] && [ "$p1" = "['pipe_inode_info.mutex']" ]; then
	pass "names: the pipe mutex is pipe_inode_info.mutex in two runs"
else
	fail "names: pipe mutex named $p1 then $p2"
fi

# -L takes a class: every row left is an instance of it (or a lock in it)
other=$(jget "$out/pipe2.json" '[r["name"] for r in d["locks"] if not r["class"].startswith("pipe_inode_info.mutex")]')
if [ "$other" = "[]" ]; then
	pass "names: -L pipe_inode_info.mutex keeps that class: $(jget "$out/pipe2.json" 'sorted({r["name"] for r in d["locks"]})')"
else
	fail "names: -L pipe_inode_info.mutex left $other"
fi

# --by class: one row per class and kind, with its number of locks
"$LS" hist --json --by class -d 3 -- "$W/pipe_hammer" 2 2 >"$out/class.json" 2>/dev/null
hashes=$(jget "$out/class.json" '[r["name"] for r in d["locks"] if "#" in r["name"]]')
multi=$(jget "$out/class.json" '[(r["name"], r["instances"]) for r in d["locks"] if r.get("instances", 1) > 1]')
dup=$(jget "$out/class.json" '[k for k, n in __import__("collections").Counter((r["class"], r["kind"]) for r in d["locks"]).items() if n > 1]')
if [ "$hashes" = "[]" ] && [ "$dup" = "[]" ] && [ "$multi" != "[]" ]; then
	pass "names: --by class folds instances: $multi"
else
	fail "names: --by class: instance names $hashes, duplicate classes $dup, folded $multi"
fi
