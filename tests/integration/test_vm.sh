#!/usr/bin/env bash
# Guest tier: the same ./lockscope binary, built here, inside Debian's stock
# generic and PREEMPT_RT kernels under qemu (TCG): function probes (fentry and
# kprobe on every clone), their numbers on the right locks, static locks named
# by symbol, and a clean kernel log.
. "$(dirname "$0")/../lib.sh"
vm=$LS_ROOT/tests/vm
. "$vm/lib.sh" # vm_needs, section, pyjson
out=$LS_OUT/vm
mkdir -p "$out"

vm_needs "vm" qemu-system-x86_64 busybox apt-get || exit 0

# boot_guest FLAVOUR: fetch its kernel, build its initramfs and boot it,
# leaving $out/FLAVOUR.{log,err} and the outcome in $out/FLAVOUR.rc ("fetch",
# "initrd" or boot.sh's exit status).  The x86 guests run their vCPUs in one
# host thread each (boot.sh): both boot at once, one host CPU each, and the
# guests' limits are of their own CPU time, not of the wall clock.
boot_guest() {
	local fl=$1 k initrd="$out/$1.initrd.gz" extra="" bins sections=""
	if ! k=$("$vm/fetch-kernel.sh" "$fl" 2>"$out/$fl.fetch.err"); then
		echo fetch >"$out/$fl.rc"
		return
	fi
	echo "$k" >"$out/$fl.kernel"
	bins="$LS $LS_ROOT/build/mmap_hammer $LS_ROOT/build/pipe_hammer"
	command -v stress-ng >/dev/null && bins="$bins $(command -v stress-ng)"
	# shellcheck disable=SC2086
	if ! LS_VM_EXTRA="$extra" "$vm/mkinitrd.sh" "$initrd" "$vm/guest-payload.sh" \
		$bins >"$out/$fl.mkinitrd.log" 2>&1; then
		echo initrd >"$out/$fl.rc"
		return
	fi
	# the rt guest runs only the sections read below (tests/vm/payload-lib.sh),
	# not the probe-only and kprobe doctors, kallsyms-locking nor netlink,
	# 4 to 8 s of emulation each (its probes make no rows: it had no
	# equivalence runs anyway)
	[ "$fl" = rt-amd64 ] && sections=doctor,mmap,pipe-hold,pipe-kprobe,cgroup,whatif
	LS_VM_APPEND="${LS_VM_APPEND:-}${sections:+ lsvm.sections=$sections}" \
		"$vm/boot.sh" "$k" "$initrd" 400 >"$out/$fl.log" 2>"$out/$fl.err"
	echo $? >"$out/$fl.rc"
}

run_guest() { # run_guest FLAVOUR PID: wait for boot_guest's PID, report
	local fl=$1 rc
	wait "$2"
	rc=$(cat "$out/$fl.rc" 2>/dev/null)
	case $rc in
	fetch)
		skip "vm $fl: kernel image unavailable: $(tail -1 "$out/$fl.fetch.err")"
		return 1
		;;
	initrd)
		fail "vm $fl: initramfs: $(tail -1 "$out/$fl.mkinitrd.log")"
		return 1
		;;
	0) pass "vm $fl: booted $(basename "$(cat "$out/$fl.kernel")"), ran lockscope, kernel log clean" ;;
	4) fail "vm $fl: kernel log has BUG/WARNING/Oops: $(head -3 "$out/$fl.err")" ;;
	*)
		fail "vm $fl: boot.sh exit ${rc:-?}: $(tail -3 "$out/$fl.err")"
		return 1
		;;
	esac
}

rm -f "$out"/amd64.rc "$out"/rt-amd64.rc
boot_guest amd64 &
pid_generic=$!
boot_guest rt-amd64 &
pid_rt=$!

