# tests/vm/guest-payload.sh - runs inside the guest (busybox sh).  Prints each
# lockscope output between LS-OUT-BEGIN/END markers; the host asserts on them.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
out() { # out NAME CMD...
	name=$1
	shift
	echo "LS-OUT-BEGIN $name"
	"$@" 2>&1
	echo "LS-OUT-RC $name $?"
	echo "LS-OUT-END $name"
}
out doctor lockscope doctor
out doctor-kprobe lockscope doctor --source kprobe
out mmap lockscope hist --json -F 499 -- mmap_hammer 2 3
out pipe-kprobe lockscope hist --json --source kprobe -F 0 -- pipe_hammer 2 2
if [ -x /bin/stress-ng ]; then
	out netlink lockscope hist --json -F 499 -- stress-ng --netlink-task 2 -t 3s
elif [ -x /bin/genl_hammer ]; then # the same genl_mutex where no stress-ng
	out netlink lockscope hist --json -F 499 -- genl_hammer 2 3
fi
exit 0
