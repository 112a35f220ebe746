#!/usr/bin/env bash
# lockscope top, end to end: the full-screen view driven in tmux (send-keys,
# capture-pane) under real contention, and the batch frames.  Every check
# reads what is on the screen or in the output, from the real kernel.
. "$(dirname "$0")/../lib.sh"
W=$LS_ROOT/build
out=$LS_OUT/top
mkdir -p "$out"
rm -f "$out"/*

need_cmd "top" tmux || exit 0
need_cmd "top" stress-ng || exit 0
need_tracepoints "top" || exit 0

S=lstop$$ # a tmux server of our own, on its own socket
T() { tmux -L "$S" "$@"; }
cap() { T capture-pane -p -t "$1"; }
cleanup() {
	T kill-server 2>/dev/null
	[ -n "${load:-}" ] && kill "$load" 2>/dev/null && wait "$load" 2>/dev/null
	[ -n "${pipe:-}" ] && kill "$pipe" 2>/dev/null && wait "$pipe" 2>/dev/null
}
trap cleanup EXIT

# start NAME COLS ROWS ARGS...: lockscope ARGS in a pane; when it ends, the
# pane's shell records its exit status and the terminal's settings.
start() {
	local name=$1 cols=$2 rows=$3
	shift 3
	T new-session -d -s "$name" -x "$cols" -y "$rows" \
		"sh -c 'echo \$\$ >$out/$name.pid; exec $LS $*' 2>$out/$name.err; echo \$? >$out/$name.rc; stty -a >$out/$name.stty; sleep 120"
}
# wait_screen NAME PATTERN SECONDS: until the screen matches (grep -E)
wait_screen() {
	local i
	for i in $(seq $(($3 * 10))); do
		cap "$1" >"$out/$1.screen"
		grep -Eq -- "$2" "$out/$1.screen" && return 0
		sleep 0.1
	done
	return 1
}
# rows NAME: the lock rows on the screen (between the title bar and the
# status line), one per line
rows() {
	cap "$1" | awk '/^LOCK +KIND/ {on=1; next} on' | sed '$d' | sed '/^ *$/d'
}
# ended NAME SECONDS: lockscope has exited and the pane's shell took over
ended() {
	local i
	for i in $(seq $(($2 * 10))); do
		[ -s "$out/$1.stty" ] && return 0
		sleep 0.1
	done
	return 1
}
# sane NAME [RC]: after exit: status RC (0), normal screen, cooked mode
# with echo
sane() {
	local rc alt
	rc=$(cat "$out/$1.rc" 2>/dev/null)
	alt=$(T display -p -t "$1" '#{alternate_on}')
	if [ "$rc" = "${2:-0}" ] && [ "$alt" = 0 ] &&
		tr ' ;' '\n\n' <"$out/$1.stty" | grep -qx icanon &&
		tr ' ;' '\n\n' <"$out/$1.stty" | grep -qx echo; then
		return 0
	fi
	echo "rc=$rc alternate_on=$alt stty: $(head -c 300 "$out/$1.stty")"
	return 1
}

mount_tracefs
stress-ng --netlink-task 2 -t 60s >"$out/stress.out" 2>&1 &
load=$!

# --- the list: rows appear and change ------------------------------------
start a 100 30 top -v
# patience: on a busy machine the two netlink tasks contend only when both
# get a CPU at once
if wait_screen a '^mutex@genl_rcv_msg +mutex ' 20; then
	pass "top: the genl mutex row appears under netlink load"
else
	fail "top: no mutex@genl_rcv_msg row: $(head -12 "$out/a.screen")"
fi
# the issue's bar: the genl mutex at the top, with spin and sleep rates
top1=no
for _ in $(seq 25); do
	first=$(rows a | head -1)
	if [[ "$first" =~ ^mutex@genl_rcv_msg\ +mutex\ +[0-9.k]+\ +[0-9.]+\ +[0-9.]+\  ]]; then
		top1=yes
		break
	fi
	sleep 0.6
done
if [ $top1 = yes ]; then
	pass "top: mutex@genl_rcv_msg is the first row, with spin and sleep ms/s: $first"
else
	fail "top: first row is not the genl mutex: $(rows a | head -3)"
fi
h1=$(cap a | head -2)
r1=$(rows a)
wait_for '[ "$(cap a | head -2)" != "$h1" ] && [ "$(rows a)" != "$r1" ]' 5
h2=$(cap a | head -2)
r2=$(rows a)
if [ "$h1" != "$h2" ] && [ -n "$r2" ] && [ "$r1" != "$r2" ]; then
	pass "top: header and rows change between frames ($(head -1 <<<"$r1" | cut -c1-60) -> $(head -1 <<<"$r2" | cut -c1-60))"
else
	fail "top: frames did not change: '$r1' / '$r2'"
fi
hdr=$(cap a | head -9) # the losses line may wrap
if grep -q '^events/s: [0-9]* begins, [0-9]* ends' <<<"$hdr" &&
	grep -q '^losses: ' <<<"$hdr" &&
	grep -Eq '^spin: [0-9.]+% of CPU' <<<"$hdr" &&
	grep -Eq '^cost: begin [0-9]+ns end [0-9]+ns .*per run, BPF [0-9.]+% CPU, agent [0-9.]+% CPU' <<<"$hdr"; then
	pass "top: header has events/s, losses, spin share and cost: $(grep '^cost' <<<"$hdr")"
else
	fail "top: header incomplete: $hdr"
fi

# --- sorting: pause on a frame with the genl mutex, so that every order,
# the filter and the lock's page come from the same interval ------------
# On a quiet machine the genl mutex is often the only lock of an interval:
# a pipe mutex contends beside it for a few seconds (one writer, one reader)
"$W/pipe_hammer" 1 6 >/dev/null 2>&1 &
pipe=$!
genl='^mutex@genl_rcv_msg +mutex +([0-9]{3,}|[0-9.]+[kM]) '
paused=no
for _ in $(seq 20); do
	# a frame where the genl mutex was contended (CONT/s of 100 or more)
	wait_screen a "$genl" 3 || continue
	T send-keys -t a p
	wait_screen a '^lockscope top \[PAUSED\]' 1
	# ... and another lock beside it, so that the orders below can differ
	if cap a | grep -q '^lockscope top \[PAUSED\]' &&
		rows a | grep -Eq "$genl" && [ "$(rows a | wc -l)" -ge 2 ]; then
		paused=yes
		break
	fi
	T send-keys -t a p # a new frame came first: resume and try again
done
# no frame had two locks: pause on one with the genl mutex alone (the
# orders below then have one row and are skipped, not failed)
if [ $paused = no ] && wait_screen a "$genl" 5; then
	T send-keys -t a p
	wait_screen a '^lockscope top \[PAUSED\]' 1
	cap a | grep -q '^lockscope top \[PAUSED\]' && rows a | grep -Eq "$genl" &&
		paused=one
fi
if [ $paused != no ]; then
	pass "top: p pauses (header says [PAUSED]) on a frame with the genl mutex"
else
	fail "top: could not pause on a frame with the genl mutex: $(cap a | head -12)"
fi
for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do T send-keys -t a '<'; done
T send-keys -t a '>'
wait_screen a 'sort: lock name' 2
names=$(rows a | awk '{print $1}')
if [ $paused = one ]; then
	skip "top: name order: the paused frame has one lock row"
elif cap a | grep -q 'sort: lock name' && [ "$(wc -l <<<"$names")" -ge 2 ] &&
	LC_ALL=C sort -c <<<"$names" 2>/dev/null; then
	pass "top: '>' sorts by name: $(wc -l <<<"$names") rows in name order"
else
	fail "top: name order wrong: $(tail -1 "$out/a.screen") / $names"
fi
T send-keys -t a r
sleep 0.4
rnames=$(rows a | awk '{print $1}')
if [ $paused = one ]; then
	skip "top: reversed order: the paused frame has one lock row"
elif [ "$rnames" != "$names" ] && LC_ALL=C sort -rc <<<"$rnames" 2>/dev/null; then
	pass "top: 'r' reverses the order"
else
	fail "top: reversed order wrong: $rnames"
fi
T send-keys -t a '>' '>' # name -> kind -> CONT/s (reverse off again)
wait_screen a 'sort: contentions/s' 2
# CONT/s is the third column; "12k" means 12000
counts=$(rows a | awk '{v=$3; if (v ~ /k$/) v=v*1000; if (v ~ /M$/) v=v*1000000; print v+0}')
# each key orders the rows its own way: by name above, by count here
if [ $paused = one ]; then
	skip "top: CONT/s order: the paused frame has one lock row"
elif cap a | grep -q 'sort: contentions/s' && [ "$(wc -l <<<"$counts")" -ge 2 ] &&
	sort -grc <<<"$counts" 2>/dev/null; then
	pass "top: sorting by CONT/s reorders the rows, counts descend: $(head -3 <<<"$counts" | tr '\n' ' ')"
else
	fail "top: CONT/s order: $counts"
fi
T send-keys -t a s
wait_screen a '^Sort by:' 2
if cap a | grep -q '^Sort by:'; then
	T send-keys -t a Down Enter # contentions/s -> spin ms/s
	wait_screen a 'sort: spin ms/s' 2
	spins=$(rows a | awk '{print $4}')
	if cap a | grep -q 'sort: spin ms/s' && sort -grc <<<"$spins" 2>/dev/null; then
		pass "top: the sort menu (s) sorts by spin ms/s"
	else
		fail "top: sort menu: $(tail -1 "$out/a.screen") $spins"
	fi
else
	fail "top: 's' shows no sort menu"
fi

# --- filter ---------------------------------------------------------------
before=$(rows a)
T send-keys -t a / g e n l
wait_screen a 'genl' 2
T send-keys -t a Enter
wait_screen a 'filter: genl' 2
frows=$(rows a)
# the header counts the rows: "locks: SHOWN of CONTENDED"
read -r shown of_all < <(cap a | sed -n 's/.*locks: \([0-9]*\) of \([0-9]*\).*/\1 \2/p')
if [ -n "$frows" ] && ! grep -qv genl <<<"$frows" && [ "$(wc -l <<<"$frows")" -eq "${shown:-0}" ] &&
	{ [ "${shown:-0}" -lt "${of_all:-0}" ] || ! grep -qv genl <<<"$before"; } &&
	cap a | grep -q 'filter: genl'; then
	pass "top: '/genl' keeps the $shown of $of_all rows whose name has genl"
