# tests/vm/osq-payload.sh - runs inside the 4-vCPU guest of test_vm_osq.sh
# (busybox sh): genl_mutex spinners beside CPU hogs, under lockscope hist.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
echo "LS-OUT-BEGIN osqbail"
lockscope hist --json -F 0 -- stress-ng --netlink-task 6 --cpu 2 -t 3s 2>&1
echo "LS-OUT-END osqbail"
exit 0
