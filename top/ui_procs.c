// SPDX-License-Identifier: GPL-2.0
/*
 * ui_procs.c - processes of one cgroup (cgroup.procs) with their RSS
 * (VmRSS in <root>/proc/PID/status), for the detail screen.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ui.h"
#include "util.h"

#define PROCS_MAX 4096

static void read_status(struct proc_ent *e, const char *root)
{
	char rel[64], *path, *s, *p, *nl;
	unsigned long long kb;

	e->rss = UINT64_MAX;
	snprintf(rel, sizeof(rel), "proc/%ld/status", e->pid);
	path = path_join(root, rel);
	s = path ? read_text_file(path, NULL) : NULL;
	free(path);
	if (!s)
		return;
	p = strstr(s, "Name:\t");
	if (p) {
		p += 6;
		nl = strchr(p, '\n');
		e->name = strndup(p, nl ? (size_t)(nl - p) : strlen(p));
	}
	p = strstr(s, "\nVmRSS:");
	if (p && sscanf(p + 7, "%llu kB", &kb) == 1)
		e->rss = (uint64_t)kb << 10;
	free(s);
}

static int cmp_rss(const void *a, const void *b)
{
	const struct proc_ent *x = a, *y = b;
	uint64_t rx = x->rss == UINT64_MAX ? 0 : x->rss;
	uint64_t ry = y->rss == UINT64_MAX ? 0 : y->rss;

	return rx < ry ? 1 : rx > ry ? -1 : (x->pid > y->pid) - (x->pid < y->pid);
}

void procs_read(struct proc_list *l, const char *root, const char *cgdir,
		const char *path)
{
	char *dir = path_join(cgdir, path), *file, *s, *p, *end;
	struct proc_ent *v;
	long pid;

	procs_free(l);
	file = dir ? path_join(dir, "cgroup.procs") : NULL;
	free(dir);
	s = file ? read_text_file(file, NULL) : NULL;
	l->err = s ? 0 : file ? errno : ENOMEM;
	free(file);
	if (!s)
		return;
	for (p = s; *p && l->n < PROCS_MAX; p = end) {
		pid = strtol(p, &end, 10);
		if (end == p)
			break;
		v = realloc(l->v, (l->n + 1) * sizeof(*v));
		if (!v) {
			l->err = ENOMEM;
			break;
		}
		l->v = v;
		memset(&v[l->n], 0, sizeof(*v));
		v[l->n].pid = pid;
		read_status(&v[l->n++], root);
	}
	free(s);
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_rss);
}

void procs_free(struct proc_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof(*l));
}
