#!/usr/bin/env bash
# Names of locks in merged slab caches: SLUB merges caches of one size and
# flags, and bpf_get_kmem_cache() returns the merged cache, named after its
# first member.  Under stress-ng --flock the file_lock_ctx cache's lock
# must be file_lock_context.flc_lock (not ftrace_event_field+0x0), under
# --epoll the UNIX socket's locks must be named by unix_sock (not
# signal_cache+0x...), under page cache churn the memory cgroups' LRU
# lock must be mem_cgroup_per_node.lruvec.lru_lock (not pool_workqueue+0x98),
# and no row may show a type.field that is not a lock
# of its kind in the kernel's BTF (checked by btf_lock_fields.py, apart
# from lockscope's walker).
. "$(dirname "$0")/../lib.sh"
out=$LS_OUT/slab_names
chk=$(dirname "$0")/btf_lock_fields.py
mkdir -p "$out"

need_tracepoints "slab names" || exit 0
"$LS" doctor >"$out/doctor.txt" 2>&1
row=$(grep -E '^  slab aliases +(yes|no) +[^ ]' "$out/doctor.txt")
if [ -n "$row" ]; then
	pass "slab names: doctor row 'slab aliases' with a reason: $(sed 's/  */ /g' <<<"$row")"
else
	fail "slab names: doctor has no 'slab aliases' row: $(sed -n '/^lock names:/,/^$/p' "$out/doctor.txt" | tr '\n' ' ')"
fi
if ! grep -Eq '^  slab objects +yes ' "$out/doctor.txt"; then
	skip "slab names: slab names unavailable here: $(grep '^  slab objects' "$out/doctor.txt")"
	exit 0
fi
need_cmd "slab names" stress-ng || exit 0
need_cmd "slab names" bpftool || exit 0
if ! bpftool btf dump file /sys/kernel/btf/vmlinux format raw >"$out/btf.raw" 2>"$out/btf.err"; then
	skip "slab names: bpftool cannot dump the kernel's BTF: $(tail -1 "$out/btf.err")"
	exit 0
fi

# the byte offsets of the locks looked for below, from the BTF: a second
# or two each, looked up in the background while the workloads run
python3 "$chk" "$out/btf.raw" --offset file_lock_context.flc_lock >"$out/at.flock" &
at_flock=$!
python3 "$chk" "$out/btf.raw" --offset unix_sock.lock unix_sock.sk.sk_receive_queue.lock >"$out/at.unix" &
at_unix=$!
python3 "$chk" "$out/btf.raw" --offset mem_cgroup_per_node.lruvec.lru_lock >"$out/at.mix" &
at_mix=$!

# the merged cache a name lives in, from sysfs: "" when not merged
merged_with() {
	local t
	t=$(readlink "/sys/kernel/slab/$1" 2>/dev/null) || return 0
	find /sys/kernel/slab -maxdepth 1 -lname "$t" -printf '%f\n' | sort | tr '\n' ' '
}

# hist_of NAME SECONDS STRESSOR...: hist --json of stress-ng's STRESSOR
# for SECONDS; 0 when the file is a hist result
hist_of() {
	local name=$1 secs=$2
	shift 2
	"$LS" hist --json -d $((secs + 2)) -- stress-ng "$@" -t "${secs}s" >"$out/$name.json" 2>"$out/$name.err"
	local rc=$?
	if [ $rc -ne 0 ] || ! jget "$out/$name.json" 'len(d["locks"])' >/dev/null 2>&1; then
		fail "slab names: hist --json -- stress-ng $* exit $rc: $(tail -2 "$out/$name.err" | tr '\n' ' ')"
		return 1
	fi
}

# slab rows of kind spinlock, most contended first: (class, contentions)
slab_spin='sorted(((r["class"], r["contentions"]) for r in d["locks"] if r["origin"] == "slab" and r["kind"] == "spinlock"), key=lambda x: -x[1])'

ran=""
# --flock: the flock spinlock of each file's file_lock_context
fl=$(merged_with file_lock_ctx)
if [ -z "$fl" ]; then
	skip "slab names: file_lock_ctx is not a merged cache here (no /sys/kernel/slab link)"
elif hist_of flock 2 --flock 2; then
	ran="$ran $out/flock.json"
	flc=$(jget "$out/flock.json" 'sum(r["contentions"] for r in d["locks"] if r["class"] == "file_lock_context.flc_lock" and r["kind"] == "spinlock")')
	# where flc_lock is, no row may keep the cache+offset form
	wait "$at_flock"
	at=$(cat "$out/at.flock")
	wrong=$(jget "$out/flock.json" '[(r["name"], r["contentions"]) for r in d["locks"] if r["kind"] == "spinlock" and r["class"] in ["%s+'"$at"'" % m for m in "'"$fl"'".split()]]')
	if [ "${flc:-0}" -gt 1000 ] 2>/dev/null && [ "$wrong" = "[]" ]; then
		pass "slab names: --flock: file_lock_context.flc_lock ($flc contentions; file_lock_ctx merged with $fl)"
	else
		fail "slab names: --flock: file_lock_context.flc_lock has ${flc:-0} contentions (want > 1000), rows left as <member of [$fl]>+$at: $wrong; top slab spinlocks $(jget "$out/flock.json" "$slab_spin[:4]")"
	fi