else
	fail "top: filter: ${shown:-?} of ${of_all:-?} rows -> $frows"
fi

# --- detail: histograms, callers, owner -----------------------------------
T send-keys -t a Enter # open the genl mutex (still paused)
# wait for the histogram's rows, the page's last lines: a capture taken
# while the page is being drawn has its first lines only
if wait_screen a '^ +[0-9.]+[num]?s -> ' 3 &&
	grep -q '^mutex@genl_rcv_msg (mutex)' "$out/a.screen" &&
	grep -q '^wait histogram' "$out/a.screen" &&
	grep -Eq '^callers \([0-9]+ sampled stacks.*genl_rcv_msg [0-9]+%' "$out/a.screen" &&
	grep -q '^  contentions ' "$out/a.screen" &&
	grep -Eq '^ +[0-9.]+[num]?s -> ' "$out/a.screen"; then
	pass "top: Enter opens the lock: counts, callers, histogram"
else
	fail "top: detail view: $(cat "$out/a.screen")"
fi
# the owner word of the genl mutex names a stress-ng task when it is held
# ('o' reads it now, paused or not)
seen=""
bad=""
for _ in $(seq 250); do
	T send-keys -t a o
	sleep 0.08
	line=$(cap a | grep '^owner: ')
	case "$line" in
	"owner: tid "*"(stress-ng-netli"*) seen=$line; break ;;
	"owner: none, the lock was free"*) ;;
	*) bad=$line; break ;;
	esac
