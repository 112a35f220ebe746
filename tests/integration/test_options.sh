#!/usr/bin/env bash
# One command line per command: an option the command does not take, an
# empty value, an unknown option get one line and exit 2; the exit status
# rule for PROGRAM (127 not found, 126 not executable, its own status,
# 128+N for signal N); top -b honours -i without -n.
. "$(dirname "$0")/../lib.sh"
out=$LS_OUT/options
mkdir -p "$out"

# one_line_exit2 NAME WANT ARGS...: exit 2, nothing on stdout, exactly the
# line WANT on stderr (at once: an ignored option would let it trace on).
one_line_exit2() {
	local name=$1 want=$2
	shift 2
	timeout -s INT 10 "$LS" "$@" >"$out/o.out" 2>"$out/o.err"
	local rc=$?
	if [ "$rc" -eq 2 ] && [ ! -s "$out/o.out" ] &&
		[ "$(cat "$out/o.err")" = "$want" ]; then
		pass "$name: exit 2, '$want'"
	else
		fail "$name: exit $rc, stderr '$(cat "$out/o.err")', want '$want'"
	fi
}

# --- one misplaced option per command (no root needed) ---------------------
one_line_exit2 "options: top -d" \
	"lockscope: failed to parse --duration: top does not take this option" top -b -d 5
one_line_exit2 "options: hist --listen" \
	"lockscope: failed to parse --listen: hist does not take this option" hist --listen 127.0.0.1:9464
one_line_exit2 "options: doctor --json" \
	"lockscope: failed to parse --json: doctor does not take this option" doctor --json
one_line_exit2 "options: serve -d" \
	"lockscope: failed to parse --duration: serve does not take this option" serve -d 5
one_line_exit2 "options: record -n" \
	"lockscope: failed to parse --count: record does not take this option" record -o "$out/r.json" -n 3
one_line_exit2 "options: compare -L" \
	"lockscope: failed to parse --lock: compare does not take this option" compare -L genl a.json -- b.json
one_line_exit2 "options: empty lock filter" \
	"lockscope: failed to parse --lock '': must not be empty" hist -L ''
one_line_exit2 "options: unknown option" \
	"lockscope: failed to parse option '--bogus': unknown option" hist --bogus
one_line_exit2 "options: percent is not seconds" \
	"lockscope: failed to parse --threshold '1e1': not a valid value" compare --threshold 1e1 a.json -- b.json

# --- -p: a process that does not exist, or a thread, is bad input -----------
# (checked before anything is loaded: no root needed; pid_max is at most
# 4194304, so one of these is free)
nopid=
for p in 4194303 4194301 4194299 3999999; do
	[ ! -e "/proc/$p" ] && { nopid=$p; break; }
done
for cmd in "hist -d 1" "top -b -n 1" "record -o $out/p.json -d 1" "serve"; do
	one_line_exit2 "options: ${cmd%% *} -p of no process" \
		"lockscope: failed to find process $nopid (-p): no such process" $cmd -p "$nopid"
done
python3 -c 'import threading, time; threading.Thread(target=time.sleep, args=(30,), daemon=True).start(); time.sleep(30)' &
tp=$!
tid=
for _ in $(seq 50); do
	tid=$(ls "/proc/$tp/task" 2>/dev/null | grep -vx "$tp" | head -1)
	[ -n "$tid" ] && break
	sleep 0.1
done
if [ -n "$tid" ]; then
	timeout -s INT 10 "$LS" hist -d 1 -p "$tid" >"$out/o.out" 2>"$out/o.err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qx "lockscope: failed to find process $tid (-p): it is a thread, not a process" "$out/o.err" &&
		grep -q "hint: -p takes a process id: -p $tp " "$out/o.err"; then
		pass "options: -p of a thread: exit 2, the process named in the hint"
	else
		fail "options: -p of a thread: exit $rc: $(cat "$out/o.err")"
	fi