# cgroup_checks FLAVOUR LOG: --by cgroup --cgroup /ls-a loaded on this
# kernel's verifier (waiter, holder and filter code), the pipe hammer's
# waits and holders in /ls-a, no waiter from another cgroup.  A waiter in
# /ls-a may wait behind a holder elsewhere (the RT guest's hammer, printing,
# once waited on the serial console's port lock held from /): only the pipe
# mutex's holders must be in /ls-a.
cgroup_checks() {
	local fl=$1 log=$2 pr n w h other
	pr='[r for r in d["locks"] if "pipe" in r["name"]]'
	n=$(pyjson "$log" cgroup "sum(x['contentions'] for x in $pr)")
	w=$(pyjson "$log" cgroup "sum(c['waits'] for x in $pr for c in x['cgroups'] if c['cgroup'] == '/ls-a')")
	h=$(pyjson "$log" cgroup "sum(c['begins'] for x in $pr for c in x['holder_cgroups'] if c['cgroup'] == '/ls-a')")
	other=$(pyjson "$log" cgroup "sorted(({c['cgroup'] for x in d['locks'] for c in x['cgroups']} | {c['cgroup'] for x in $pr for c in x['holder_cgroups']}) - {'/ls-a'})")
	if [ "${n:-0}" -gt 0 ] 2>/dev/null && [ "$w" = "$n" ] && [ "$other" = "[]" ]; then
		pass "vm $fl: --by cgroup --cgroup /ls-a: $w of $n pipe mutex waits in /ls-a, holders in it for $h, no waiter or pipe holder in another cgroup"
	else
		fail "vm $fl: --by cgroup: pipe waits '$w' of '$n' in /ls-a, others $other: $(section "$log" cgroup | grep -m2 'lockscope:')"
	fi
}

# whatif_checks FLAVOUR LOG: one short whatif experiment ran (exit 0) with
# delays injected and counted, and the guest's kernel log has no soft
# lockup and no RCU stall (boot.sh fails on BUG/WARNING/Oops already).
whatif_checks() {
	local fl=$1 log=$2 rc inj bad
	rc=$(grep -m1 '^LS-OUT-RC whatif ' "$log" | cut -d' ' -f3)
	inj=$(pyjson "$log" whatif "sum(r['counts']['injected_ns'] for l in d['locks'] for r in l['runs'])")
	bad=$(grep -ciE 'soft lockup|rcu.*stall' "$log")
	if [ "$rc" = 0 ] && [ "${inj:-0}" -gt 0 ] 2>/dev/null && [ "$bad" = 0 ]; then
		pass "vm $fl: whatif injected ${inj}ns in the pipe mutex: kernel log without soft lockup or RCU stall ($(pyjson "$log" whatif "d['locks'][0]['verdict']"))"
	else
		fail "vm $fl: whatif: exit '$rc', injected '$inj' ns, $bad soft lockup/RCU stall lines: $(section "$log" whatif | grep -m2 'lockscope:')"
	fi
}

# hold_checks FLAVOUR LOG: --hold on the pipe mutex, by fentry (pipe-hold)
# and by kprobe (pipe-kprobe).  One holder at a time: its summed hold time
# fits in the run; every contended acquisition is also a hold, so there are
# at least as many holds as contentions (fentry sees them all: the lock is
# watched from its first contention on, before that acquire returns).
hold_checks() {
	local fl=$1 log=$2 sec pr n c tot dur hs mech lost
	pr='[r for r in d["locks"] if "pipe" in r["name"] and "hold" in r]'
	for sec in pipe-hold pipe-kprobe; do
		mech=fentry
		[ "$sec" = pipe-kprobe ] && mech=kprobe
		n=$(pyjson "$log" "$sec" "sum(x['hold']['exclusive']['count'] for x in $pr)")
		c=$(pyjson "$log" "$sec" "sum(x['contentions'] for x in $pr)")
		tot=$(pyjson "$log" "$sec" "sum(x['hold']['exclusive']['total_ns'] for x in $pr)")
		hs=$(pyjson "$log" "$sec" "sum(sum(x['hold']['exclusive']['hist_log2_ns']) for x in $pr)")
		dur=$(pyjson "$log" "$sec" "int(d['duration_s'] * 1e9)")
		if ! [ "${n:-0}" -gt 0 ] 2>/dev/null; then
			fail "vm $fl: --hold ($mech): no holds of the pipe mutex: n='$n' $(section "$log" "$sec" | grep -m2 lockscope:)"
			continue
		fi
		if [ "$tot" -le "$dur" ] && [ "$hs" -eq "$n" ]; then
			pass "vm $fl: --hold ($mech): pipe mutex held ${tot}ns in $n holds, within the run's ${dur}ns; histogram sums to the count"
		else
			fail "vm $fl: --hold ($mech): pipe mutex held ${tot}ns (run ${dur}ns), $n holds, histogram $hs"
		fi
		[ "$mech" = fentry ] || continue
		# short only of holds counted as lost (program runs the kernel
		# skipped, hold losses)
		lost=$(pyjson "$log" "$sec" "sum(v for k, v in d['losses'].items() if k.startswith('hold:') or k.startswith('skipped'))")
		if [ $((n + lost)) -ge "$c" ]; then
			pass "vm $fl: --hold: $n holds (+ $lost lost) >= $c contentions of the pipe mutex"
		else
			fail "vm $fl: --hold: $n holds (+ $lost lost) < $c contentions of the pipe mutex"
		fi
	done
}

