#!/usr/bin/env bash
# tests/static/test_packaging.sh - the deployment files say what lockscope
# needs: the Kubernetes DaemonSet (hostPID, the capabilities or privileged,
# /sys/kernel/btf and the node's cgroup v2 tree mounted, the port the args
# listen on) and the file_sd scrape config (promtool, where installed).
set -u
. "$(dirname "$0")/../lib.sh"
cd "$LS_ROOT" || exit 1

if ! python3 -c 'import yaml' 2>/dev/null; then
	skip "packaging: python3-yaml is not installed"
	exit 0
fi
verdicts packaging < <(python3 - packaging/k8s/lockscope-daemonset.yaml <<'PY'
import sys, yaml

def say(ok, text):
    print(("pass" if ok else "fail") + "|" + text)

docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
ds = [d for d in docs if d.get("kind") == "DaemonSet"]
say(len(ds) == 1, "the manifest holds one DaemonSet")
if not ds:
    sys.exit(0)
spec = ds[0]["spec"]["template"]["spec"]
say(spec.get("hostPID") is True, "DaemonSet: hostPID is true")
cs = [c for c in spec["containers"] if "serve" in c.get("args", [])]
say(len(cs) == 1, "DaemonSet: one container runs lockscope serve")
if not cs:
    sys.exit(0)
c = cs[0]
sc = c.get("securityContext", {})
caps = set(sc.get("capabilities", {}).get("add", []))
need = {"BPF", "PERFMON", "SYS_ADMIN", "SETUID", "SETGID", "SETPCAP"}
say(sc.get("privileged") is True or need <= caps,
    "DaemonSet: privileged, or the capabilities %s (has %s)"
    % (sorted(need), sorted(caps)))
vols = {v["name"]: v.get("hostPath", {}).get("path") for v in spec.get("volumes", [])}
mounts = {m["mountPath"]: vols.get(m["name"]) for m in c.get("volumeMounts", [])}
say(mounts.get("/sys/kernel/btf") == "/sys/kernel/btf",
    "DaemonSet: the node's /sys/kernel/btf at /sys/kernel/btf (mounts %s)" % mounts)
cg = [p for p, host in mounts.items() if host == "/sys/fs/cgroup"]
say(len(cg) == 1, "DaemonSet: the node's /sys/fs/cgroup mounted (at %s)" % cg)
args = c["args"]
listen = args[args.index("--listen") + 1] if "--listen" in args else "127.0.0.1:9464"
port = int(listen.rsplit(":", 1)[1])
ports = [p["containerPort"] for p in c.get("ports", [])]
ann = ds[0]["spec"]["template"]["metadata"].get("annotations", {})
say(not listen.startswith("127.") and port in ports and
    ann.get("prometheus.io/port") == str(port),
    "DaemonSet: serve listens on %s, the containerPort %s and the scrape "
    "annotation %s agree" % (listen, ports, ann.get("prometheus.io/port")))
user = args[args.index("--user") + 1] if "--user" in args else None
say(user is not None and user.isdigit() and user != "0",
    "DaemonSet: --user is a numeric non-root uid (%s): images lack /etc/passwd entries" % user)
PY
)

# the file_sd scrape config: valid for Prometheus, rules beside it
if command -v promtool >/dev/null; then
	tmp=$(mktemp -d)
	cp packaging/prometheus-file-sd.yml packaging/lockscope-rules.yml "$tmp/"
	if out=$(promtool check config "$tmp/prometheus-file-sd.yml" 2>&1); then
		pass "packaging: promtool accepts the file_sd scrape config and its rules"
	else
		fail "packaging: promtool check config: $(tail -3 <<<"$out")"
	fi
	rm -rf "$tmp"
else
	skip "packaging: promtool is not installed (file_sd config unchecked)"
fi
