# tests/vm/payload-lib.sh - sourced by the guest payloads (busybox sh) as
# /payload-lib.sh: tests/vm/mkinitrd.sh puts it beside /payload.  What the
# host reads back with section and pyjson (tests/vm/lib.sh).

# lsvm.sections=NAME,NAME,... on the kernel command line (boot.sh's
# LS_VM_APPEND): the only sections the host script reads from this guest.
# Under emulation one lockscope run costs 3 to 20 s: a guest whose script
# asserts on a few of a shared payload's sections runs only those.
# Without it, every section.
ls_sections=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^lsvm\.sections=//p')
# wanted NAME: whether the host reads section NAME
wanted() {
	[ -z "$ls_sections" ] && return 0
	case ",$ls_sections," in
	*",$1,"*) return 0 ;;
	esac
	return 1
}
# out NAME CMD...: CMD's output and status between LS-OUT markers (nothing
# when the host does not read NAME)
out() {
	wanted "$1" || return 0
	name=$1
	shift
	echo "LS-OUT-BEGIN $name"
	"$@" 2>&1
	echo "LS-OUT-RC $name $?"
	echo "LS-OUT-END $name"
}
# poll TRIES CMD...: run CMD every 0.2 s until it succeeds (0) or has
# failed TRIES times (1); a guest second is one of the test's wall clock
poll() {
	tries=$1
	shift
	until "$@"; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.2
	done
}
