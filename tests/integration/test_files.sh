#!/usr/bin/env bash
# tests/integration/test_files.sh - nothing clobbered, nothing lost, no
# child left behind: record -o writes regular files atomically and devices,
# FIFOs and links to them in place; bad paths fail before PROGRAM runs; an
# output that names an input or another output is bad input;
# write errors on standard output are errors with their reason; PROGRAM's
# process group ends with lockscope, and the exit status rule.
. "$(dirname "$0")/../lib.sh"

O=$LS_OUT/files
rm -rf "$O"
mkdir -p "$O"
D=$LS_ROOT/tests/data
GRACE=2 # LS_CHILD_GRACE_S in user/cmd/run.h
kids=()
mounted=
cleanup() {
	for p in "${kids[@]}"; do kill -KILL "$p" 2>/dev/null; done
	[ -n "$mounted" ] && umount "$O/ro" 2>/dev/null
	# a regression must not leave this machine without /dev/null
	if [ "$(id -u)" = 0 ]; then
		[ -c /dev/null ] || { rm -f /dev/null && mknod -m 666 /dev/null c 1 3; }
		[ -L /dev/stdout ] || { rm -f /dev/stdout && ln -s /proc/self/fd/1 /dev/stdout; }
	fi
	return 0
}
trap cleanup EXIT

