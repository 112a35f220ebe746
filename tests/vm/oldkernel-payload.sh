# tests/vm/oldkernel-payload.sh - runs inside a guest whose kernel predates
# the lock tracepoints (5.19) and BPF atomic fetch ops (5.12), Debian 11's
# 5.10 (tests/integration/test_vm_oldkernel.sh).  Prints each output
# between LS-OUT-BEGIN/END markers (tests/vm/lib.sh).
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
. /payload-lib.sh # out NAME CMD...
out doctor lockscope doctor
# emulated seconds: as short as keeps the checked figures far from 0 (1 s:
# thousands of pipe mutex waits and holds; 2 s: some 15 mmap_lock ones)
out pipe lockscope hist --json -F 0 -- pipe_hammer 2 1
out mmap lockscope hist --json -F 0 -- mmap_hammer 2 2
out pipe-hold lockscope hist --json --hold -F 0 -- pipe_hammer 2 1
# the main build, forced: this kernel's verifier must refuse it
out main-forced env LOCKSCOPE_BPF_OBJECT=main lockscope hist -d 1 -F 0
exit 0