fi

# --epoll: the UNIX sockets' locks (the UNIX caches merge with signal_cache).
# Their contention is rare and varies with the machine's load: up to four
# runs, until one contends on a lock at one of those offsets.
ux=$(merged_with UNIX)
if [ -z "$ux" ]; then
	skip "slab names: UNIX is not a merged cache here (no /sys/kernel/slab link)"
else
	want='("unix_sock.lock", "unix_sock.sk.sk_receive_queue.lock")'
	wait "$at_unix"
	at=$(tr '\n' ' ' <"$out/at.unix")
	wrong_q='[(r["name"], r["contentions"]) for r in d["locks"] if r["kind"] == "spinlock" and r["class"] in ["%s+%s" % (m, o) for m in "'"$ux"'".split() for o in "'"$at"'".split()]]'
	got_q='[(r["class"], r["contentions"]) for r in d["locks"] if r["kind"] == "spinlock" and any(c in '"$want"' for c in r["class"].strip("{}").split("|"))]'
	got="[]" wrong="[]" runs=0
	while [ "$got" = "[]" ] && [ "$wrong" = "[]" ] && [ $runs -lt 4 ]; do
		runs=$((runs + 1))
		hist_of epoll 6 --epoll 2 || break
		got=$(jget "$out/epoll.json" "$got_q")
		wrong=$(jget "$out/epoll.json" "$wrong_q")
	done
	if [ -s "$out/epoll.json" ] && jget "$out/epoll.json" 1 >/dev/null 2>&1; then
		ran="$ran $out/epoll.json"
	fi
	if [ "$wrong" != "[]" ]; then
		fail "slab names: --epoll: rows left as <member of [$ux]>+<offset of a unix_sock lock ($at)>: $wrong; unix_sock rows $got"
	elif [ "$got" != "[]" ]; then
		pass "slab names: --epoll: unix_sock locks named (run $runs): $got (UNIX merged with $ux)"
	elif [ $runs -eq 4 ]; then
		skip "slab names: --epoll: no contention on the UNIX sockets' locks in $runs runs: $(jget "$out/epoll.json" "$slab_spin[:4]")"
	fi
fi

# page cache and anonymous memory churn: the LRU lock of each memory
# cgroup's node (mem_cgroup_per_node merges with pool_workqueue here)
mc=$(merged_with mem_cgroup_per_node)
if [ -z "$mc" ]; then
	skip "slab names: mem_cgroup_per_node is not a merged cache here (no /sys/kernel/slab link)"
elif hist_of mix 3 --mmap 2 --dentry 2 --vm 1 --vm-bytes 128M; then
	ran="$ran $out/mix.json"
	wait "$at_mix"
	at=$(cat "$out/at.mix")
	got=$(jget "$out/mix.json" 'sum(r["contentions"] for r in d["locks"] if r["kind"] == "spinlock" and "mem_cgroup_per_node.lruvec.lru_lock" in r["class"].strip("{}").split("|"))')
	wrong=$(jget "$out/mix.json" '[(r["name"], r["contentions"]) for r in d["locks"] if r["kind"] == "spinlock" and r["class"] in ["%s+'"$at"'" % m for m in "'"$mc"'".split()]]')
	if [ "$wrong" != "[]" ]; then
		fail "slab names: mmap/dentry/vm: rows left as <member of [$mc]>+$at: $wrong"
	elif [ "${got:-0}" -gt 0 ] 2>/dev/null; then
		pass "slab names: mmap/dentry/vm: mem_cgroup_per_node.lruvec.lru_lock ($got contentions; merged with $mc)"
	else
		skip "slab names: mmap/dentry/vm: no LRU lock contention in this run: $(jget "$out/mix.json" "$slab_spin[:4]")"
	fi
fi

# every type.field shown is a lock of the row's kind
if [ -n "$ran" ]; then
	# shellcheck disable=SC2086
	if res=$(python3 "$chk" "$out/btf.raw" $ran 2>&1); then
		pass "slab names: every slab and per-CPU type.field is a lock of its row's kind: $(tail -1 <<<"$res")"
	else
		fail "slab names: type.field names that are no lock of their kind: $(tr '\n' ' ' <<<"$res")"
	fi
fi
