# tests/vm/serve-payload.sh - `lockscope serve` inside a guest (busybox sh):
# started as root, it must end up as nobody and keep reading its maps while
# a workload runs; prints the page and /proc/PID/status between markers.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
ip link set lo up
echo "LS-UNPRIV-BPF $(cat /proc/sys/kernel/unprivileged_bpf_disabled)"
# --budget 0: exact, so the function probes (off under serve's default
# budget) attach and their counters can be checked
lockscope serve --budget 0 --listen 127.0.0.1:9464 -i 1 -F 99 >/tmp/serve.log 2>&1 &
pid=$!
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	grep -q serving /tmp/serve.log && break
	sleep 1
done
if [ -x /bin/stress-ng ]; then
	stress-ng --netlink-task 2 -t 3s >/dev/null 2>&1
else
	pipe_hammer 2 2
fi
sleep 2
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