done
if [ -n "$seen" ]; then
	pass "top: owner of the genl mutex read from its owner word: $seen"
elif [ -n "$bad" ]; then
	fail "top: owner line: $bad"
else
	fail "top: the genl mutex was never seen held in 250 reads"
fi
T send-keys -t a Escape p # back to the list, resume
if wait_screen a '^LOCK +KIND' 2; then
	pass "top: Esc closes the lock and returns to the list"
else
	fail "top: Esc did not return to the list: $(head -5 "$out/a.screen")"
fi
T send-keys -t a '?'
if wait_screen a '^Keys' 2 && { T send-keys -t a x; wait_screen a '^LOCK +KIND' 2; }; then
	pass "top: '?' shows help, a key returns"
else
	fail "top: help: $(head -5 "$out/a.screen")"
fi

# --- resize: 100x30 -> 80x24 -> 130x30 -----------------------------------
T resize-window -t a -x 80 -y 24
sleep 0.5
cap a >"$out/a80.screen"
T resize-window -t a -x 130 -y 30
sleep 0.5
cap a >"$out/a130.screen"
long=$(awk 'length($0) > 80' "$out/a80.screen" | wc -l)
if [ "$(wc -l <"$out/a80.screen")" -eq 24 ] && [ "$long" -eq 0 ] &&
	grep -q '^LOCK .*WON%$' "$out/a80.screen" &&
	grep -q '^LOCK .*WON% PRE% BLK% CALLER' "$out/a130.screen" &&
	tail -1 "$out/a80.screen" | grep -q 'q quit\|sort:'; then
	pass "top: follows resizes (80x24 without, 130 columns with PRE%, BLK% and CALLER)"
