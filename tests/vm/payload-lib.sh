# tests/vm/payload-lib.sh - sourced by the guest payloads (busybox sh) as
# /payload-lib.sh: tests/vm/mkinitrd.sh puts it beside /payload.  What the
# host reads back with section and pyjson (tests/vm/lib.sh).

# out NAME CMD...: CMD's output and status between LS-OUT markers
out() {
	name=$1
	shift
	echo "LS-OUT-BEGIN $name"
	"$@" 2>&1
	echo "LS-OUT-RC $name $?"
	echo "LS-OUT-END $name"
}