# --- generic kernel --------------------------------------------------------
if run_guest amd64 "$pid_generic"; then
	log=$out/amd64.log
	section "$log" doctor >"$out/amd64.doctor.txt"
	for t in osq_lock rwsem_down_write_slowpath; do
		if grep -Eq "^probe $t +fentry +yes +yes " "$out/amd64.doctor.txt"; then
			pass "vm amd64: fentry active on $t: $(grep "^probe $t " "$out/amd64.doctor.txt" | sed 's/  */ /g')"
		else
			fail "vm amd64: fentry not active on $t: $(grep "^probe $t " "$out/amd64.doctor.txt")"
		fi
	done
	row=$(grep '^probe __mutex_lock ' "$out/amd64.doctor.txt" | sed 's/  */ /g')
	if [[ "$row" == *"fentry yes yes"*"__mutex_lock_slowpath,__mutex_lock_killable_slowpath,__mutex_lock_interruptible_slowpath"* ]]; then
		pass "vm amd64: __mutex_lock has no BTF entry: fentry on its three callers: $row"
	else
		fail "vm amd64: __mutex_lock: $row"
	fi
	row=$(grep '^hold (--hold) ' "$out/amd64.doctor.txt" | sed 's/  */ /g')
	if [[ "$row" == "hold (--hold) fentry yes no off; --hold arms fentry/fexit on "* ]]; then
		pass "vm amd64: doctor: --hold can work: $row"
	else
		fail "vm amd64: doctor hold row: '$row'"
	fi
	section "$log" doctor-kprobe >"$out/amd64.doctor-kprobe.txt"
	n=$(grep -Ec '^probe .* kprobe +yes +yes ' "$out/amd64.doctor-kprobe.txt")
	if [ "$n" -eq 4 ]; then
		pass "vm amd64: --source kprobe attaches kprobes to all 4 targets"
	else
		fail "vm amd64: --source kprobe: $n of 4 active: $(grep '^probe' "$out/amd64.doctor-kprobe.txt")"
	fi
	# names without bpf_get_kmem_cache (6.1): doctor says so, tp_btf still
	# loads (the weak kfunc resolves to NULL), names degrade without errors
	row=$(grep -E '^  slab objects ' "$out/amd64.doctor.txt" | sed 's/  */ /g')
	if [[ "$row" == *" no "*bpf_get_kmem_cache* ]]; then
		pass "vm amd64: doctor says slab names need the kfunc:$row"
	else
		fail "vm amd64: doctor slab row: '$row'"
	fi
	row=$(grep -E '^tracepoints ' "$out/amd64.doctor.txt" | sed 's/  */ /g')
	if [[ "$row" == *"tp_btf yes yes"* ]]; then
		pass "vm amd64: tp_btf loads with the absent kfunc: $row"
	else
		fail "vm amd64: tracepoints row: '$row'"
	fi
	org=$(pyjson "$log" mmap "sorted({r['origin'] for r in d['locks']})")
	mm=$(pyjson "$log" mmap "sorted({(r['name'], r['origin']) for r in d['locks'] if r.get('recognised') == 'mmap_lock'})")
	if [[ "$org" != *slab* ]] && [[ "$mm" == *"('mm_struct.mmap_lock', 'task')"* ]]; then
		pass "vm amd64: names degrade without the kfunc: origins $org, mmap_lock $mm"
	else
		fail "vm amd64: names without the kfunc: origins $org, mmap_lock $mm"
	fi
	r='[r for r in d["locks"] if r["class"]=="mm_struct.mmap_lock" and r["kind"]=="rwsem:W"]'
	ws=$(pyjson "$log" mmap "sum(x['slow_path_untraced_ns'] for x in $r)")
	calls=$(pyjson "$log" mmap "sum(x['slow_path_calls'] for x in $r)")
	if [ "${ws:-0}" -gt 0 ] 2>/dev/null; then
		pass "vm amd64: rwsem writer spin on mmap_lock ${ws}ns over $calls slow-path calls"
	else
		fail "vm amd64: no writer spin on mmap_lock: ws=$ws calls=$calls"
	fi
	osq=$(pyjson "$log" mmap "sum(x['osq_calls'] for x in d['locks'])")
	osqm=$(pyjson "$log" mmap "sum(x['osq_calls'] for x in $r)")
	unk=$(pyjson "$log" mmap "d['losses']['osq outer lock unknown']")
	if [ "${osqm:-0}" -gt 0 ] 2>/dev/null; then
		pass "vm amd64: osq_lock calls land on mmap_lock ($osqm of $osq; $unk unattributed)"
	else
		fail "vm amd64: osq_lock calls on mmap_lock: $osqm of $osq, unknown $unk"
	fi
	pr='[r for r in d["locks"] if r["kind"]=="mutex" and "pipe" in r["name"]]'
	sc=$(pyjson "$log" pipe-kprobe "sum(x['slow_path_calls'] for x in $pr)")
	if [ "${sc:-0}" -gt 0 ] 2>/dev/null; then
		pass "vm amd64: kprobe on __mutex_lock clone: $sc slow-path calls on the pipe mutex"
	else
		fail "vm amd64: kprobe run: pipe mutex slow-path calls '$sc'"
	fi
	# probe-only mode: doctor's reasons, then one run of each workload
	# seen by both views at once (tests/vm/equivalence.py)
	section "$log" doctor-po >"$out/amd64.doctor-po.txt"
	row=$(grep '^probe-only rows ' "$out/amd64.doctor-po.txt" | sed 's/  */ /g')
	if [[ "$row" == *"raw_tp yes yes"*"__mutex_lock"*"rwsem_down_write_slowpath"* ]]; then
		pass "vm amd64: --no-tracepoints: $row"
	else
		fail "vm amd64: --no-tracepoints: probe-only rows: $row"
	fi
	row=$(grep '^probe queued_spin_lock_slowpath ' "$out/amd64.doctor-po.txt" | sed 's/  */ /g')
	if [[ "$row" == *"kprobe blacklist: "*"not probed"* ]]; then
		pass "vm amd64: doctor explains the spinlock slow path: $row"
	else
		fail "vm amd64: spinlock slow path row: $row"
	fi
	section "$log" kallsyms-locking >"$out/amd64.kallsyms-locking.txt"
	for w in pipe:mutex mmap:rwsem:W netlink:mutex; do
		k=${w#*:} w=${w%%:*}
		if [ $w = netlink ] && ! grep -q '^LS-OUT-BEGIN netlink' "$log"; then
			skip "vm amd64: equivalence netlink: stress-ng not installed on the host"
			continue
		fi
		while IFS='|' read -r verdict text; do
			case $verdict in
			pass) pass "vm amd64: $text" ;;
			skip) skip "vm amd64: $text" ;;
			*) fail "vm amd64: $text" ;;
			esac
		done < <(python3 "$vm/equivalence.py" "$log" $w "$k")
	done
	hold_checks amd64 "$log"
	cgroup_checks amd64 "$log"
	whatif_checks amd64 "$log"
	# osq_lock bail-outs and their previous vCPU (bpf/osq.bpf.h): under
	# TCG there is no KVM steal time, so the previous node is read but
	# its preempted flag is not, and the JSON says unknown (null), not 0
	row=$(grep 'osq bail-out previous vCPU' "$out/amd64.doctor.txt" | sed 's/  */ /g')
	if [[ "$row" == *"not read: a bail-out's previous node is read"* ]]; then
		pass "vm amd64: doctor:$row"
	else
		fail "vm amd64: doctor osq bail-out line: '$row'"
	fi
	for sec in mmap netlink; do
		grep -q "^LS-OUT-BEGIN $sec\$" "$log" || continue
		calls=$(pyjson "$log" $sec "sum(x['osq_calls'] for x in d['locks'])")
		bo=$(pyjson "$log" $sec "sum(x['osq_bailouts'] for x in d['locks'])")
		rd=$(pyjson "$log" $sec "sum(x['osq_bailouts_prev_read'] for x in d['locks'])")
		pre=$(pyjson "$log" $sec "sorted({str(x['osq_bailouts_prev_preempted']) for x in d['locks']})")
		if [ "${calls:-0}" -gt 0 ] 2>/dev/null && [ "$bo" -le "$calls" ] &&
			[ "$rd" -le "$bo" ] && [ "$pre" = "['None']" ]; then
			pass "vm amd64: $sec: $bo osq_lock bail-outs of $calls calls, previous node read in $rd, preempted unknown without steal time"
		else
			fail "vm amd64: $sec: osq calls '$calls', bail-outs '$bo', previous read '$rd', preempted $pre"
		fi
	done
	if grep -q '^LS-OUT-BEGIN netlink' "$log"; then
		g='[r for r in d["locks"] if r["name"]=="genl_mutex"]'
		n=$(pyjson "$log" netlink "sum(x['contentions'] for x in $g)")
		o=$(pyjson "$log" netlink "sum(x['osq_ns'] for x in $g)")
		sp=$(pyjson "$log" netlink "sum(x['spin_ns'] for x in $g)")
		if [ "${n:-0}" -gt 0 ] 2>/dev/null; then
			pass "vm amd64: static lock named by symbol: genl_mutex, $n contentions, origin $(pyjson "$log" netlink "sorted({x['origin'] for x in $g})")"
		else
			fail "vm amd64: genl_mutex not named: $(pyjson "$log" netlink '[r["name"] for r in d["locks"]][:6]')"
		fi
		if [ "${o:-0}" -gt 0 ] 2>/dev/null && [ "$o" -le "${sp:-0}" ]; then
			pass "vm amd64: osq spin ${o}ns on genl_mutex, within its spin ${sp}ns"
		else
			fail "vm amd64: genl_mutex osq ${o}ns vs spin ${sp}ns"
		fi
	else
		skip "vm amd64: netlink: stress-ng not installed on the host"
	fi
