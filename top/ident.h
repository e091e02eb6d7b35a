/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ident.h - who a cgroup is, from well-known path layouts, for labels
 * that join with other monitoring (systemd units, kube-state-metrics):
 *
 *   systemd     unit  = the innermost *.service or *.scope component,
 *                       "" when that is a container's scope
 *                       (<runtime>-<hex ID>.scope, runtimes below: its
 *                       container_id and runtime instead, under
 *                       kubepods or not) or a
 *                       login session's (session-N.scope): they come and
 *                       go with each container and login
 *               slice = the innermost *.slice component
 *   Kubernetes  under "kubepods" (cgroupfs driver) or "kubepods.slice"
 *               (systemd driver):
 *               pod_uid   = pod<UID> / kubepods-<qos>-pod<UID>.slice, with
 *                           the systemd driver's '_' turned back into '-'
 *               qos_class = "burstable" / "besteffort" from the QoS level,
 *                           "guaranteed" for a pod directly under kubepods
 *               container_id = a 64-hex directory under a pod (cgroupfs),
 *                           or <runtime>-<ID>.scope (cri-containerd-,
 *                           crio-, docker-, libpod-); container_runtime =
 *                           containerd, cri-o, docker, podman there
 *
 * Fields are "" when the layout does not say.  Every field is part of the
 * cgroup's own name, raw bytes: escape them as the path is escaped.
 */
#ifndef IDLETOP_IDENT_H
#define IDLETOP_IDENT_H

#define IDENT_FIELDS 6
#define IDENT_MAX 256	/* a systemd unit name has at most 255 bytes */

struct ident {
	char f[IDENT_FIELDS][IDENT_MAX];
};

enum ident_field {
	ID_UNIT, ID_SLICE, ID_POD_UID, ID_QOS, ID_CONTAINER_ID, ID_RUNTIME
};

/* Label and JSON key of each field: "unit", "slice", "pod_uid", ... */
extern const char *const ident_name[IDENT_FIELDS];

/* Parse a cgroup path ("/a/b", raw bytes) into *id. */
void ident_parse(const char *path, struct ident *id);
/*
 * 1 when the path is an aggregate, not a workload: "/", a *.slice other
 * than a pod's, kubepods and its QoS levels (cgroupfs driver).
 */
int ident_aggregate(const char *path);

struct sbuf;
/*
 * The identity of a path for JSON, `"identity":{"unit":STR|null, ...},`
 * (every field, null when "") and for text, `  [unit=STR slice=STR]`
 * (the fields that are set, text-escaped; nothing when none is).
 */
void ident_json(struct sbuf *b, const char *path);
void ident_text(struct sbuf *b, const char *path);

#endif