else
	fail "top: resize: $(head -8 "$out/a80.screen")"
fi

# --- q: exit 0, terminal restored; libbpf messages printed after ----------
T send-keys -t a q
if ended a 3 && sane a; then
	pass "top: q exits 0 and leaves a sane terminal (normal screen, icanon echo)"
else
	fail "top: after q: $(sane a)"
fi
# -v: libbpf's messages while the screen was up (the owner reader's load)
# come out on stderr after the screen is gone, never on the screen
if grep -q "^libbpf: .*owner_bpf" "$out/a.err" && ! grep -q '^libbpf' "$out"/a*.screen; then
	pass "top: libbpf messages collected during the screen, printed after ($(grep -c '^libbpf' "$out/a.err") lines)"
else
	fail "top: libbpf messages: $(grep -c libbpf "$out/a.err") in stderr"
fi

# --- waiting tasks with pid/comm: the mmap_lock hammer, run by top ------
start b 100 40 top -L mmap_lock -- "$W/mmap_hammer" 4 8
if wait_screen b '^(mm_struct\.)?mmap_lock +rwsem:W ' 5; then
	T send-keys -t b Enter
	got=""
	for _ in $(seq 40); do
		sleep 0.15
		if cap b | grep -Eq '^ +[0-9]+ +[0-9]+  mmap_hammer +(spin|sleep) +[0-9.]+[nmu]?s$'; then
			got=$(cap b | grep -E '^ +[0-9]+ +[0-9]+  mmap_hammer' | head -1)
			break
		fi
	done
	pid=$(pgrep -x mmap_hammer -P "$(cat "$out/b.pid")" | head -1)
	if [ -n "$got" ] && [ "$(awk '{print $2}' <<<"$got")" = "$pid" ]; then
		pass "top: waiting tasks listed with tid, pid $pid and comm: $got"
	else
		fail "top: no mmap_hammer waiter (pid ${pid:-?}): $(cap b | grep -A4 '^waiting')"
	fi
	# Ctrl-C ends top, and top ends the program (in its own process
	# group, out of the terminal's reach): lockscope ended it, exit 0
	T send-keys -t b C-c
	if ended b 4 && sane b 0 && ! kill -0 "$pid" 2>/dev/null; then
		pass "top: Ctrl-C ends the program, exits 0 and restores the terminal"
	else
		fail "top: after Ctrl-C: $(sane b 0), program $pid $(kill -0 "$pid" 2>/dev/null && echo still runs)"
	fi
	if grep -q '^lockscope: the output of' "$out/b.err" || [ ! -s "$out/b.err" ]; then
		pass "top: the program's output stayed off the screen"
	else
		fail "top: stderr after PROGRAM: $(head -3 "$out/b.err")"
	fi
else
	fail "top: no mmap_lock row under mmap_hammer: $(head -12 "$out/b.screen")"
fi

# --- SIGTERM, and -n ------------------------------------------------------
start c 80 24 top
if wait_screen c '^LOCK +KIND' 4; then
	kill -TERM "$(cat "$out/c.pid")"
	if ended c 3 && sane c; then
		pass "top: SIGTERM exits 0 and restores the terminal"
	else
		fail "top: after SIGTERM: $(sane c)"
	fi
else
	fail "top: no screen: $(cat "$out/c.screen")"
fi
start e 80 24 top
if wait_screen e '^LOCK +KIND' 4; then
	T send-keys -t e C-c
	if ended e 3 && sane e; then
		pass "top: Ctrl-C exits 0 and restores the terminal"
	else
		fail "top: after Ctrl-C: $(sane e)"
	fi
