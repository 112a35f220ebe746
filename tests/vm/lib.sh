# tests/vm/lib.sh - sourced by the guest tier's host-side scripts
# (tests/integration/test_vm*.sh), after tests/lib.sh: what a guest test
# needs on the host, and what tests/vm/guest-payload.sh printed between its
# LS-OUT-BEGIN/END markers in a console log.

# vm_needs NAME CMD...: LS_SKIP_VM unset, every CMD present, root; else one
# SKIP line and a false return (the caller exits 0)
vm_needs() {
	local name=$1 c
	shift
	if [ -n "${LS_SKIP_VM:-}" ]; then
		skip "$name: LS_SKIP_VM is set"
		return 1
	fi
	for c in "$@"; do
		need_cmd "$name" "$c" || return 1
	done
	need_root "$name"
}

# section FILE NAME: the output of one guest command
section() {
	awk -v n="$2" '$0 ~ "^LS-OUT-BEGIN "n"$" {on=1; next}
		$0 ~ "^LS-OUT-END "n"$" {on=0} on' "$1" | grep -v '^LS-OUT-RC '
}
# pyjson FILE NAME EXPR: evaluate EXPR on the JSON of section NAME
pyjson() {
	section "$1" "$2" | python3 -c '
import json, sys
txt = sys.stdin.read()
i = txt.find("{")
try:
    d = json.loads(txt[i:txt.rfind("}") + 1])
except Exception as e:
    print("badjson: %s" % e); sys.exit(0)
print(eval(sys.argv[1]))' "$3"
}
