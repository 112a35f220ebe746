#!/bin/bash
# Usage: boot.sh VMLINUZ INITRD [TIMEOUT_SECONDS]   (default timeout 300)
# Boots the kernel under qemu TCG emulation (no KVM needed), copies the serial
# console to stdout (CRs and terminal escapes stripped).  The timeout is of
# the guest's work, not of the host's load: qemu may use TIMEOUT_SECONDS of
# CPU per vCPU thread (one under thread=single), what it could use in that
# wall time on a quiet host, and at most 3 times TIMEOUT_SECONDS of wall
# clock (a guest hung without spinning).  Emulation is CPU-bound: beside
# other work (the test tiers run side by side) a guest takes longer, and a
# wall-clock limit alone killed guests that were still making progress.
# Exit status: 0 when the guest printed
# "LS-VM-DONE rc=0" and no kernel BUG:/WARNING:/Oops/general protection/panic
# line appeared; 1 when the payload returned non-zero; 2 on bad usage;
# 3 when LS-VM-DONE never came (timeout, panic, hang); 4 on kernel splats.
# A soft lockup panics the guest (softlockup_panic=1): it ends at once, and
# the panic prints the stuck task's stack at full console level, which
# loglevel=3 would hide; its frames come first after "guest ran" on stderr.
# Env: LS_VM_ARCH (x86 | arm64: qemu-system-aarch64 -M virt, console ttyAMA0),
# LS_VM_ACCEL (x86: tcg,thread=single; arm64: tcg), LS_VM_CPU (x86: max; arm64:
# max,pauth-impdef=on), LS_VM_SMP (2), LS_VM_MEM (1G), LS_VM_APPEND (extra
# kernel command line), LS_VM_QEMU_ARGS (extra qemu arguments, word-split),
# LS_VM_LOG (keep the console log at this path).
set -euo pipefail

die() { echo "lockscope-vm: failed to $1" >&2; exit "${2:-2}"; }

[ $# -ge 2 ] && [ $# -le 3 ] ||
    die "parse arguments: usage: $0 VMLINUZ INITRD [TIMEOUT_SECONDS]"
kernel=$1 initrd=$2 limit=${3:-300}
[ -f "$kernel" ] || die "read kernel $kernel: no such file"
[ -f "$initrd" ] || die "read initrd $initrd: no such file"
case $limit in ''|*[!0-9]*) die "parse timeout '$limit': not a number of seconds";; esac
# LS_VM_ARCH picks the emulator, machine and console of the guest's arch.
case ${LS_VM_ARCH:-x86} in
# x86 guests run their vCPUs in one host thread: with a thread each, two
# clean-clone CI runs hung a 6.1 guest with a CPU spinning at mutex_lock+0,
# the ftrace site probes were being armed on (its bytes already the NOP):
# cross-vCPU code patching under multi-threaded TCG.  arm64 guests, which
# never hung, keep a thread per vCPU (one thread would near their timeout).
# Debian's arm64 kernel signs return addresses (CONFIG_ARM64_PTR_AUTH_KERNEL):
# -cpu max emulates the architected QARMA cipher for every signature, slow
# under TCG; pauth-impdef=on keeps pointer authentication with QEMU's cheap
# IMPLEMENTATION DEFINED one.
x86) qemu=qemu-system-x86_64 qpkg=qemu-system-x86 machine="" console=ttyS0 accel=tcg,thread=single cpu=max ;;
arm64) qemu=qemu-system-aarch64 qpkg=qemu-system-arm machine="-M virt" console=ttyAMA0 accel=tcg cpu=max,pauth-impdef=on ;;
*) die "parse LS_VM_ARCH '${LS_VM_ARCH}': expected x86 or arm64" ;;
esac
command -v "$qemu" >/dev/null ||
    die "find $qemu: not installed (apt-get install $qpkg)"

log=${LS_VM_LOG:-$(mktemp "${TMPDIR:-/tmp}/lockscope-vm-console.XXXXXX")}
[ -n "${LS_VM_LOG:-}" ] || trap 'rm -f "$log"' EXIT

accel=${LS_VM_ACCEL:-$accel}
threads=${LS_VM_SMP:-2}
[[ $accel == *thread=single* ]] && threads=1
cpu_limit=$((limit * threads))
start=$(date +%s%N)
set +e
# shellcheck disable=SC2086  # $machine, LS_VM_QEMU_ARGS: split into words on purpose
timeout -k 10 $((3 * limit)) prlimit --cpu=$cpu_limit:$((cpu_limit + 10)) "$qemu" $machine \
    -accel "$accel" -cpu "${LS_VM_CPU:-$cpu}" -smp "${LS_VM_SMP:-2}" -m "${LS_VM_MEM:-1G}" \
    -kernel "$kernel" -initrd "$initrd" \
    -append "console=$console panic=-1 softlockup_panic=1 loglevel=3 ${LS_VM_APPEND:-}" \
    -nographic -no-reboot -nic none ${LS_VM_QEMU_ARGS:-} </dev/null 2>&1 |
    sed -u -e 's/\r//g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1bc//g' | tee "$log"
qrc=${PIPESTATUS[0]}
set -e
ms=$(( ($(date +%s%N) - start) / 1000000 ))
# CPU seconds of the ended children: qemu's, with timeout's and sed's
# (times in this shell: in a pipeline it would count a subshell's)
times >"$log.cpu"
cpu=$(awk 'NR == 2 { split($0, f, /[ms ]+/); printf "%.0f", f[1] * 60 + f[2] + f[3] * 60 + f[4] }' "$log.cpu")
rm -f "$log.cpu"
printf 'lockscope-vm: guest ran %d.%01d s, %s s of CPU (qemu exit %s)\n' $((ms / 1000)) $((ms % 1000 / 100)) "$cpu" "$qrc" >&2

bad=$(grep -E 'BUG:|WARNING:|Oops|general protection|Kernel panic' "$log" || true)
# the frames of the panicking task (after <TASK> when the panic came from an
# interrupt, as the watchdog's does), innermost first, "? " guesses left out
stack=$(awk '/Kernel panic/ {p = 1; n = 0; s = ""; next}
    p && /<TASK>/ {n = 0; s = ""; next}
    p && !/\] +\? / && n < 12 && match($0, /[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+\/0x[0-9a-f]+/) {
        f = substr($0, RSTART, RLENGTH); sub(/\+.*/, "", f)
        s = s (n ? " < " : "") f; n++
    }
    END {print s}' "$log")
if [ -n "$bad" ]; then
    [ -z "$stack" ] || printf 'lockscope-vm: kernel stack at the panic: %s\n' "$stack" >&2
    printf 'lockscope-vm: kernel reported: %s\n' "$bad" | head -n 20 >&2
    die "run guest $kernel: kernel BUG/WARNING/Oops lines on the console" 4
fi
done_line=$(grep -E '^LS-VM-DONE rc=[0-9]+' "$log" | tail -n1 || true)
if [ -z "$done_line" ]; then
    [ "$qrc" = 124 ] && die "run guest $kernel: timed out after $((3 * limit))s of wall clock without LS-VM-DONE" 3
    case $qrc in 137 | 152) die "run guest $kernel: used its ${cpu_limit}s of CPU (${limit}s a vCPU thread) without LS-VM-DONE" 3 ;; esac
    die "run guest $kernel: no LS-VM-DONE line (qemu exit $qrc)" 3
fi
rc=${done_line#LS-VM-DONE rc=}
[ "$rc" = 0 ] || die "run guest payload: it exited with rc=$rc" 1
