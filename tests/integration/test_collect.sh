#!/usr/bin/env bash
# Collection choices honoured or refused: an explicit --source the kernel
# refuses fails in one line (exit 1) where auto degrades; map sizes whose
# preallocation would not fit are refused before load (exit 2, in well
# under a second); --kallsyms reads a bounded amount of a file that is not
# kallsyms (/dev/zero) and fails fast with a small RSS (exit 2).
. "$(dirname "$0")/../lib.sh"
out=$LS_OUT/collect
rm -rf "$out"
mkdir -p "$out"

need_root "collect" || exit 0

# one_failure NAME RC WANT_RC REGEX FILE: exit status WANT_RC and exactly
# one stderr line, matching REGEX
one_failure() {
	local n
	n=$(wc -l <"$5")
	if [ "$2" -eq "$3" ] && [ "$n" -eq 1 ] && grep -Eq "$4" "$5"; then
		pass "$1: exit $2, one line: $(cat "$5")"
	else
		fail "$1: exit $2 (want $3), $n lines: $(head -3 "$5")"
	fi
}

# --- --source: explicit mechanisms are choices, auto degrades -----------------
"$LS" doctor >"$out/doctor.txt" 2>&1
for m in fentry kprobe; do
	if grep -Eq "^probe .* $m +yes +yes " "$out/doctor.txt"; then
		"$LS" hist -d 1 --source "$m" >"$out/src-$m.out" 2>"$out/src-$m.err"
		rc=$?
		if [ $rc -eq 0 ] && grep -q "^lockscope hist: .*($m)" "$out/src-$m.out"; then
			pass "--source $m: honoured where the kernel allows it"
		else
			fail "--source $m: exit $rc: $(head -3 "$out/src-$m.err")"
		fi
		continue
	fi
	"$LS" hist -d 1 --source "$m" >"$out/src-$m.out" 2>"$out/src-$m.err"
	one_failure "--source $m refused by this kernel" $? 1 \
		"^lockscope: failed to attach function probes by $m: " "$out/src-$m.err"
	"$LS" doctor --source "$m" >"$out/doc-$m.out" 2>"$out/doc-$m.err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q "^probe " "$out/doc-$m.out" &&
		grep -q "^lockscope: failed to attach function probes by $m: " "$out/doc-$m.err"; then
		pass "doctor --source $m: says why in the table, exit 1"
	else
		fail "doctor --source $m: exit $rc (want 1): $(head -2 "$out/doc-$m.err")"
	fi
done
"$LS" hist -d 1 --source auto >"$out/src-auto.out" 2>"$out/src-auto.err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^lockscope hist: ' "$out/src-auto.out"; then
	pass "--source auto: degrades to what the kernel allows, exit 0"
else
	fail "--source auto: exit $rc: $(head -3 "$out/src-auto.err")"
fi

# --- map sizes: refused before load when they would not fit -----------------
# 16777216 locks preallocate about 16 GiB; refused unless 10% of
# MemAvailable is more than that
avail_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
if [ -z "$avail_kb" ]; then
	skip "--max-locks 16777216: no MemAvailable in /proc/meminfo"
elif [ "$avail_kb" -gt $((170 * 1024 * 1024)) ]; then
	skip "--max-locks 16777216: fits in 10% of MemAvailable (${avail_kb} kB)"
else
	for opt in max-locks max-tasks; do
		t0=$(date +%s%N)
		timeout 60 "$LS" hist -d 1 --$opt 16777216 >"$out/$opt.out" 2>"$out/$opt.err"
		rc=$?
		ms=$((($(date +%s%N) - t0) / 1000000))
		one_failure "--$opt 16777216 refused" $rc 2 \
			"^lockscope: failed to size the BPF maps: --$opt 16777216 preallocates [0-9.]+ GiB of kernel memory .*more than 10% of MemAvailable" \
			"$out/$opt.err"
		if [ "$ms" -lt 1000 ]; then
			pass "--$opt 16777216 refused before load: ${ms} ms"
		else
			fail "--$opt 16777216 took ${ms} ms to refuse (want < 1000)"
		fi
	done
fi

# --- --kallsyms: bounded reads ------------------------------------------------
# run_measured OUT ERR CMD...: run CMD; prints "RC MS MAXRSS_KB"
run_measured() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys, time
out, err, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
t0 = time.monotonic()
try:
    rc = subprocess.run(cmd, stdout=open(out, "w"), stderr=open(err, "w"),
                        timeout=30).returncode
except subprocess.TimeoutExpired:
    rc = 124
ms = int((time.monotonic() - t0) * 1000)
print(rc, ms, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}
# /dev/zero never ends and has no newline: once read it all (24 GB in 8 s)
read -r rc ms rss < <(run_measured "$out/zero.out" "$out/zero.err" \
	"$LS" hist -d 1 --kallsyms /dev/zero)
one_failure "--kallsyms /dev/zero refused" "$rc" 2 \
	"^lockscope: failed to read /dev/zero: a line is longer than 4096 bytes: not a kallsyms file$" \
	"$out/zero.err"
if [ "$ms" -lt 2000 ] && [ "$rss" -lt 65536 ]; then
	pass "--kallsyms /dev/zero: ${ms} ms, max RSS ${rss} kB"
else
	fail "--kallsyms /dev/zero: ${ms} ms (want < 2000), max RSS ${rss} kB (want < 65536)"
fi
# an explicit file that cannot be read is bad input, not a run without symbols
"$LS" hist -d 1 --kallsyms "$out/no-such-file" >"$out/nofile.out" 2>"$out/nofile.err"
one_failure "--kallsyms missing file refused" $? 2 \
	"^lockscope: failed to read .*/no-such-file: No such file or directory$" \
	"$out/nofile.err"
# the real file still loads: the sampler finds its spin functions
"$LS" doctor --kallsyms /proc/kallsyms >"$out/doctor-ks.txt" 2>&1
if grep -Eq '^cpu sampler .* [1-9][0-9]* spin functions found' "$out/doctor-ks.txt"; then
	pass "--kallsyms /proc/kallsyms: spin functions found"
else
	fail "--kallsyms /proc/kallsyms: $(grep '^cpu sampler' "$out/doctor-ks.txt")"
fi