else
	skip "options: -p of a thread: no thread started"
fi
kill "$tp" 2>/dev/null
wait "$tp" 2>/dev/null

# --- a low open-file limit: named (EMFILE) with a hint, at every level --------
# (the object fails in different places: map creation, program load, the
# sampler's perf events; a low soft limit alone is raised to what is needed)
if need_root "options: ulimit -n"; then
	for n in 20 26 34; do
		(ulimit -n "$n" && exec "$LS" hist -d 1 -F 99) >/dev/null 2>"$out/nofile.err"
		rc=$?
		if [ $rc -eq 1 ] &&
			grep -qx "lockscope: failed to load BPF object: Too many open files: it needs about [0-9]* open files, the limit is $n" "$out/nofile.err" &&
			grep -q "hint: raise the open-file limit: ulimit -n [0-9]*" "$out/nofile.err"; then
			pass "options: ulimit -n $n: EMFILE named, with the files needed and a hint"
		else
			fail "options: ulimit -n $n: exit $rc: $(grep -v '^libbpf' "$out/nofile.err" | head -3)"
		fi
	done
	(ulimit -S -n 20 && exec "$LS" hist -d 0.3) >/dev/null 2>"$out/nofile.err"
	check "options: a soft open-file limit of 20 under a higher hard one is raised: hist runs" test $? -eq 0
fi

# --- exit status: PROGRAM's, or 127/126 when it cannot start ---------------
printf '#!/bin/sh\nexit 0\n' >"$out/noexec.sh"
chmod 644 "$out/noexec.sh"
if need_root "options: exit status"; then
	for cmd in "hist" "top -b" "record -o FILE"; do
		for c in "127 /nonexistent/prog" "126 $out/noexec.sh" "7 sh -c 'exit 7'" \
			"138 sh -c 'kill -USR1 \$\$'"; do
			want=${c%% *} prog=${c#* }
			# shellcheck disable=SC2086
			eval "\"\$LS\" ${cmd/FILE/$out/st.json} -F 0 -- $prog" >/dev/null 2>"$out/st.err"
			rc=$?
			lines=$(wc -l <"$out/st.err")
			if [ "$rc" -eq "$want" ] && { [ "$want" -lt 126 ] || [ "$want" -gt 127 ] || [ "$lines" -eq 1 ]; }; then
				pass "options: $cmd -- ${prog#"$out/"}: exit $rc"
			else
				fail "options: $cmd -- ${prog#"$out/"}: exit $rc, want $want: $(cat "$out/st.err")"
			fi
		done
	done
fi

# --- top -b -i 2 without -n: a frame every 2 s, not every 0.5 s -----------
if need_root "options: top -b -i"; then
	"$LS" top -b -i 2 -F 0 >"$out/top.txt" 2>"$out/top.err" &
	tp=$!
	frames() { grep -c '^lockscope top - ' "$out/top.txt"; }
	# the first frame at 0.2 s, the second 2 s after it (0.5 s after it
	# at a 0.5 s interval), then Ctrl-C: one more frame at most
	wait_for '[ "$(frames)" -ge 1 ]' 10
	t1=$EPOCHREALTIME
	wait_for '[ "$(frames)" -ge 2 ]' 10
	gap=$(awk -v a="$t1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
	kill -INT "$tp"
	wait "$tp"
	rc=$?
	n=$(frames)
	if [ "$rc" -eq 0 ] && [ "$n" -ge 2 ] && [ "$n" -le 3 ] &&
		awk -v g="$gap" 'BEGIN { exit !(g >= 1.5 && g <= 5) }'; then
		pass "options: top -b -i 2 without -n: the second frame ${gap} s after the first, $n frames with Ctrl-C's"
	else
		fail "options: top -b -i 2 without -n: the second frame ${gap} s after the first, $n frames (exit $rc): $(head -3 "$out/top.err")"
	fi
fi