else
	fail "top: no screen: $(cat "$out/e.screen")"
fi
start d 80 24 top -n 2 -i 0.3
if ended d 5 && sane d; then
	pass "top: -n 2 ends by itself after two frames"
else
	fail "top: -n 2 did not end cleanly: $(sane d)"
fi
# a terminal that cannot hold the screen: plain text frames, and why
for term in dumb no-such-terminal unset; do
	case $term in
	dumb) why="terminal type 'dumb' cannot move the cursor or clear the screen" ;;
	no-such-terminal) why="terminal type 'no-such-terminal' is unknown to terminfo" ;;
	unset) why="TERM is not set" ;;
	esac
	if [ "$term" = unset ]; then
		env -u TERM script -qec "$LS top -n 2 -i 0.3" /dev/null >"$out/term.out" 2>&1
	else
		TERM=$term script -qec "$LS top -n 2 -i 0.3" /dev/null >"$out/term.out" 2>&1
	fi
	rc=$?
	n=$(grep -c '^lockscope top - ' "$out/term.out")
	if [ $rc -eq 0 ] && grep -q "^lockscope: no full-screen view: $why; printing plain text frames (-b)" "$out/term.out" &&
		[ "$n" -eq 2 ] && ! grep -q $'\033' "$out/term.out"; then
		pass "top: TERM $term -> plain text frames ($n), the reason said, no escape sequences"
	else
		fail "top: TERM $term: exit $rc, $n frames: $(head -3 "$out/term.out" | cat -v)"
	fi
done

# --- batch: -b and non-terminal stdout print frames that parse ------------
"$LS" top -b -n 3 -i 0.5 >"$out/batch.txt" 2>"$out/batch.err"
rc=$?
"$LS" top -n 2 -i 0.3 >"$out/pipe.txt" 2>&1 </dev/null
rc2=$?
if python3 - "$out/batch.txt" "$out/pipe.txt" <<'EOF'; then
import re, sys
def frames(path):
    fr = []
    for blk in open(path).read().split("\n\n"):
        if not blk.strip():
            continue
        lines = blk.strip("\n").split("\n")
        assert re.match(r"lockscope top - \d\d:\d\d:\d\d  interval [0-9.]+s  sources: ", lines[0]), lines[0]
        assert re.match(r"events/s: \d+ begins, \d+ ends; spin CPU share [0-9.]+%; losses: ", lines[1]), lines[1]
        if lines[2].startswith("steal "):  # KVM guests: hypervisor time
            assert re.match(r"steal \(CPU time the hypervisor took\): ", lines[2]), lines[2]
            del lines[2]
        assert lines[2].startswith("cost: "), lines[2]
        assert lines[3].split()[:3] == ["LOCK", "KIND", "CONT/s"], lines[3]
        rows = []
        for l in lines[4:]:
            name, kind = l[:32].strip(), l[33:42].strip()
            f = l[42:].split()
            cont, spin, sleep = float(f[0]), float(f[1]), float(f[2])
            # AVG and MAX as on the full screen: "-" without a wait
            dur = r"(-|<?[0-9.]+(ns|us|ms|s))$"
            assert re.match(dur, f[3]) and re.match(dur, f[4]), l
            assert f[3] != "-" or cont == 0, l
            int(f[5]); int(f[6])
            rows.append((name, kind, cont, spin, sleep))
        fr.append(rows)
    return fr
b, p = frames(sys.argv[1]), frames(sys.argv[2])
assert len(b) == 3 and len(p) == 2, (len(b), len(p))
rows = [r for fr in b + p for r in fr]
assert rows and max(r[2] for r in rows) > 0, rows
top = max(rows, key=lambda r: r[2])
print("batch: %d + %d frames parse, %d rows; busiest %s (%s) %.0f/s, spin %.2f ms/s" %
      (len(b), len(p), len(rows), top[0], top[1], top[2], top[3]))
EOF
	if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && ! grep -q $'\e' "$out/pipe.txt"; then
		pass "top: -b -n 3 and piped stdout print plain frames that parse"
	else
		fail "top: batch exit $rc / piped exit $rc2"
	fi
else
	fail "top: batch frames do not parse: $(head -6 "$out/batch.txt")"
fi
