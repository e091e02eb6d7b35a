#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# dist/kubernetes and dist/apparmor, offline (no cluster): every manifest
# passes a strict schema check (tests/host/k8s-schema.py: unknown fields,
# types, enums, quantities, labels), the checker itself rejects broken
# manifests, the DaemonSet is what docs/admin-guide.md promises (seccomp
# RuntimeDefault, the shipped AppArmor profile by its name, a node
# selector, no service account token, a priority class it ships that is
# not system-*, a Namespace with Pod Security labels, probes on /healthz
# of the metrics port, a node label from --node-label, the PodMonitor on
# that port with the node's name as instance, a
# NetworkPolicy that admits only scrapes of that port),
# and apparmor_parser -Q -K parses the profile, which allows
# /proc/kpageidle rw and denies mount.  Needs python3-yaml and apparmor
# (vm/deps test).  About 1 s.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
py=/usr/bin/python3
k8s=$top/dist/kubernetes
profile=$top/dist/apparmor/idletop
schema=$top/tests/host/k8s-schema.py

if ! "$py" -c 'import yaml' 2> /dev/null; then
	bad "python3-yaml not found: run 'vm/deps test'"
elif "$schema" "$k8s"/*.yaml > "$tmp/out" 2>&1; then
	ok "schema: $(grep -c ': ok$' "$tmp/out") objects in dist/kubernetes"
else
	bad "schema:"; cat "$tmp/out"
fi

# the checker can fail: each of these breaks the DaemonSet once
n=0
for edit in 's/readOnlyRootFilesystem:/readOnlyRootFilesytem:/' \
	's/runAsUser: 0/runAsUser: "0"/' \
	's/type: RuntimeDefault/type: Default/' \
	's/memory: 1Gi/memory: 1 GiB/' \
	's/^kind: DaemonSet/kind: Daemonset/' \
	's|feature.node.kubernetes.io/idlemem: "true"|feature.node.kubernetes.io/idlemem: true|'; do
	sed "$edit" "$k8s/idletop-daemonset.yaml" > "$tmp/broken.yaml"
	cmp -s "$tmp/broken.yaml" "$k8s/idletop-daemonset.yaml" && continue
	"$schema" "$tmp/broken.yaml" > /dev/null 2>&1 || n=$((n + 1))
done
[ "$n" -eq 6 ] && ok "schema rejects 6 of 6 broken manifests" ||
	bad "schema rejects only $n of 6 broken manifests"

# what the DaemonSet must say, beyond its schema
"$py" - "$k8s" "$profile" > "$tmp/policy" 2>&1 <<'EOF'
import glob, re, sys, yaml
docs = {}
for f in sorted(glob.glob(sys.argv[1] + "/*.yaml")):
    for d in yaml.safe_load_all(open(f)):
        if d:
            docs[d["kind"]] = d
profile = open(sys.argv[2]).read()
ds, ns, pc, pm, np = (docs.get(k) for k in
                      ("DaemonSet", "Namespace", "PriorityClass", "PodMonitor",
                       "NetworkPolicy"))
pod = ds["spec"]["template"]["spec"]
c = pod["containers"][0]
csc = c["securityContext"]
aa = pod["securityContext"]["appArmorProfile"]
ports = {p["name"]: p["containerPort"] for p in c["ports"]}
mounts = {m["mountPath"]: m for m in c["volumeMounts"]}
cg = [a.split("=", 1)[1] for a in c["args"] if a.startswith("--cgroup=")]
checks = [
    ("seccompProfile RuntimeDefault",
     pod["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault"),
    ("appArmorProfile Localhost names the shipped profile",
     aa["type"] == "Localhost" and re.search(
         r"^profile %s " % re.escape(aa["localhostProfile"]), profile, re.M)),
    ("the command is the binary the profile lets run",
     c["command"] == ["/usr/bin/idletop"] and
     re.search(r"^\s*/usr/bin/idletop m?r?i?x,", profile, re.M)),
    ("node selector on the idlemem label",
     pod["nodeSelector"].get("feature.node.kubernetes.io/idlemem") == "true"),
    ("no service account token", pod["automountServiceAccountToken"] is False),
    ("priority class shipped, not system-*",
     pc and pod["priorityClassName"] == pc["metadata"]["name"] and
     not pc["metadata"]["name"].startswith("system-") and
     pc["value"] < 1000000000),
    ("Namespace with Pod Security labels holds the DaemonSet",
     ns and ds["metadata"]["namespace"] == ns["metadata"]["name"] and
     ns["metadata"]["labels"].get("pod-security.kubernetes.io/enforce")
     in ("baseline", "privileged", "restricted")),
    ("capabilities: drop ALL, add SYS_ADMIN only, not privileged",
     csc["capabilities"] == {"drop": ["ALL"], "add": ["SYS_ADMIN"]} and
     not csc.get("privileged") and csc["allowPrivilegeEscalation"] is False
     and not pod.get("hostPID") and not pod.get("hostNetwork")),
    ("selector matches the pod's labels",
     ds["spec"]["selector"]["matchLabels"].items() <=
     ds["spec"]["template"]["metadata"]["labels"].items()),
    ("--cgroup is the read-only host cgroup mount",
     len(cg) == 1 and cg[0] in mounts and mounts[cg[0]]["readOnly"]),
    ("startup, readiness and liveness probes on /healthz of the metrics port",
     all(c[p]["httpGet"]["path"] == "/healthz" and
         c[p]["httpGet"]["port"] in ports
         for p in ("startupProbe", "readinessProbe", "livenessProbe"))),
    ("--listen on the metrics port",
     "--listen=0.0.0.0:%d" % ports.get("metrics", 0) in c["args"]),
    ("node label: --node-label from the downward API's spec.nodeName",
     "--node-label=$(NODE_NAME)" in c["args"] and
     any(e["name"] == "NODE_NAME" and
         e["valueFrom"]["fieldRef"]["fieldPath"] == "spec.nodeName"
         for e in c.get("env", []))),
    ("PodMonitor: the pods, port metrics, instance is the node, no node label of its own",
     pm and pm["metadata"]["namespace"] == ds["metadata"]["namespace"] and
     pm["spec"]["selector"]["matchLabels"].items() <=
     ds["spec"]["template"]["metadata"]["labels"].items() and
     all(e["port"] in ports for e in pm["spec"]["podMetricsEndpoints"]) and
     any(r.get("targetLabel") == "instance" and
         r.get("sourceLabels") == ["__meta_kubernetes_pod_node_name"]
         for r in pm["spec"]["podMetricsEndpoints"][0]["relabelings"]) and
     not any(r.get("targetLabel") == "node"
             for r in pm["spec"]["podMetricsEndpoints"][0]["relabelings"])),
    ("NetworkPolicy: the pods, ingress on port metrics only, no egress",
     np and np["metadata"]["namespace"] == ds["metadata"]["namespace"] and
     np["spec"]["podSelector"]["matchLabels"].items() <=
     ds["spec"]["template"]["metadata"]["labels"].items() and
     sorted(np["spec"]["policyTypes"]) == ["Egress", "Ingress"] and
     np["spec"]["egress"] == [] and
     all(p["port"] in ports for r in np["spec"]["ingress"] for p in r["ports"])
     and all(r.get("from") for r in np["spec"]["ingress"])),
]
for name, good in checks:
    print(("ok: " if good else "FAIL: ") + name)