# one_error FILE: FILE holds one "lockscope: failed to" line
one_error() {
	[ "$(wc -l <"$1")" -eq 1 ] && grep -q '^lockscope: failed to ' "$1"
}
# json_ok FILE: FILE is one whole record
json_ok() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["schema"] == "lockscope-record" else 1)' "$1" 2>/dev/null
}
# dead PID: gone or a zombie (dead, waiting for its reaper)
dead() {
	local s
	s=$(sed -n 's/^.*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null)
	[ -z "$s" ] || [ "$s" = Z ]
}
# left TAG: processes whose command line holds TAG (not zombies)
left() {
	local n=0 p
	for p in $(pgrep -f -- "$1"); do dead "$p" || n=$((n + 1)); done
	echo "$n"
}

# ---- bad paths: one line, exit 2, before PROGRAM runs (no root needed) ----
mkdir -p "$O/dir"
: >"$O/plain"
long=$(printf 'n%.0s' $(seq 256))
bad=("" "$O/dir" "$O/dir/" "$O/missing/rec.json" "$O/plain/rec.json" "$O/$long")
why=("empty" "existing directory" "name ending in /" "missing directory"
	"file as a directory" "256-byte name")
if [ "$(id -u)" = 0 ] && mkdir -p "$O/ro" && mount -t tmpfs -o ro,size=64k none "$O/ro" 2>/dev/null; then
	mounted=1
	bad+=("$O/ro/rec.json")
	why+=("read-only directory")
fi
if [ -b /dev/loop0 ]; then
	bad+=(/dev/loop0)
	why+=("block device")
fi
for i in "${!bad[@]}"; do
	rm -f "$O/marker"
	t0=$EPOCHREALTIME
	"$LS" record -o "${bad[$i]}" -d 5 -- touch "$O/marker" >"$O/bad.out" 2>"$O/bad.err"
	rc=$?
	dt=$(elapsed "$t0" "$EPOCHREALTIME")
	if [ $rc -eq 2 ] && one_error "$O/bad.err" && [ ! -e "$O/marker" ] && under "$dt" 2; then
		pass "record -o bad path (${why[$i]}): exit 2 in ${dt}s, PROGRAM never ran: $(cat "$O/bad.err")"
	else
		fail "record -o bad path (${why[$i]}): exit $rc after ${dt}s, marker $([ -e "$O/marker" ] && echo created || echo absent): $(head -2 "$O/bad.err")"
	fi
done
check "record -o bad paths: nothing left behind" \
	bash -c "[ -z \"\$(find '$O' -name '.*' ! -name . -print -quit)\" ] && [ ! -e '$O/dir/rec.json' ]"

# ---- an output naming an input or another output: exit 2, one line, -----
# ---- nothing written (by text, through ./ and symbolic links) ------------
mkdir -p "$O/same"
cp "$D/record-base1.json" "$O/same/base.json"
cp "$D/record-new1.json" "$O/same/new.json"
ln -sf base.json "$O/same/link.json"
printf 'keep\n' >"$O/same/F"
cp "$LS_ROOT/tests/data/kallsyms/$(ls "$LS_ROOT/tests/data/kallsyms" | head -1)" "$O/same/K"
sums() { (cd "$O/same" && md5sum base.json new.json F K && readlink link.json && ls -A); }
before=$(sums)
same_out() { # WHAT ARGS...: lockscope ARGS (in $O/same) must refuse
	local what=$1
	shift
	rm -f "$O/marker"
	(cd "$O/same" && "$LS" "$@" >"$O/same.out" 2>"$O/same.err")
	local rc=$?
	if [ $rc -eq 2 ] && one_error "$O/same.err" && [ "$(sums)" = "$before" ] && [ ! -e "$O/marker" ]; then
		pass "$what: exit 2, nothing written: $(cat "$O/same.err")"
	else
		fail "$what: exit $rc, files $([ "$(sums)" = "$before" ] && echo kept || echo CHANGED): $(head -2 "$O/same.err")"
	fi
}
same_out "report -o base.json base.json" report -o base.json base.json
same_out "report -o new.json base.json -- new.json" report -o new.json base.json -- new.json
same_out "report -o ./base.json base.json" report -o ./base.json base.json
same_out "report -o a symbolic link to its input" report -o link.json base.json
same_out "report -o the input by its absolute path" report -o "$O/same/base.json" base.json
same_out "record --folded F -o F" record --folded F -o F -d 1 -- touch "$O/marker"
same_out "record --folded ./F -o F" record --folded ./F -o F -d 1 -- touch "$O/marker"
same_out "record --folded NEW -o ./NEW (neither there yet)" record --folded NEW -o ./NEW -d 1 -- touch "$O/marker"
same_out "record -o K --kallsyms K" record -o K --kallsyms K -d 1 -- touch "$O/marker"
same_out "hist --folded K --kallsyms ./K" hist --folded K --kallsyms ./K -d 1 -- touch "$O/marker"
(cd "$O/same" && "$LS" report -o page.html base.json -- new.json >/dev/null 2>"$O/same.err")
check "report -o a file that is no input: exit 0, the page written ($(head -1 "$O/same.err"))" \
	bash -c "[ -s '$O/same/page.html' ] && [ \"\$(cd '$O/same' && md5sum base.json new.json)\" = \"\$(printf '%s\n' '$before' | head -2)\" ]"

# ---- write errors on standard output: the reason, exit 1 ------------------
nospc='^lockscope: failed to write standard output: No space left on device$'
full() { # NAME ARGS...: lockscope ARGS with stdout on /dev/full
	local name=$1
	shift
	"$LS" "$@" >/dev/full 2>"$O/full.err"
	local rc=$?
	if [ $rc -eq 1 ] && one_error "$O/full.err" && grep -q "$nospc" "$O/full.err"; then
		pass "stdout on /dev/full: $name exits 1: $(cat "$O/full.err")"
	else
		fail "stdout on /dev/full: $name exits $rc: $(head -2 "$O/full.err")"
	fi
}
B=("$D/record-base1.json" "$D/record-base2.json")
N=("$D/record-new1.json" "$D/record-new2.json")
full "compare --format json" compare --format json "${B[@]}" -- "${N[@]}"
full "compare (text)" compare "${B[@]}" -- "${N[@]}"
full "compare --format csv" compare --format csv "${B[@]}" -- "${N[@]}"

need_tracepoints "files" || exit 0

full "hist" hist -d 0.3
full "hist --json" hist --json -d 0.3
full "top -b" top -b -n 1 -i 0.3
full "doctor" doctor
full "record -o -" record -o - -d 0.3
"$LS" record -o /dev/full -d 0.3 2>"$O/full.err"
rc=$?
if [ $rc -eq 1 ] && one_error "$O/full.err" &&
	grep -q "^lockscope: failed to write file '/dev/full': No space left on device$" "$O/full.err"; then
	pass "record -o /dev/full exits 1: $(cat "$O/full.err")"
else
	fail "record -o /dev/full exits $rc: $(head -2 "$O/full.err")"
fi
# top -b without -n stops at the first failed frame
timeout 10 "$LS" top -b -i 0.2 >/dev/full 2>"$O/full.err"
rc=$?
check "top -b without -n on /dev/full stops, exit 1 (was: forever)" \
	bash -c "[ $rc -eq 1 ] && grep -q '$nospc' '$O/full.err'"

# ---- record -o: never replace what is not a regular file -----------------
"$LS" record -o /dev/null -d 0.3 2>"$O/null.err"
rc=$?
check "record -o /dev/null: exit 0, /dev/null still a character device" \
	bash -c "[ $rc -eq 0 ] && [ -c /dev/null ] && [ \"\$(stat -c %t:%T /dev/null)\" = 1:3 ]"
# the same on a device node of our own (what the old code renamed over)
mknod "$O/null" c 1 3
"$LS" record -o "$O/null" -d 0.3 2>/dev/null
rc=$?
check "record -o a device node: exit 0, the node stays a device" \
	bash -c "[ $rc -eq 0 ] && [ -c '$O/null' ]"
ln -s null "$O/null-link"
"$LS" record -o "$O/null-link" -d 0.3 2>/dev/null
check "record -o a link to a device: the link and the device stay" \
	bash -c "[ $? -eq 0 ] && [ -L '$O/null-link' ] && [ -c '$O/null' ]"
"$LS" record -o /dev/stdout -d 0.3 2>"$O/stdout.err" | cat >"$O/piped.json"
rc=${PIPESTATUS[0]}
if [ "$rc" -eq 0 ] && json_ok "$O/piped.json" && [ -L /dev/stdout ]; then
	pass "record -o /dev/stdout into a pipe: the record came through ($(wc -c <"$O/piped.json") bytes), /dev/stdout still a link"
else
	fail "record -o /dev/stdout into a pipe: exit $rc, $(wc -c <"$O/piped.json") bytes: $(head -2 "$O/stdout.err")"
fi
mkfifo "$O/fifo"
timeout 30 cat "$O/fifo" >"$O/fifo.json" &
reader=$!
kids+=("$reader")
"$LS" record -o "$O/fifo" -d 0.3 2>"$O/fifo.err"
rc=$?
wait "$reader"
if [ $rc -eq 0 ] && [ -p "$O/fifo" ] && json_ok "$O/fifo.json"; then
	pass "record -o FIFO: still a FIFO, its reader got the record ($(wc -c <"$O/fifo.json") bytes)"
else
	fail "record -o FIFO: exit $rc, FIFO $([ -p "$O/fifo" ] && echo kept || echo replaced): $(head -2 "$O/fifo.err")"
fi
echo old >"$O/target.json"
chmod 640 "$O/target.json"
ln -s target.json "$O/link.json"
"$LS" record -o "$O/link.json" -d 0.3 2>/dev/null
rc=$?
check "record -o a link to a regular file: the link stays, the target is replaced (mode kept)" \
	bash -c "[ $rc -eq 0 ] && [ -L '$O/link.json' ] && [ \"\$(readlink '$O/link.json')\" = target.json ] &&
	[ \"\$(stat -c %a '$O/target.json')\" = 640 ]" &&
	check "record -o a link to a regular file: the target holds the record" json_ok "$O/target.json"
long=$(printf 'r%.0s' $(seq 250)).json
"$LS" record -o "$O/$long" -d 0.3 2>"$O/long.err"
rc=$?
if [ $rc -eq 0 ] && json_ok "$O/$long"; then
	pass "record -o a 255-byte name: written (the temporary name fits)"
else
	fail "record -o a 255-byte name: exit $rc: $(head -2 "$O/long.err")"
fi
check "record -o: no temporary file left" \
	bash -c "[ -z \"\$(find '$O' -name '.*' ! -name . -print -quit)\" ]"

# SIGKILL during record leaves its temporary file: named for the record
# and the pid, and removed (and said) by the next record of the same file,
# while one a running record holds stays
if [ "$(id -u)" = 0 ]; then
	"$LS" record -o "$O/killed.json" -- sleep 30 >/dev/null 2>"$O/killed.err" &
	p=$!
	kids+=("$p")
	tmpf=
	for _ in $(seq 100); do
		tmpf=$(find "$O" -maxdepth 1 -name ".killed.json.lockscope-$p.*" -print -quit)
		[ -n "$tmpf" ] && [ -n "$(pgrep -P "$p")" ] && break
		sleep 0.05
	done
	kill -KILL "$p"
	wait "$p" 2>/dev/null
	pkill -KILL -P "$p" 2>/dev/null
	if [ -n "$tmpf" ] && [ -f "$tmpf" ]; then
		pass "record killed by SIGKILL: its temporary file names the record and the pid ($(basename "$tmpf"))"
	else
		fail "record killed by SIGKILL: no .killed.json.lockscope-$p.* file"
	fi
	"$LS" record -o "$O/killed.json" -d 1 -- sleep 5 >/dev/null 2>"$O/killed.err" &
	p2=$!
	kids+=("$p2")
	held=
	for _ in $(seq 100); do
		held=$(find "$O" -maxdepth 1 -name ".killed.json.lockscope-$p2.*" -print -quit)
		[ -n "$held" ] && break
		sleep 0.05
	done
	"$LS" record -o "$O/killed.json" -d 0.3 2>"$O/killed2.err"
	rc=$?
	wait "$p2"
	rc2=$?
	if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ ! -e "$tmpf" ] && json_ok "$O/killed.json" &&
		grep -q "^lockscope: removed '\.killed\.json\.lockscope-$p\..*left by lockscope pid $p" "$O/killed.err" "$O/killed2.err" &&
		! grep -q "lockscope-$p2" "$O/killed2.err"; then
		pass "the next record -o of that file removes it and says so; a running record's is left alone"
	else
		fail "stale temporary file: exit $rc/$rc2, '$tmpf' $([ -e "$tmpf" ] && echo still there): $(cat "$O/killed.err" "$O/killed2.err" | head -3)"
	fi
	check "record -o after SIGKILL: no temporary file left" \
		bash -c "[ -z \"\$(find '$O' -name '.*' ! -name . -print -quit)\" ]"
fi

# ---- PROGRAM's process group ends with lockscope ------------------------
# -d expiry: a group that ignores SIGTERM gets SIGKILL after the grace
tag=30.101
t0=$EPOCHREALTIME
"$LS" hist -d 1 -- sh -c "trap '' TERM; sleep $tag & sleep $tag; wait" >"$O/grace.out" 2>"$O/grace.err"
rc=$?
dt=$(elapsed "$t0" "$EPOCHREALTIME")
n=$(left "sleep $tag")
if [ $rc -eq 0 ] && [ "$n" -eq 0 ] && under "$dt" $((1 + GRACE + 2)) && grep -q '^lockscope hist:' "$O/grace.out"; then
	pass "hist -d 1 -- PROGRAM ignoring SIGTERM: ended in ${dt}s (grace ${GRACE}s), exit 0, no process left"
else
	fail "hist -d 1 -- PROGRAM ignoring SIGTERM: exit $rc after ${dt}s, $n left: $(head -2 "$O/grace.err")"
	pkill -KILL -f "sleep $tag"
fi
# PROGRAM ended by itself, a background job of its group is ended too
tag=30.102
"$LS" hist -d 10 -- sh -c "sleep $tag & exit 3" >/dev/null 2>"$O/bg.err"
rc=$?
n=$(left "sleep $tag")
check "hist -- PROGRAM exiting 3 with a job in the background: exit 3, no process left ($n)" \
	bash -c "[ $rc -eq 3 ] && [ $n -eq 0 ]"
pkill -KILL -f "sleep $tag"
# SIGKILL of lockscope: the kernel ends PROGRAM (PR_SET_PDEATHSIG)
tag=30.103
"$LS" hist -- sleep "$tag" >/dev/null 2>&1 &
p=$!
kids+=("$p")
prog=
for _ in $(seq 100); do
	prog=$(pgrep -f "^sleep $tag")
	[ -n "$prog" ] && break
	sleep 0.05
done
kill -KILL "$p"
wait "$p" 2>/dev/null
for _ in $(seq 20); do
	dead "$prog" && break
	sleep 0.05
done
if [ -n "$prog" ] && dead "$prog"; then
	pass "SIGKILL of lockscope: PROGRAM $prog died with it"
else
	fail "SIGKILL of lockscope: PROGRAM '${prog}' still runs"
	[ -n "$prog" ] && kill -KILL "$prog"
fi

# ---- exit status: 0 when lockscope ended PROGRAM, else PROGRAM's ---------
for cmd in hist record; do
	case $cmd in
	hist) args=(hist) ;;
	record) args=(record -o "$O/status.json") ;;
	esac
	"$LS" "${args[@]}" -d 1 -- sleep 5 >/dev/null 2>&1
	rc=$?
	check "$cmd -d 1 -- sleep 5: lockscope ended it, exit 0 (was 143)" test $rc -eq 0
	"$LS" "${args[@]}" -- sh -c 'exit 3' >/dev/null 2>&1
	check "$cmd -- PROGRAM exiting 3: exit 3" test $? -eq 3
	"$LS" "${args[@]}" -- sh -c 'kill -TERM $$' >/dev/null 2>&1
	check "$cmd -- PROGRAM killed by SIGTERM by itself: exit 143" test $? -eq 143
	"$LS" "${args[@]}" -- sleep 30 >/dev/null 2>&1 &
	p=$!
	kids+=("$p")
	for _ in $(seq 100); do
		[ -n "$(pgrep -P "$p")" ] && break
		sleep 0.05
	done
	sleep 0.2
	kill -INT "$p"
	wait "$p"
	check "$cmd -- sleep 30, interrupted (SIGINT): exit 0" test $? -eq 0
done
# the file tells what happened: interrupted, PROGRAM ended by lockscope's
# SIGTERM (its own status, 143)
check "record interrupted: the file says so and keeps PROGRAM's status 143" \
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d['run']['interrupted'] and d['run']['exit_status'] == 143 else 1)" "$O/status.json"
