#!/usr/bin/env python3
# btf_lock_fields.py - check the type.field names of lockscope rows against
# the kernel's BTF, independently of lockscope's own walker: every name a
# slab or per-CPU row shows (each candidate of an ambiguous {a|b} name too)
# must be a path of members from a struct to a lock type of the row's kind.
#
#   btf_lock_fields.py RAW_DUMP HIST.json...
#   btf_lock_fields.py RAW_DUMP --offset type.field...   (byte offsets)
#
# RAW_DUMP is `bpftool btf dump file /sys/kernel/btf/vmlinux format raw`.
# Prints one line per name checked that is wrong and a summary; exit 1 when
# any name is wrong, 2 on bad input.
import json
import re
import sys

FAMILIES = {
    "spin": {"spinlock_t", "spinlock", "raw_spinlock_t", "raw_spinlock",
             "arch_spinlock_t", "qspinlock"},
    "rwlock": {"rwlock_t", "arch_rwlock_t", "qrwlock"},
    "mutex": {"mutex", "ww_mutex"},
    "rwsem": {"rw_semaphore"},
    "pcpu": {"percpu_rw_semaphore"},
    "sem": {"semaphore"},
    "rt": {"rt_mutex", "rt_mutex_base"},
}


KIND_FAMILY = {"spinlock": "spin", "rwlock": "rwlock", "mutex": "mutex",
               "rwsem": "rwsem", "pcpu-rwsem": "pcpu", "semaphore": "sem"}


def allowed(kind):
    """Lock types a contention of @kind may be (PREEMPT_RT kinds: any)."""
    fam = KIND_FAMILY.get(kind.split(":")[0])
    return FAMILIES[fam] if fam else set().union(*FAMILIES.values())


def load(path):
    types, by_name, by_var, cur = {}, {}, {}, None
    head = re.compile(r"^\[(\d+)\] (\w+) '([^']*)'(.*)$")
    memb = re.compile(r"^\s+'([^']*)' type_id=(\d+) bits_offset=(\d+)")
    with open(path) as f:
        for line in f:
            m = head.match(line)
            if m:
                tid, kind, name, rest = int(m[1]), m[2], m[3], m[4]
                ref = re.search(r"\btype_id=(\d+)", rest)
                cur = {"kind": kind, "name": name, "members": [],
                       "type": int(ref[1]) if ref else 0}
                types[tid] = cur
                if kind in ("STRUCT", "UNION"):
                    by_name.setdefault(name, tid)
                elif kind == "VAR":  # per-CPU data: "var[N].field"
                    by_var.setdefault(name, tid)
                continue
            m = memb.match(line)
            if m and cur is not None and cur["kind"] in ("STRUCT", "UNION"):
                cur["members"].append((m[1], int(m[2]), int(m[3]) // 8))
    return types, (by_name, by_var)


MODS = ("CONST", "VOLATILE", "RESTRICT", "TYPE_TAG", "TYPEDEF")


def strip(types, tid):
    """Names met along modifiers and typedefs, and the type under them."""
    names = []
    while tid in types:
        t = types[tid]
        if t["kind"] == "TYPEDEF" or t["kind"] in ("STRUCT", "UNION"):
            names.append(t["name"])
        if t["kind"] not in MODS:
            break
        tid = t["type"]
    return names, tid


def member(types, tid, name, depth=0):
    """(type id, byte offset) of member @name of composite @tid, through
    anonymous members; None when there is none."""
    t = types.get(tid)
    if not t or depth > 8:
        return None
    for mname, mtid, moff in t["members"]:
        if mname == name:
            return mtid, moff
    for mname, mtid, moff in t["members"]:
        if mname == "(anon)":
            _, under = strip(types, mtid)
            found = member(types, under, name, depth + 1)
            if found is not None:
                return found[0], moff + found[1]
    return None


def resolve(types, by_name, path):
    """(type id, byte offset or None past an array) of the member @path
    names, or why not."""
    structs, variables = by_name
    parts = path.split(".")
    first = re.fullmatch(r"([^\[\]]+)((?:\[\d+\])*)", parts[0])
    if len(parts) < 2 or not first:
        return "not a type.field: %r" % path
    if not first[2] and first[1] in structs:
        tid, off = structs[first[1]], 0
    elif first[1] in variables:  # a per-CPU variable, maybe an array
        tid, off = types[variables[first[1]]]["type"], 0
        parts[0] = "(var)" + first[2]
    else:
        return "no struct or variable %r in BTF" % parts[0]
    for i, comp in enumerate(parts):
        m = re.fullmatch(r"([^\[\]]+)((?:\[\d+\])*)", comp)
        if not m:
            return "bad component %r" % comp
        if i == 0 and m[1] != "(var)":
            continue  # the struct itself
        if m[1] != "(var)":
            _, under = strip(types, tid)
            found = member(types, under, m[1])
            if found is None:
                return "no member %r" % comp
            tid = found[0]
        else:
            found = (tid, 0)
        # element sizes are not computed: no offset through an array
        off = None if off is None or m[2] else off + found[1]
        for _ in re.findall(r"\[\d+\]", m[2]):
            _, under = strip(types, tid)
            if types.get(under, {}).get("kind") != "ARRAY":
                return "%r is not an array" % comp
            tid = types[under]["type"]
    return tid, off


def check(types, by_name, path, kind):
    """None when @path names a lock of @kind, else why not."""
    found = resolve(types, by_name, path)
    if isinstance(found, str):
        return found
    names, _ = strip(types, found[0])
    if set(names) & allowed(kind):
        return None
    return "type %s is not a lock of kind %s" % ("/".join(names) or "?", kind)


def candidates(cls):
    if cls.startswith("{") and cls.endswith("}"):
        return cls[1:-1].split("|")
    return [cls]


def main():
    if len(sys.argv) < 3:
        print("usage: btf_lock_fields.py RAW_DUMP HIST.json...", file=sys.stderr)
        return 2
    types, by_name = load(sys.argv[1])
    if not by_name[0]:
        print("no structs in %s" % sys.argv[1], file=sys.stderr)
        return 2
    if sys.argv[2] == "--offset":
        for path in sys.argv[3:]:
            found = resolve(types, by_name, path)
            if isinstance(found, str) or found[1] is None:
                print("%s: %s" % (path, found), file=sys.stderr)
                return 2
            print("0x%x" % found[1])
        return 0
    checked = bad = 0
    for path in sys.argv[2:]:
        with open(path) as f:
            doc = json.load(f)
        for r in doc["locks"]:
            if r["origin"] not in ("slab", "percpu"):
                continue
            for c in candidates(r["class"]):
                if "+" in c or "." not in c:
                    continue  # the cache+offset form names no field
                checked += 1
                why = check(types, by_name, c, r["kind"])
                if why:
                    bad += 1
                    print("wrong: %s (%s): %s" % (r["name"], r["kind"], why))
    print("%d type.field names checked, %d wrong" % (checked, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