EOF
[ -s "$tmp/policy" ] && grep -v '^ok: \|^FAIL: ' "$tmp/policy"
while read -r line; do
	case $line in
	ok:*) ok "${line#ok: }" ;;
	FAIL:*) bad "${line#FAIL: }" ;;
	esac
done < "$tmp/policy"
grep -q '^ok: \|^FAIL: ' "$tmp/policy" || bad "DaemonSet policy checks did not run"

if ! command -v apparmor_parser > /dev/null &&
   ! [ -x /usr/sbin/apparmor_parser ]; then
	bad "apparmor_parser not found (Debian package apparmor): run 'vm/deps test'"
else
	PATH=$PATH:/usr/sbin
	if apparmor_parser -Q -K "$profile" > "$tmp/aa" 2>&1; then
		ok "apparmor_parser -Q -K parses dist/apparmor/idletop"
	else
		bad "apparmor_parser:"; cat "$tmp/aa"
	fi
	# and would reject a broken one
	sed 's/@{PROC}\/kpageidle rw,/@{PROC}\/kpageidle rw/' "$profile" > "$tmp/broken"
	! apparmor_parser -Q -K "$tmp/broken" > /dev/null 2>&1 &&
		ok "apparmor_parser rejects a rule without its comma" ||
		bad "apparmor_parser accepts a broken profile"
fi
grep -qE '^\s*@\{PROC\}/kpageidle rw,' "$profile" &&
	ok "profile allows /proc/kpageidle rw" || bad "profile: no /proc/kpageidle rw"
grep -qE '^\s*deny mount,' "$profile" &&
	! grep -qE '^\s*(audit )?mount[ ,]' "$profile" &&
	ok "profile denies mount and allows none" || bad "profile: mount not denied"
! grep -qE '^\s*deny @\{PROC\}/\* w' "$profile" &&
	ok "profile lacks the default profile's deny of /proc/* writes" ||
	bad "profile denies writes to /proc/kpageidle"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
