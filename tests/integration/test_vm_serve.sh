#!/usr/bin/env bash
# Guest tier, `lockscope serve` in Debian's stock 6.1 kernel under qemu
# (TCG): older kernels may refuse bpf() on open descriptors without CAP_BPF
# (kernel.unprivileged_bpf_disabled): serve must notice, keep CAP_BPF alone,
# and still collect; and with function probes active there, export them.
# The host side of serve is tests/integration/test_serve.sh.
set -u
. "$(dirname "$0")/../lib.sh"
vm=$LS_ROOT/tests/vm
. "$vm/lib.sh" # vm_needs

T=serve
vm_needs "$T vm" qemu-system-x86_64 busybox || exit 0
work=$(mktemp -d /tmp/lockscope-vm-serve.XXXXXX)
trap 'rm -rf "$work"' EXIT

# value FILE METRIC_WITH_LABELS: the sample's value in a text exposition
value() {
	awk -v m="$2" '$1 == m { print $2; exit }' "$1"
}

if ! k=$("$vm/fetch-kernel.sh" amd64 2>"$work/fetch.err"); then
	skip "$T vm: kernel image unavailable: $(tail -1 "$work/fetch.err")"
else
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$work/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$work/group"
	bins="$LS $LS_ROOT/build/pipe_hammer"
	command -v stress-ng >/dev/null && bins="$bins $(command -v stress-ng)"
	# shellcheck disable=SC2086
	if ! LS_VM_EXTRA="$work/passwd:/etc/passwd $work/group:/etc/group" \
		"$vm/mkinitrd.sh" "$work/serve.initrd.gz" "$vm/serve-payload.sh" $bins \
		>"$work/mkinitrd.log" 2>&1; then
		fail "$T vm: initramfs: $(tail -1 "$work/mkinitrd.log")"
	elif ! "$vm/boot.sh" "$k" "$work/serve.initrd.gz" 300 >"$work/vm.log" 2>"$work/vm.err"; then
		fail "$T vm: boot.sh failed: $(tail -3 "$work/vm.err")"
	else
		sec() {
			awk -v n="$1" '$0 ~ "^LS-OUT-BEGIN "n"$" {on=1; next}
				$0 ~ "^LS-OUT-END "n"$" {on=0} on' "$work/vm.log"
		}
		mkdir -p "$LS_OUT"
		cp "$work/vm.log" "$LS_OUT/serve-vm.log"
		sec serve-log | sed 's/^/  guest: /'
		sec serve-status | sed 's/^/  guest: /'
		sec serve-metrics >"$work/vm-metrics.txt"
		ub=$(awk '/^LS-UNPRIV-BPF/ { print $2 }' "$work/vm.log")
		uid=$(sec serve-status | awk '/^Uid:/ { print $2 $3 $4 $5 }')
		eff=$(sec serve-status | awk '/^CapEff:/ { print $2 }')
		bnd=$(sec serve-status | awk '/^CapBnd:/ { print $2 }')
		coll=$(value "$work/vm-metrics.txt" lockscope_collections_total)
		errs=$(value "$work/vm-metrics.txt" lockscope_collection_errors_total)
		rec=$(value "$work/vm-metrics.txt" 'lockscope_events_total{event="recorded"}')
		echo "  guest: unprivileged_bpf_disabled=$ub, $coll collections, $errs errors, $rec waits recorded"
		if sec serve-log | grep -q 'keeping CAP_BPF only'; then
			want=0000008000000000 how="CAP_BPF alone (the kernel refuses bpf() without it)"
		else
			want=0000000000000000 how="no capabilities"
		fi
		if [ "$uid" = 65534655346553465534 ] && [ "$eff" = "$want" ] &&
			[ "$bnd" = 0000000000000000 ] && [ "${errs:-1}" = 0 ] &&
			[ "${coll:-0}" -ge 3 ] && [ "${rec:-0}" -gt 0 ]; then
			pass "$T vm: on $(basename "$k") serve runs as nobody with $how and keeps collecting"
		else
			fail "$T vm: uid '$uid' CapEff '$eff' CapBnd '$bnd' (want $want, bounding 0), collections '$coll', errors '$errs', recorded '$rec'"
		fi
		osq=$(awk '/^lockscope_lock_osq_calls_total\{/ { s += $2 } END { print s + 0 }' "$work/vm-metrics.txt")
		slow=$(awk '/^lockscope_lock_slowpath_calls_total\{/ { s += $2 } END { print s + 0 }' "$work/vm-metrics.txt")
		if [ "$osq" -gt 0 ] || [ "$slow" -gt 0 ]; then
			pass "$T vm: function-probe counters exported ($osq osq_lock calls, $slow slow-path calls)"
		else
			fail "$T vm: no function-probe counters: osq $osq, slow path $slow"
		fi
	fi
fi
