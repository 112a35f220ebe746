# tests/vm/guest-payload.sh - runs inside the guest (busybox sh).  Prints each
# lockscope output between LS-OUT-BEGIN/END markers; the host asserts on them.
# lsvm.sections= on the kernel command line keeps only the named sections
# (payload-lib.sh's wanted); "eq" names the equivalence runs, eq-*-po/tp.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
. /payload-lib.sh # out NAME CMD..., poll TRIES CMD...
# waitfor FILE: until lockscope says in FILE that it traces (30 s at most)
waitfor() {
	poll 150 grep -q tracing "$1"
}
# eq NAME PROG...: one run of a workload seen by two observers at once: the
# probe-only view (--no-tracepoints) and the tracepoint view, both of every
# lock from before PROG starts to after it ends, keyed by address (--addr).
# Both count the same waits.  The probe-only view attaches first: kprobes on
# one address run newest first, so its entry probe runs after the other
# view's and its return probe (armed last) before the other's: its waits
# hold none of the other view's probe work.
eq() {
	wanted eq || return 0
	eqn=$1
	shift
	rm -f /tmp/eq-po.json /tmp/eq-po.err /tmp/eq-tp.json /tmp/eq-tp.err
	lockscope hist --json --addr -F 0 --no-tracepoints >/tmp/eq-po.json 2>/tmp/eq-po.err &
	po=$!
	waitfor /tmp/eq-po.err
	lockscope hist --json --addr -F 0 >/tmp/eq-tp.json 2>/tmp/eq-tp.err &
	tp=$!
	waitfor /tmp/eq-tp.err
	"$@" >/dev/null 2>&1
	kill -INT $tp $po
	wait $tp
	wait $po
	for v in po tp; do
		echo "LS-OUT-BEGIN eq-$eqn-$v"
		cat /tmp/eq-$v.json /tmp/eq-$v.err
		echo "LS-OUT-END eq-$eqn-$v"
	done
}
out doctor lockscope doctor
# the probe-only doctor: its section, and its verdict for the equivalence
# runs below
if wanted doctor-po || wanted eq; then
	lockscope doctor --no-tracepoints >/tmp/doctor-po.txt 2>&1
	rc=$?
	echo "LS-OUT-BEGIN doctor-po"
	cat /tmp/doctor-po.txt
	echo "LS-OUT-RC doctor-po $rc"
	echo "LS-OUT-END doctor-po"
fi
out kallsyms-locking grep -E ' (osq_lock|__mutex_lock[a-z_]*|rwsem_down_[a-z_]*|mutex_spin_on_owner|[a-z_]*queued_spin_lock_slowpath)(\.[a-z]+\.[0-9]+)*$' /proc/kallsyms
out doctor-kprobe lockscope doctor --source kprobe
# Workload seconds are emulated seconds: the single runs below feed checks
# of "more than 0" and of sums, each as short as keeps its figures far from
# 0: 1 s of the pipe hammer makes thousands of pipe mutex waits, 2 s of
# netlink hundreds of genl_mutex ones.  mmap keeps 3 s: on a quiet host the
# arm64 guest's sampler saw 2 to 5 samples a second in osq_lock and
# rwsem_spin_on_owner.  The equivalence runs compare two views: 2 s each.
out mmap lockscope hist --json -F 499 -- mmap_hammer 2 3
# --hold: fentry here (hold times against the same run's contentions), and
# by kprobe in the run below that also checks the slow-path kprobes
out pipe-hold lockscope hist --json --hold -F 0 -- pipe_hammer 2 1
out pipe-kprobe lockscope hist --json --hold --source kprobe -F 0 -- pipe_hammer 2 1
# --by cgroup and --cgroup: the pipe hammer in a cgroup v2 of its own
mkdir -p /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup &&
	mkdir /sys/fs/cgroup/ls-a
out cgroup lockscope hist --json --by cgroup --cgroup /ls-a -F 0 -- \
	sh -c 'echo $$ >/sys/fs/cgroup/ls-a/cgroup.procs && exec pipe_hammer 2 1'
# one short whatif experiment: delays in the guest's kernel (its log must
# stay clean: no soft lockup, no RCU stall)
out whatif lockscope whatif --yes-perturb --json -L pipe \
	--delays 5,20 --rounds 1 --metric ops -- pipe_hammer 2 1
# the equivalence runs, where the probes can make rows (not on PREEMPT_RT)
rows=0
grep -Eqs '^probe-only rows +raw_tp +yes +yes' /tmp/doctor-po.txt && rows=1
[ $rows = 1 ] && eq pipe pipe_hammer 2 2
[ $rows = 1 ] && eq mmap mmap_hammer 2 2
if [ -x /bin/stress-ng ]; then
	out netlink lockscope hist --json -F 499 -- stress-ng --netlink-task 2 -t 2s
	[ $rows = 1 ] && eq netlink stress-ng --netlink-task 2 -t 2s
elif [ -x /bin/genl_hammer ]; then # the same genl_mutex where no stress-ng
	out netlink lockscope hist --json -F 499 -- genl_hammer 2 2
fi
exit 0
