#!/usr/bin/env bash
# tests/integration/test_serve.sh - `lockscope serve` end to end: a real
# Prometheus server scrapes it on loopback during a contention workload;
# promtool and an OpenMetrics parser check the exposition; bad requests get
# the right codes; concurrent and stuck clients do not slow collection;
# trickling clients are cut at the header deadline and never starve another
# address; the process runs unprivileged after start, --user root only with
# --allow-root.  Everything on loopback (127.0.0.1-3), bounded in time.
set -u
. "$(dirname "$0")/../lib.sh"

T=serve
need_tracepoints "$T" || exit 0
for c in curl python3 stress-ng; do
	need_cmd "$T: $c" "$c" || exit 0
done

work=$(mktemp -d /tmp/lockscope-serve.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
	kill_pids "${pids[@]}"
	rm -rf "$work"
}
trap cleanup EXIT

# spawn_serve LOG ARGS...: start lockscope serve on a free loopback port
# in the background; sets SPID.
spawn_serve() {
	local log=$1
	shift
	"$LS" serve --listen 127.0.0.1:0 "$@" >"$log" 2>&1 &
	SPID=$!
	pids+=("$SPID")
}
# serve_up LOG PID: sets SPID and URL (http://127.0.0.1:PORT) once the
# serve PID spawn_serve started prints its address in LOG.
serve_up() {
	SPID=$2
	URL=$(serve_url "$1" "$2" 127.0.0.1) || {
		echo "$URL"
		return 1
	}
}
# start_serve LOG ARGS...: spawn_serve, then serve_up
start_serve() {
	spawn_serve "$@" && serve_up "$1" "$SPID"
}

# value FILE METRIC_WITH_LABELS: the sample's value in a text exposition
value() {
	awk -v m="$2" '$1 == m { print $2; exit }' "$1"
}
# series_sum FILE: the contentions over all lock series of a text exposition
series_sum() {
	awk '/^lockscope_lock_contentions_total\{/ { s += $2 } END { print s + 0 }' "$1"
}

# ---- start, unprivileged ----------------------------------------------
if ! start_serve "$work/serve.log" -i 0.5 --max-series 3; then
	fail "$T: starts and prints its address"
	exit 0
