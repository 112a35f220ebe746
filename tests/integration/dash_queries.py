#!/usr/bin/env python3
"""dash_queries.py DASHBOARD PROMETHEUS_URL local|fleet MIN - run the
queries of the shipped Grafana dashboard against Prometheus; each must
return data.  "local": the panels of one instance's series (test_serve.sh);
"fleet": the panels of the recording rules and cgroup series
(test_fleet.sh).  Prints "N queries, N empty" and each empty one; exits 1
when one is empty or fewer than MIN ran."""
import json
import sys
import urllib.parse
import urllib.request

dash, base = json.load(open(sys.argv[1])), sys.argv[2]
fleet, least = sys.argv[3] == "fleet", int(sys.argv[4])
empty, n = [], 0
for p in dash["panels"]:
    for t in p.get("targets", []):
        q = t["expr"].replace("$instance", ".*").replace("$__rate_interval", "10s")
        if ("lockscope:" in q or "lockscope_cgroup_" in q) != fleet:
            continue
        url = base + "/api/v1/query?" + urllib.parse.urlencode({"query": q})
        d = json.load(urllib.request.urlopen(url, timeout=10))
        n += 1
        if d["status"] != "success" or not d["data"]["result"]:
            empty.append("%s: %s" % (p["title"], q))
print("%d queries, %d empty" % (n, len(empty)))
for e in empty:
    print("  empty:", e)
sys.exit(1 if empty or n < least else 0)
