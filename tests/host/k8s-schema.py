#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
Offline check of Kubernetes manifests (tests/host/73-kubernetes.sh), as
kubeconform -strict would do it for the kinds and fields idletop's
manifests use: every field known to the API with the right type (an
unknown or misspelt field is an error), required fields present, enums
and quantities valid.  The schema below is a transcription of the
Kubernetes 1.30 API reference for those fields only; a manifest that uses
another field fails here until it is added.

  k8s-schema.py FILE...    prints "KIND/NAME: ok" or the errors; exit 1
                           on any error
"""
import re
import sys

import yaml

STR, INT, BOOL = "string", "integer", "boolean"
QTY = re.compile(r"^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$")
DNS1123 = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
LABEL_KEY = re.compile(r"^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?"
                       r"[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$")
LABEL_VAL = re.compile(r"^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$")


def obj(fields, required=()):
    return ("object", fields, set(required))


def arr(item):
    return ("array", item)


def enum(*values):
    return ("enum", values)


LABELS = ("labels",)
ANNOTATIONS = ("map", STR)
QUANTITY = ("quantity",)
PORT = ("port",)           # an integer or a port name

META = obj({"name": STR, "namespace": STR, "labels": LABELS,
            "annotations": ANNOTATIONS}, ["name"])
SELECTOR = obj({"matchLabels": LABELS})
HTTP_GET = obj({"path": STR, "port": PORT, "scheme": enum("HTTP", "HTTPS")},
               ["port"])
PROBE = obj({"httpGet": HTTP_GET, "initialDelaySeconds": INT,
             "periodSeconds": INT, "timeoutSeconds": INT,
             "failureThreshold": INT, "successThreshold": INT})
PROFILE = obj({"type": enum("RuntimeDefault", "Localhost", "Unconfined"),
               "localhostProfile": STR}, ["type"])
CONTAINER_SC = obj({
    "runAsUser": INT, "runAsNonRoot": BOOL, "readOnlyRootFilesystem": BOOL,
    "allowPrivilegeEscalation": BOOL, "privileged": BOOL,
    "capabilities": obj({"add": arr(STR), "drop": arr(STR)}),
    "seccompProfile": PROFILE, "appArmorProfile": PROFILE})
POD_SC = obj({"runAsUser": INT, "runAsNonRoot": BOOL,
              "seccompProfile": PROFILE, "appArmorProfile": PROFILE})
RESOURCES = obj({"requests": ("map", QUANTITY), "limits": ("map", QUANTITY)})
CONTAINER = obj({
    "name": STR, "image": STR, "command": arr(STR), "args": arr(STR),
    "env": arr(obj({"name": STR, "value": STR, "valueFrom": obj({
        "fieldRef": obj({"fieldPath": STR}, ["fieldPath"])})}, ["name"])),
    "ports": arr(obj({"name": STR, "containerPort": INT,
                      "protocol": enum("TCP", "UDP", "SCTP")},
                     ["containerPort"])),
    "securityContext": CONTAINER_SC, "resources": RESOURCES,
    "startupProbe": PROBE, "readinessProbe": PROBE, "livenessProbe": PROBE,
    "volumeMounts": arr(obj({"name": STR, "mountPath": STR,
                             "readOnly": BOOL}, ["name", "mountPath"])),
}, ["name", "image"])
POD_SPEC = obj({
    "priorityClassName": STR, "automountServiceAccountToken": BOOL,
    "enableServiceLinks": BOOL, "nodeSelector": LABELS,
    "tolerations": arr(obj({"key": STR, "operator": enum("Exists", "Equal"),
                            "value": STR, "effect": STR})),
    "securityContext": POD_SC, "containers": arr(CONTAINER),
    "hostPID": BOOL, "hostNetwork": BOOL, "hostIPC": BOOL,
    "volumes": arr(obj({"name": STR, "hostPath": obj(
        {"path": STR, "type": enum("", "Directory", "DirectoryOrCreate",
                                   "File", "FileOrCreate")}, ["path"])},
        ["name"])),
}, ["containers"])
KINDS = {
    ("v1", "Namespace"): obj({"metadata": META}, ["metadata"]),
    ("scheduling.k8s.io/v1", "PriorityClass"): obj({
        "metadata": META, "value": INT, "globalDefault": BOOL,
        "preemptionPolicy": enum("PreemptLowerPriority", "Never"),
        "description": STR}, ["metadata", "value"]),
    ("apps/v1", "DaemonSet"): obj({"metadata": META, "spec": obj({
        "selector": SELECTOR,
        "updateStrategy": obj({"type": enum("RollingUpdate", "OnDelete")}),
        "template": obj({"metadata": obj({"labels": LABELS,
                                          "annotations": ANNOTATIONS}),
                         "spec": POD_SPEC}, ["spec"]),
    }, ["selector", "template"])}, ["metadata", "spec"]),
    ("networking.k8s.io/v1", "NetworkPolicy"): obj({
        "metadata": META, "spec": obj({
            "podSelector": SELECTOR,
            "policyTypes": arr(enum("Ingress", "Egress")),
            "ingress": arr(obj({
                "from": arr(obj({"namespaceSelector": SELECTOR,
                                 "podSelector": SELECTOR})),
                "ports": arr(obj({"port": PORT,
                                  "protocol": enum("TCP", "UDP", "SCTP")})),
            })),
            "egress": arr(obj({})),
        }, ["podSelector"])}, ["metadata", "spec"]),
    ("monitoring.coreos.com/v1", "PodMonitor"): obj({
        "metadata": META, "spec": obj({
            "selector": SELECTOR,
            "namespaceSelector": obj({"matchNames": arr(STR)}),
            "podMetricsEndpoints": arr(obj({
                "port": STR, "path": STR, "interval": STR,
                "scrapeTimeout": STR, "scheme": enum("http", "https"),
                "relabelings": arr(obj({
                    "sourceLabels": arr(STR), "targetLabel": STR,
                    "regex": STR, "replacement": STR, "separator": STR,
                    "action": enum("replace", "keep", "drop", "labelmap",
                                   "labeldrop", "labelkeep")})),
            })),
        }, ["selector", "podMetricsEndpoints"])}, ["metadata", "spec"]),
}


def check(node, schema, path, errs):
    """Append to errs every way node does not match schema."""
    def err(msg):
        errs.append("%s: %s" % (path or "<top>", msg))

    if schema in (STR, INT, BOOL):
        want = {STR: str, INT: int, BOOL: bool}[schema]
        if not isinstance(node, want) or (want is int and
                                          isinstance(node, bool)):
            err("want %s, got %r" % (schema, node))
        return
    kind = schema[0]
    if kind == "object":
        if not isinstance(node, dict):
            return err("want an object, got %r" % (node,))
        for k in sorted(schema[2] - set(node)):
            err("missing required field %s" % k)
        for k, v in node.items():
            if k not in schema[1]:
                err("unknown field %s" % k)
            else:
                check(v, schema[1][k], "%s.%s" % (path, k), errs)
    elif kind == "array":
        if not isinstance(node, list):
            return err("want an array, got %r" % (node,))
        for i, v in enumerate(node):
            check(v, schema[1], "%s[%d]" % (path, i), errs)
    elif kind == "enum":
        if node not in schema[1]:
            err("%r is not one of %s" % (node, ", ".join(schema[1])))
    elif kind == "map":
        if not isinstance(node, dict):
            return err("want a map, got %r" % (node,))
        for k, v in node.items():
            check(v, schema[1], "%s[%s]" % (path, k), errs)
    elif kind == "labels":
        if not isinstance(node, dict):
            return err("want a map of labels, got %r" % (node,))
        for k, v in node.items():
            if not isinstance(k, str) or not LABEL_KEY.match(k):
                err("bad label key %r" % (k,))
            if not isinstance(v, str) or not LABEL_VAL.match(v) or len(v) > 63:
                err("label %s: value %r is not a string label value" % (k, v))
    elif kind == "quantity":
        if not isinstance(node, str) or not QTY.match(node):
            err("bad quantity %r" % (node,))
    elif kind == "port":
        if isinstance(node, bool) or not (
                (isinstance(node, int) and 0 < node < 65536) or
                (isinstance(node, str) and DNS1123.match(node) and
                 len(node) <= 15)):
            err("bad port %r" % (node,))


def check_doc(doc):
    errs = []
    if not isinstance(doc, dict):
        return "?", ["<top>: not an object"]
    key = (doc.get("apiVersion"), doc.get("kind"))
    name = "%s/%s" % (key[1], (doc.get("metadata") or {}).get("name"))
    schema = KINDS.get(key)
    if schema is None:
        return name, ["unknown apiVersion/kind %s/%s" % key]
    body = {k: v for k, v in doc.items() if k not in ("apiVersion", "kind")}
    check(body, schema, "", errs)
    meta = doc.get("metadata") or {}
    if isinstance(meta.get("name"), str) and not DNS1123.match(meta["name"]):
        errs.append("metadata.name %r is not a DNS-1123 label" % meta["name"])
    return name, errs


def main(files):
    bad = 0
    for f in files:
        with open(f) as fh:
            try:
                docs = [d for d in yaml.safe_load_all(fh) if d is not None]
            except yaml.YAMLError as e:
                print("%s: YAML: %s" % (f, e))
                bad += 1
                continue
        for doc in docs:
            name, errs = check_doc(doc)
            for e in errs:
                print("%s: %s: %s" % (f, name, e))
            if not errs:
                print("%s: %s: ok" % (f, name))
            bad += len(errs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
