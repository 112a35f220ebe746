# tests/vm/kvm-payload.sh - runs inside the KVM guest of test_vm_kvm.sh
# (busybox sh): the pipe hammer under `lockscope hist --json` twice, once
# per phase.  Before each run it prints LS-KVM-PHASE <name> and waits 3 s,
# while the host pins (or unpins) qemu's vCPU threads.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
. /payload-lib.sh # out NAME CMD...
out doctor lockscope doctor
for ph in pinned unpinned; do
	echo "LS-KVM-PHASE $ph"
	sleep 3
	out $ph lockscope hist --json -F 0 -- pipe_hammer 2 3
done
exit 0
