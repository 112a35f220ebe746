# tests/vm/kernels-payload.sh - what each kernel family gives (docs/sources.md
# "Kernels"): doctor, then hist under the workloads with every source, and
# again with the tracepoints left off (probe-only).  Runs inside a guest
# (busybox sh) or on the host, with lockscope and the workloads in PATH;
# prints each output between LS-OUT-BEGIN/END markers (tests/vm/lib.sh).
. /payload-lib.sh # out NAME CMD...
out doctor lockscope doctor
out mmap lockscope hist --json -F 499 -- mmap_hammer 2 3
out pipe lockscope hist --json -F 499 -- pipe_hammer 2 2
out mmap-notp lockscope hist --json --no-tracepoints -F 0 -- mmap_hammer 2 3
out pipe-notp lockscope hist --json --no-tracepoints -F 0 -- pipe_hammer 2 2
if command -v stress-ng >/dev/null; then
	out netlink lockscope hist --json -F 0 -- stress-ng --netlink-task 2 -t 3s
elif command -v genl_hammer >/dev/null; then # the same genl_mutex
	out netlink lockscope hist --json -F 0 -- genl_hammer 2 3
fi
exit 0
