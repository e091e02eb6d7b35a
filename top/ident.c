// SPDX-License-Identifier: GPL-2.0
/* ident.c - systemd and Kubernetes identity from a cgroup path (ident.h) */
#include <string.h>
#include "fmt.h"
#include "ident.h"

const char *const ident_name[IDENT_FIELDS] = {
	"unit", "slice", "pod_uid", "qos_class", "container_id",
	"container_runtime",
};

static const struct runtime {
	const char *prefix, *name;
} runtimes[] = {
	{ "cri-containerd-", "containerd" },
	{ "crio-", "cri-o" },
	{ "docker-", "docker" },
	{ "libpod-", "podman" },
};

static void set(struct ident *id, int f, const char *s, size_t n)
{
	if (n >= IDENT_MAX)
		n = IDENT_MAX - 1;
	memcpy(id->f[f], s, n);
	id->f[f][n] = 0;
}

static int ends(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);

	return n > k && !memcmp(s + n - k, suf, k);
}

static int is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strchr("0123456789abcdef", s[i]) || !s[i])
			return 0;
	return n > 0;
}

/* A pod UID: 32 hex digits and four '-' (or '_' under systemd). */
static int pod_uid(struct ident *id, const char *s, size_t n)
{
	size_t i;

	if (n != 36)
		return 0;
	for (i = 0; i < n; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-' && s[i] != '_' : !is_hex(s + i, 1))
			return 0;
	}
	set(id, ID_POD_UID, s, n);
	for (i = 0; i < n; i++)
		if (id->f[ID_POD_UID][i] == '_')
			id->f[ID_POD_UID][i] = '-';
	return 1;
}

static void container(struct ident *id, const char *s, size_t n)
{
	size_t i, k;

	if (n == 64 && is_hex(s, n)) {		/* cgroupfs driver */
		set(id, ID_CONTAINER_ID, s, n);
		return;
	}
	if (!ends(s, n, ".scope"))
		return;
	for (i = 0; i < sizeof(runtimes) / sizeof(*runtimes); i++) {
		k = strlen(runtimes[i].prefix);
		if (n < k + 6 || memcmp(s, runtimes[i].prefix, k) ||
		    !is_hex(s + k, n - k - 6) || n - k - 6 < 12)
			continue;
		set(id, ID_CONTAINER_ID, s + k, n - k - 6);
		set(id, ID_RUNTIME, runtimes[i].name, strlen(runtimes[i].name));
		return;
	}
}

/* Under kubepods: a QoS level, a pod, or a container of the pod. */
static void kube(struct ident *id, const char *s, size_t n)
{
	static const char *const qos[] = { "burstable", "besteffort" };
	size_t i, k;

	for (i = 0; i < 2; i++) {
		k = strlen(qos[i]);
		if ((n == k && !memcmp(s, qos[i], k)) ||
		    (n == k + 15 && !memcmp(s, "kubepods-", 9) &&
		     !memcmp(s + 9, qos[i], k) && ends(s, n, ".slice"))) {
			set(id, ID_QOS, qos[i], k);
			return;
		}
	}
	if (!id->f[ID_POD_UID][0]) {
		/* "pod<UID>" or "kubepods[-<qos>]-pod<UID>.slice" */
		k = n;
		if (ends(s, n, ".slice"))
			k -= 6;
		for (i = 0; i + 3 <= k; i++)
			if ((i == 0 || s[i - 1] == '-') &&
			    !memcmp(s + i, "pod", 3))
				break;
		if (i + 3 <= k && pod_uid(id, s + i + 3, k - i - 3) &&
		    !id->f[ID_QOS][0])
			set(id, ID_QOS, "guaranteed", 10);
		return;
	}
	container(id, s, n);
}

/* <runtime>-<hex ID>.scope: a container's scope, whatever the parent. */
static int container_scope(const char *s, size_t n)
{
	size_t i, k;

	if (!ends(s, n, ".scope"))
		return 0;
	for (i = 0; i < sizeof(runtimes) / sizeof(*runtimes); i++) {
		k = strlen(runtimes[i].prefix);
		if (n >= k + 6 + 12 && !memcmp(s, runtimes[i].prefix, k) &&
		    is_hex(s + k, n - k - 6))
			return 1;
	}
	return 0;
}

/*
 * A unit that names a workload: not a container's scope nor a login
 * session's (session-N.scope), which come and go with every container
 * and login; under those the unit is "", not an outer one.
 */
static void unit(struct ident *id, const char *s, size_t n)
{
	if (container_scope(s, n)) {
		set(id, ID_UNIT, "", 0);
		container(id, s, n);
	} else if (ends(s, n, ".scope") && n > 14 &&
		   !memcmp(s, "session-", 8)) {
		set(id, ID_UNIT, "", 0);
	} else {
		set(id, ID_UNIT, s, n);
	}
}

void ident_parse(const char *path, struct ident *id)
{
	const char *s = path, *e;
	int in_kube = 0;
	size_t n;

	memset(id, 0, sizeof(*id));
	for (; *s; s = *e ? e + 1 : e) {
		e = strchr(s, '/');
		if (!e)
			e = s + strlen(s);
		n = (size_t)(e - s);
		if (!n)
			continue;
		if (ends(s, n, ".slice"))
			set(id, ID_SLICE, s, n);
		else if (ends(s, n, ".service") || ends(s, n, ".scope"))
			unit(id, s, n);
		if (in_kube)
			kube(id, s, n);
		else if ((n == 8 && !memcmp(s, "kubepods", 8)) ||
			 (n == 14 && !memcmp(s, "kubepods.slice", 14)))
			in_kube = 1;
	}
}

int ident_aggregate(const char *path)
{
	const char *name = strrchr(path, '/');
	struct ident id;
	size_t n;

	name = name ? name + 1 : path;
	n = strlen(name);
	if (!n)
		return 1;	/* "/" */
	ident_parse(path, &id);
	if (ends(name, n, ".slice") || !strcmp(name, "kubepods"))
		return !id.f[ID_POD_UID][0];
	return id.f[ID_QOS][0] && !id.f[ID_POD_UID][0];
}

void ident_json(struct sbuf *b, const char *path)
{
	struct ident id;
	int f;

	ident_parse(path, &id);
	sb_puts(b, "\"identity\":{");
	for (f = 0; f < IDENT_FIELDS; f++) {
		sb_printf(b, "%s\"%s\":", f ? "," : "", ident_name[f]);
		if (!id.f[f][0]) {
			sb_puts(b, "null");
			continue;
		}
		sb_putc(b, '"');
		fmt_esc_json(b, id.f[f]);
		sb_putc(b, '"');
	}
	sb_puts(b, "},");
}

void ident_text(struct sbuf *b, const char *path)
{
	const char *sep = "  [";
	struct ident id;
	int f, any = 0;

	ident_parse(path, &id);
	for (f = 0; f < IDENT_FIELDS; f++) {
		if (!id.f[f][0])
			continue;
		sb_printf(b, "%s%s=", sep, ident_name[f]);
		fmt_esc_text(b, id.f[f]);
		sep = " ";
		any = 1;
	}
	if (any)
		sb_putc(b, ']');
}
