# tests/vm/serve-payload.sh - `lockscope serve` inside a guest (busybox sh):
# started as root, it must end up as nobody and keep reading its maps while
# a workload runs; prints the page and /proc/PID/status between markers.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
. /payload-lib.sh # poll TRIES CMD...
ip link set lo up
echo "LS-UNPRIV-BPF $(cat /proc/sys/kernel/unprivileged_bpf_disabled)"
# --budget 0: exact, so the function probes (off under serve's default
# budget) attach and their counters can be checked
lockscope serve --budget 0 --listen 127.0.0.1:9464 -i 1 -F 99 >/tmp/serve.log 2>&1 &
pid=$!
# polls, not fixed sleeps: a guest second is one of the test's wall clock
poll 100 grep -q serving /tmp/serve.log # 20 s at most
# collections: lockscope_collections_total on the page now
collections() {
	wget -qO- http://127.0.0.1:9464/metrics 2>/dev/null |
		awk '$1 == "lockscope_collections_total" { print $2 }'
}
# the host checks for waits and function-probe counts above 0: 2 s of
# netlink makes hundreds
if [ -x /bin/stress-ng ]; then
	stress-ng --netlink-task 2 -t 2s >/dev/null 2>&1
else
	pipe_hammer 2 1
fi
# until a collection (every 1 s) published after the workload, and the 3
# the host asks for (10 s at most)
c0=$(collections)
# fresh: a collection after c0, and at least 3 in all
fresh() {
	c=$(collections)
	[ "${c:-0}" -gt "${c0:-0}" ] && [ "${c:-0}" -ge 3 ]
}
poll 50 fresh
echo "LS-OUT-BEGIN serve-log"
cat /tmp/serve.log
echo "LS-OUT-END serve-log"
echo "LS-OUT-BEGIN serve-status"
grep -E '^(Uid|Gid|CapEff|CapPrm|CapBnd|NoNewPrivs):' /proc/$pid/status
echo "LS-OUT-END serve-status"
echo "LS-OUT-BEGIN serve-metrics"
wget -qO- http://127.0.0.1:9464/metrics
echo "LS-OUT-END serve-metrics"
kill $pid
wait $pid
echo "LS-OUT-RC serve $?"
exit 0