fi

# --- PREEMPT_RT kernel -----------------------------------------------------
if run_guest rt-amd64 "$pid_rt"; then
	log=$out/rt-amd64.log
	section "$log" doctor >"$out/rt.doctor.txt"
	if grep -q '^probe __mutex_lock .*PREEMPT_RT' "$out/rt.doctor.txt"; then
		pass "vm rt: doctor says mutexes are rt_mutexes: $(grep '^probe __mutex_lock' "$out/rt.doctor.txt" | sed 's/  */ /g')"
	else
		fail "vm rt: doctor: $(grep '^probe' "$out/rt.doctor.txt")"
	fi
	kinds=$(pyjson "$log" mmap "sorted({r['kind'] for r in d['locks'] if r['contentions']>0})")
	n=$(pyjson "$log" mmap "sum(r['contentions'] for r in d['locks'] if r['kind'].startswith('rt'))")
	if [ "${n:-0}" -gt 0 ] 2>/dev/null; then
		pass "vm rt: contention still shown on PREEMPT_RT ($n rt waits; kinds $kinds)"
	else
		fail "vm rt: no rt_mutex/rtlock contention: kinds $kinds"
	fi
	# the same lock functions wrap rt_mutexes here
	hold_checks rt "$log"
	cgroup_checks rt "$log"
	# the payload's whatif, delays in a PREEMPT_RT rt_mutex: it ran and
	# injected them, and the kernel log stayed clean
	whatif_checks rt "$log"
fi