fi
pass "$T: starts and prints its address ($URL)"
port=${URL##*:}

nobody=$(id -u nobody 2>/dev/null || echo 65534)
st=/proc/$SPID/status
uids=$(awk '/^Uid:/ { print $2, $3, $4, $5 }' "$st")
capeff=$(awk '/^CapEff:/ { print $2 }' "$st")
capprm=$(awk '/^CapPrm:/ { print $2 }' "$st")
capbnd=$(awk '/^CapBnd:/ { print $2 }' "$st")
nnp=$(awk '/^NoNewPrivs:/ { print $2 }' "$st")
echo "  $st: Uid $uids, CapEff $capeff, CapPrm $capprm, CapBnd $capbnd, NoNewPrivs $nnp"
if [ "$uids" = "$nobody $nobody $nobody $nobody" ]; then
	pass "$T: runs as nobody after start (real, effective, saved, fs uid)"
else
	fail "$T: runs as nobody after start: Uid is '$uids'"
fi
if [ "$capeff" = 0000000000000000 ] && [ "$capprm" = 0000000000000000 ] &&
	[ "$capbnd" = 0000000000000000 ] && [ "$nnp" = 1 ]; then
	pass "$T: no capabilities left (effective, permitted, bounding), no_new_privs"
elif grep -q 'keeping CAP_' "$work/serve.log"; then
	skip "$T: no capabilities left: this kernel needs CAP_BPF to read maps, kept alone ($capeff)"
else
	fail "$T: no capabilities left: CapEff $capeff CapPrm $capprm CapBnd $capbnd NoNewPrivs $nnp"
fi

# Non-dumpable after the switch: another process of the same user cannot
# take its BPF descriptors (they would give it the maps and the addresses).
if command -v setpriv >/dev/null 2>&1; then
	if setpriv --reuid="$nobody" --regid="$nobody" --clear-groups \
		ls "/proc/$SPID/fd" >/dev/null 2>&1; then
		fail "$T: another process of the same user cannot open its descriptors"
	else
		pass "$T: another process of the same user cannot open its descriptors"
	fi
fi

# ---- a workload and a real Prometheus ------------------------------------
stress-ng --netlink-task 2 -t 40s >"$work/stress.log" 2>&1 &
stress=$!
pids+=("$stress")

# Prometheus starts here, and becomes ready and scrapes while the
# exposition and bad requests are checked; what it found comes after those.
prom=
if command -v prometheus >/dev/null 2>&1; then
	pport=$(free_port)
	cat >"$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: lockscope
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
	prometheus --config.file="$work/prometheus.yml" \
		--storage.tsdb.path="$work/tsdb" \
		--web.listen-address="127.0.0.1:$pport" \
		--log.level=warn >"$work/prometheus.log" 2>&1 &
	pids+=("$!")
	prom=started
else
	skip "$T: Prometheus scrapes lockscope: prometheus is not installed"
fi

# ---- the exposition ------------------------------------------------------
# once a collection has seen the workload's waits (some lock series)
wait_for 'curl -sf "$URL/metrics" -D "$work/h.txt" -o "$work/m.txt" &&
	[ "$(series_sum "$work/m.txt")" -gt 0 ]' 10
curl -sf -H 'Accept: application/openmetrics-text; version=1.0.0' \
	"$URL/metrics" -D "$work/hom.txt" -o "$work/om.txt"
if grep -qi '^content-type: text/plain; version=0.0.4' "$work/h.txt" &&
	grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$work/hom.txt" &&
	[ "$(tail -1 "$work/om.txt")" = '# EOF' ]; then
	pass "$T: text format by default, OpenMetrics when asked (Accept)"
else
	fail "$T: content negotiation: $(grep -i content-type "$work/h.txt" "$work/hom.txt")"
fi

if command -v promtool >/dev/null 2>&1; then
	if out=$(promtool check metrics <"$work/m.txt" 2>&1) && [ -z "$out" ]; then
		pass "$T: promtool check metrics accepts the output ($(grep -vc '^#' "$work/m.txt") samples)"
	else
		echo "$out" | head -20
		fail "$T: promtool check metrics accepts the output"
	fi
else
	skip "$T: promtool check metrics: promtool is not installed"
fi

if /usr/bin/python3 -c 'import prometheus_client' 2>/dev/null; then
	if out=$(/usr/bin/python3 - "$work/om.txt" 2>&1 <<'EOF'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
fams = list(text_string_to_metric_families(open(sys.argv[1]).read()))
print(len(fams), "families")
EOF
); then
		pass "$T: the OpenMetrics output parses strictly ($out)"
	else
		echo "$out" | tail -3
		fail "$T: the OpenMetrics output parses strictly"
	fi
else
	skip "$T: OpenMetrics parse: python3-prometheus-client is not installed"
fi

# No kernel address anywhere, in either format (no label, no value).
if grep -Eiq 'ffff[0-9a-f]{12}|0x[0-9a-f]{8,}' "$work/m.txt" "$work/om.txt"; then
	grep -Eio '[a-z_]*="[^"]*ffff[0-9a-f]{12}[^"]*"' "$work/m.txt" | head -3
	fail "$T: no kernel address in the output by default"
else
	pass "$T: no kernel address in the output by default"
fi

# Cardinality: at most --max-series 3 lock series of their own.
own=$(grep '^lockscope_lock_contentions_total{' "$work/m.txt" |
	grep -vc '{lock="other"')
other=$(grep -c '^lockscope_lock_contentions_total{lock="other"' "$work/m.txt")
in_other=$(value "$work/m.txt" 'lockscope_locks{series="other"}')
echo "  lock series: $own own, $other other (holding $in_other locks)"
if [ "$own" -le 3 ] && { [ "${in_other:-0}" = 0 ] || [ "$other" -ge 1 ]; }; then
	pass "$T: --max-series 3 bounds the lock series, the rest summed into lock=\"other\""
else
	fail "$T: --max-series 3 bounds the lock series: $own own, $other other, $in_other locks in other"
fi

# The series add up: contentions over all series (those still exported)
# never exceed the waits recorded by the BPF programs.
sum=$(series_sum "$work/m.txt")
rec=$(value "$work/m.txt" 'lockscope_events_total{event="recorded"}')
echo "  contentions over all series $sum, waits recorded $rec"
if [ "$sum" -gt 0 ] && [ "$sum" -le "$((rec + rec / 100))" ]; then
	pass "$T: lock series sum to at most the recorded waits (and are not empty)"
else
	fail "$T: lock series sum: $sum against $rec recorded"
fi

# ---- bad requests ------------------------------------------------------
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
raw() {
	timeout 5 bash -c 'exec 3<>/dev/tcp/127.0.0.1/'"$port"'; printf "%b" "$1" >&3; head -c 300 <&3' _ "$1" 2>/dev/null |
		head -1 | awk '{ print $2 }'
}
big=$(head -c 40000 /dev/zero | tr '\0' a)
got="404:$(code "$URL/nope") 405:$(code -X POST "$URL/metrics") 405:$(code -X DELETE "$URL/metrics")"
got="$got 413:$(code -X GET -H 'Content-Type: text/plain' --data-binary hello "$URL/metrics")"
got="$got 431:$(code -H "X-Big: $big" "$URL/metrics") 414:$(code "$URL/metrics?$big")"
got="$got 400:$(raw 'GET /metrics HTTP/1.1\r\n\r\n')"
got="$got 400:$(raw 'GET /metrics HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n')"
# libmicrohttpd answers these at the request line and may reset the
# connection before the answer is read: an answer, if any, must be 4xx/5xx.
garbage=$(raw 'GARBAGE\r\n\r\n')
version=$(raw 'GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n')
allow=$(curl -s -D - -o /dev/null -X POST "$URL/metrics" | tr -d '\r' | awk -F': ' 'tolower($1) == "allow" { print $2 }')
bad=
for g in $got; do
	[ "${g%%:*}" = "${g#*:}" ] || bad="$bad $g"
done
echo "  want:got $got; garbage request line -> ${garbage:-closed}; HTTP/9.9 -> ${version:-closed}; Allow: $allow"
if [ -z "$bad" ] && [ "$allow" = "GET, HEAD" ] && [[ "${garbage:-400}" == 4* ]] &&
	[[ "${version:-505}" == 505 ]] &&
	[ "$(code "$URL/metrics")" = 200 ]; then
	pass "$T: wrong paths, methods, bodies, oversized and malformed requests get 404/405/413/431/414/400/505, then /metrics still answers"
else
	fail "$T: bad requests:$bad; Allow '$allow'; garbage '$garbage'; HTTP/9.9 '$version'"
fi

# ---- Prometheus scrapes it ------------------------------------------------
prom_ok=0
if [ "$prom" = started ]; then
	if wait_for 'curl -sf "http://127.0.0.1:$pport/-/ready" >/dev/null 2>&1' 30; then
		prom_ok=1
	else
		cat "$work/prometheus.log"
		fail "$T: Prometheus starts"
	fi
fi

# prom_found: the lockscope series of a Prometheus answer (q.json) with a
# non-zero rate, one a line
prom_found() {
	python3 - "$work/q.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["data"]["result"]:
    m = r["metric"]
    if m.get("job") == "lockscope" and float(r["value"][1]) > 0:
        print('rate(lockscope_lock_contentions_total{lock="%s",kind="%s",caller="%s"}) %.1f/s' % (
            m.get("lock"), m.get("kind"), m.get("caller"),
            float(r["value"][1])))
EOF
}
# Ask Prometheus for lockscope contention series with a non-zero rate;
# poll up to 30 s (scrapes every 1 s, rate over 5 s), reading the answer
# once it holds a series.
if [ "$prom_ok" = 1 ]; then
	q='rate(lockscope_lock_contentions_total[5s]) > 0'
	found=
	wait_for 'curl -sfG "http://127.0.0.1:$pport/api/v1/query" \
		--data-urlencode "query=$q" -o "$work/q.json" 2>/dev/null &&
		grep -q "\"metric\"" "$work/q.json" && found=$(prom_found) && [ -n "$found" ]' 30
	if [ -n "$found" ]; then
		echo "$found" | sed 's/^/  /' | head -5
		pass "$T: Prometheus scrapes lockscope and finds a contention series with a non-zero rate"
	else
		cat "$work/q.json" 2>/dev/null
		curl -s "http://127.0.0.1:$pport/api/v1/targets" | head -c 600
		fail "$T: Prometheus scrapes lockscope and finds a contention series with a non-zero rate"
	fi
	curl -sfG "http://127.0.0.1:$pport/api/v1/query" \
		--data-urlencode 'query=up{job="lockscope"}' -o "$work/up.json"
	if python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["data"]["result"]; sys.exit(0 if r and r[0]["value"][1]=="1" else 1)' "$work/up.json" 2>/dev/null; then
		pass "$T: Prometheus reports the target up"
	else
		fail "$T: Prometheus reports the target up: $(cat "$work/up.json")"
	fi
fi

# Every query of the shipped Grafana dashboard runs and returns data, but
# the fleet and container panels (recording rules, serve --by cgroup):
# test_fleet.sh checks those.
if [ "$prom_ok" = 1 ]; then
	if out=$(python3 "$LS_ROOT/tests/integration/dash_queries.py" \
		"$LS_ROOT/packaging/grafana-dashboard.json" "http://127.0.0.1:$pport" local 1 2>&1); then
		pass "$T: every Grafana dashboard query returns data ($out)"
	else
		echo "$out"
		fail "$T: every Grafana dashboard query returns data"
	fi
fi
if command -v promtool >/dev/null 2>&1; then
	check "$T: the shipped scrape config is valid (promtool check config)" \
		promtool check config "$LS_ROOT/packaging/prometheus.yml"
fi

# ---- concurrent and stuck clients do not slow collection -----------------
c0=$(curl -s "$URL/metrics" | awk '$1 == "lockscope_collections_total" { print $2 }')
t0=$(date +%s.%N)
# 8 clients that send half a request and stall, 1 that never reads
for i in $(seq 8); do
	timeout 8 bash -c 'exec 3<>/dev/tcp/127.0.0.1/'"$port"'; printf "GET /metrics HTTP/1.1\r\nHost: x\r\n" >&3; sleep 7' &
	pids+=("$!")
done
for i in $(seq 1); do
	timeout 8 bash -c 'exec 3<>/dev/tcp/127.0.0.1/'"$port"'; for j in $(seq 50); do printf "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n" >&3; done; sleep 7' &
	pids+=("$!")
done
# until the 9 are connected (their requests follow the connect at once)
wait_for '[ "$(ss -Htnp state established "( dport = :$port )" | grep -c "\"bash\"")" -ge 9 ]' 5
# 200 scrapes, 12 at a time
seq 200 | xargs -P 12 -I{} curl -s -m 5 -o /dev/null -w '%{http_code} %{size_download}\n' \
	"$URL/metrics" >"$work/scrapes.txt"
okn=$(awk '$1 == 200 && $2 > 1000' "$work/scrapes.txt" | wc -l)
t1=$(date +%s.%N)
# a deliberate 1.2 s more: the pace is measured over the scrapes and the
# collections after them
sleep 1.2
c1=$(curl -s "$URL/metrics" | awk '$1 == "lockscope_collections_total" { print $2 }')
t2=$(date +%s.%N)
read -r want got_c el <<<"$(awk -v t0="$t0" -v t2="$t2" -v c0="$c0" -v c1="$c1" \
	'BEGIN { printf "%d %d %.1f\n", (t2 - t0) / 0.5, c1 - c0, t2 - t0 }')"
echo "  $okn/200 concurrent scrapes answered in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')s beside 9 stalled clients; $got_c collections in ${el}s (interval 0.5s: ~$want due)"
if [ "$okn" = 200 ]; then
	pass "$T: 200 concurrent scrapes succeed beside stalled clients"
else
	sort "$work/scrapes.txt" | uniq -c | sort -rn | head -5
	fail "$T: concurrent scrapes: only $okn/200 succeeded"
fi
if [ "$got_c" -ge $((want * 9 / 10 - 1)) ]; then
	pass "$T: collection keeps its pace during the scrapes ($got_c of ~$want)"
else
	fail "$T: collection keeps its pace: $got_c collections, ~$want due"
fi

# ---- slow-drip clients: a header deadline, per-address limits ------------
# 256 connections from 127.0.0.2 and 32 from 127.0.0.3 each send the start
# of a request, then one more header byte every 2 s, for 12 s at most.
# Meanwhile every scrape from 127.0.0.1 answers within 1 s; the server holds
# at most 32 connections per address and cuts each trickling one once its
# headers are 5 s late (the idle timeout alone restarts at every byte).
cat >"$work/trickle.py" <<'EOF'
# trickle.py PORT SECONDS READY SRC:N...: from each SRC open N connections
# to 127.0.0.1:PORT, each sending the start of a request (then it makes the
# file READY), then one more header byte every 2 s, never finishing the
# headers.  After SECONDS (or once the server closed them all) print a line
# per SRC: connections refused (closed within 0.5 s), held, of those cut by
# the server (and the longest a cut one lived), still open (and the oldest).
import errno, selectors, socket, sys, time
port, dur, ready = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
head = b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: "
sel = selectors.DefaultSelector()
conns = {}  # socket -> [src, opened at, bytes sent]
stats = {}  # src -> [refused, cut, longest cut]
t0 = time.monotonic()
for arg in sys.argv[4:]:
    src, n = arg.split(":")
    stats[src] = [0, 0, 0.0]
    for _ in range(int(n)):
        s = socket.socket()
        s.setblocking(False)
        s.bind((src, 0))
        s.connect_ex(("127.0.0.1", port))
        conns[s] = [src, time.monotonic(), 0]
        sel.register(s, selectors.EVENT_READ)

def closed(s):
    src, opened, _ = conns.pop(s)
    sel.unregister(s)
    s.close()
    life = time.monotonic() - opened
    st = stats[src]
    if life < 0.5:
        st[0] += 1
    else:
        st[1] += 1
        st[2] = max(st[2], life)

next_drip = t0
while time.monotonic() - t0 < dur and conns:
    now = time.monotonic()
    if now >= next_drip:
        for s, c in list(conns.items()):
            try:
                c[2] += s.send(head if c[2] == 0 else b"a")
            except (BlockingIOError, InterruptedError):
                pass
            except OSError as e:
                if e.errno in (errno.EPIPE, errno.ECONNRESET):
                    closed(s)
        if next_drip == t0:
            open(ready, "w").close()
        next_drip = now + 2.0
    wait = max(0.0, min(next_drip, t0 + dur) - time.monotonic())
    for key, _ in sel.select(timeout=wait):
        try:
            got = key.fileobj.recv(4096)
        except (BlockingIOError, InterruptedError):
            continue
        except OSError:
            got = b""
        if not got:
            closed(key.fileobj)
now = time.monotonic()
for src, st in stats.items():
    ages = [now - c[1] for c in conns.values() if c[0] == src]
    print("%s refused %d held %d cut %d longest %.1f open %d oldest %.1f" %
          (src, st[0], st[1] + len(ages), st[1], st[2], len(ages),
           max(ages, default=0.0)))
EOF
timeout 20 python3 "$work/trickle.py" "$port" 12 "$work/trickling" \
	127.0.0.2:256 127.0.0.3:32 >"$work/trickle.txt" 2>&1 &
tpid=$!
pids+=("$tpid")
wait_for '[ -e "$work/trickling" ] || ! kill -0 "$tpid" 2>/dev/null' 10
: >"$work/drip-scrapes.txt"
# 0.3 s apart: the 10 scrapes fall within the 5 s the server holds the
# trickling connections, until it cuts them
for i in $(seq 10); do
	curl -s -m 3 -o /dev/null -w '%{http_code} %{size_download} %{time_total}\n' \
		"$URL/metrics" >>"$work/drip-scrapes.txt"
	sleep 0.3
done
wait "$tpid"
sed 's/^/  trickle from /' "$work/trickle.txt"
slowest=$(awk '{ if ($3 > m) m = $3 } END { print m + 0 }' "$work/drip-scrapes.txt")
quick=$(awk '$1 == 200 && $2 > 1000 && $3 < 1.0' "$work/drip-scrapes.txt" | wc -l)
if [ "$quick" = 10 ]; then
	pass "$T: 10 scrapes from 127.0.0.1 answer within 1 s while 127.0.0.2 and 127.0.0.3 trickle 288 connections (slowest ${slowest}s)"
else
	cat "$work/drip-scrapes.txt"
	fail "$T: scrapes beside trickling clients: $quick of 10 answered within 1 s (slowest ${slowest}s)"
fi
# every address held some (else nothing was tested), at most 32, all cut
# within the 5 s header deadline (+1 s for the 0.2 s checks and the drip)
held=$(awk '{ h += $5 } END { print h + 0 }' "$work/trickle.txt")
if [ "$(wc -l <"$work/trickle.txt")" = 2 ] &&
	awk '$5 < 1 || $5 > 32 || $11 != 0 || $9 > 6.0 { bad = 1 } END { exit bad }' "$work/trickle.txt"; then
	pass "$T: trickling connections are cut at the 5 s header deadline ($held held, longest $(awk '{ if ($9 > m) m = $9 } END { print m }' "$work/trickle.txt")s), at most 32 per address"
else
	fail "$T: trickling connections: want 1 to 32 held per address, all cut within 6 s, none left open: $(tr '\n' ';' <"$work/trickle.txt")"
fi

# ---- still collecting, unprivileged, and stops cleanly ------------------
errs=$(curl -s "$URL/metrics" | awk '$1 == "lockscope_collection_errors_total" { print $2 }')
if [ "$errs" = 0 ] && [ "$(awk '/^Uid:/ { print $2 }' "$st")" = "$nobody" ]; then
	pass "$T: every map read succeeded after privileges were dropped"
else
	fail "$T: map reads after the privilege drop: $errs errors"
fi
kill "$stress" 2>/dev/null
kill -TERM "$SPID"
rc=0
if ! wait_for "! kill -0 $SPID 2>/dev/null" 5; then
	fail "$T: stops on SIGTERM within 5 s"
else
	wait "$SPID"
	rc=$?
	check "$T: stops on SIGTERM, exit status 0" [ "$rc" = 0 ]
	# its last line counts the connections it cut
	stopline=$(tail -1 "$work/serve.log")
	echo "  $stopline"
	ncut=$(sed -n 's/.*deadline: \([0-9]*\) for late headers.*/\1/p' <<<"$stopline")
	if [ -n "$ncut" ] && [ "$ncut" -ge "${held:-1}" ]; then
		pass "$T: the stop line counts the connections cut at the deadline ($ncut, $held of them trickling)"
	else
		fail "$T: the stop line counts the connections cut: '${ncut}' of ${held:-?} trickling"
	fi
fi

# three more serves start at once, each checked below once it is up:
# --addr, --user NUMBER, --user root --allow-root
spawn_serve "$work/serve-addr.log" --addr -i 0.5 -F 0
addr_pid=$SPID
spawn_serve "$work/serve-uid.log" --user "$nobody" -i 0.5
uid_pid=$SPID
spawn_serve "$work/serve-root.log" --user root --allow-root -i 0.5
root_pid=$SPID

# ---- --addr: the raw address is a label only when asked ----------------
if serve_up "$work/serve-addr.log" "$addr_pid"; then
	scrape_fresh "$URL" "$work/m-addr.txt"
	if grep -Eq '^lockscope_lock_contentions_total\{[^}]*addr="ffff[0-9a-f]{12}"' "$work/m-addr.txt"; then
		pass "$T: --addr adds the lock address as a label"
	else
		grep '^lockscope_lock_contentions_total' "$work/m-addr.txt" | head -3
		fail "$T: --addr adds the lock address as a label"
	fi
	kill "$SPID"
else
	fail "$T: starts with --addr"
fi

# ---- bad command lines: one line, exit 2 ----------------------------------
for args in "--listen nowhere" "--listen 127.0.0.1:99999" "--max-series -1" "--user no-such-user-here"; do
	# shellcheck disable=SC2086
	out=$("$LS" serve $args 2>&1)
	rc=$?
	if [ "$rc" = 2 ] && [ "$(echo "$out" | grep -c '^lockscope: failed to')" = 1 ]; then
		pass "$T: 'serve $args' fails with one clear line (exit $rc)"
	else
		echo "$out"
		fail "$T: 'serve $args' fails with one clear line (exit $rc)"
	fi
done

# ---- --user: root refused by name and number, numbers like names ---------
out_name=$(timeout 10 "$LS" serve --listen 127.0.0.1:0 --user root 2>&1)
rc_name=$?
out_num=$(timeout 10 "$LS" serve --listen 127.0.0.1:0 --user 0 2>&1)
rc_num=$?
echo "  --user root: exit $rc_name: $(head -1 <<<"$out_name")"
echo "  --user 0: exit $rc_num: $(head -1 <<<"$out_num")"
if [ "$rc_name" = 2 ] && [ "$rc_num" = 2 ] &&
	[ "$(grep -c '^lockscope: failed to' <<<"$out_name")" = 1 ] &&
	grep -q 'uid 0' <<<"$out_name" &&
	[ "${out_name/user \'root\'/user X}" = "${out_num/user \'0\'/user X}" ]; then
	pass "$T: --user root and --user 0 are refused alike, one line and a hint, exit 2"
else
	fail "$T: --user root (exit $rc_name) and --user 0 (exit $rc_num) refused alike: '$out_name' / '$out_num'"
fi
out=$(timeout 10 "$LS" serve --listen 127.0.0.1:0 --user 123456789 2>&1)
rc=$?
if [ "$rc" = 2 ] && grep -q "^lockscope: failed to find user '123456789': no account has uid 123456789" <<<"$out"; then
	pass "$T: a uid without an account is refused, exit 2"
else
	fail "$T: --user 123456789: exit $rc: $out"
fi
# uid STATUS_FILE: real, effective, saved and fs uid, and the capabilities
ids() {
	awk '/^Uid:/ { u = $2 " " $3 " " $4 " " $5 } /^CapEff:/ { e = $2 }
		/^CapBnd:/ { b = $2 } /^NoNewPrivs:/ { n = $2 }
		END { print u, e, b, n }' "$1"
}
if serve_up "$work/serve-uid.log" "$uid_pid"; then
	got=$(ids "/proc/$SPID/status")
	if [ "$got" = "$nobody $nobody $nobody $nobody 0000000000000000 0000000000000000 1" ]; then
		pass "$T: --user $nobody (a number) runs as that uid, no capabilities"
	else
		fail "$T: --user $nobody: Uid, CapEff, CapBnd, NoNewPrivs are '$got'"
	fi
	kill "$SPID"
else
	fail "$T: starts with --user $nobody"
fi
if serve_up "$work/serve-root.log" "$root_pid"; then
	got=$(ids "/proc/$SPID/status")
	if [ "$got" = "0 0 0 0 0000000000000000 0000000000000000 1" ] &&
		[ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/metrics")" = 200 ]; then
		pass "$T: --user root --allow-root runs as uid 0 without capabilities and serves"
	else
		fail "$T: --user root --allow-root: Uid, CapEff, CapBnd, NoNewPrivs are '$got'"
	fi
	kill "$SPID"
else
	fail "$T: starts with --user root --allow-root"
fi
