// SPDX-License-Identifier: GPL-2.0
/*
 * ui_procs.c - processes of one cgroup and all its descendants
 * (cgroup.procs of each) with their RSS (VmRSS in <root>/proc/PID/status)
 * and the cgroup they are in, for the detail screen.  No cap: the list
 * grows as far as memory allows, and says so when it cannot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ui.h"
#include "util.h"

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

static struct proc_ent *grow(struct proc_list *l)
{
	struct proc_ent *v;
	size_t cap;

	if (l->n == l->cap) {
		cap = l->cap ? l->cap * 2 : 64;
		v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	memset(&l->v[l->n], 0, sizeof(*l->v));
	return &l->v[l->n];
}

static void failed(struct proc_list *l, int err)
{
	if (!l->err)
		l->err = err;
	l->nerr++;
}

/* The processes of one cgroup; rel: its path below the subtree's root. */
static int read_one(struct proc_list *l, const char *root, const char *cgdir,
		    const char *path, const char *rel)
{
	char *dir = path_join(cgdir, path), *file, *s, *p, *end;
	struct proc_ent *e;
	long pid;

	file = dir ? path_join(dir, "cgroup.procs") : NULL;
	free(dir);
	s = file ? read_text_file(file, NULL) : NULL;
	if (!s)
		failed(l, file ? errno : ENOMEM);
	free(file);
	for (p = s; p && *p; p = end) {
		pid = strtol(p, &end, 10);
		if (end == p)
			break;
		if (!(e = grow(l)) || !(e->cg = strdup(rel))) {
			free(s);
			failed(l, ENOMEM);
			return -1;
		}
		e->pid = pid;
		read_status(e, root);
		l->n++;
	}
	free(s);
	return 0;
}

void procs_read(struct proc_list *l, const char *root, const char *cgdir,
		const struct report *r, size_t i)
{
	size_t j, skip;

	procs_free(l);
	if (i >= r->n)
		return;
	skip = strcmp(r->cg[i].path, "/") ? strlen(r->cg[i].path) + 1 : 1;
	for (j = i; j < r->n; j++) {
		if (j > i && r->cg[j].depth <= r->cg[i].depth)
			break;	/* pre-order: the subtree ends here */
		if (r->cg[j].pseudo)
			continue;
		if (read_one(l, root, cgdir, r->cg[j].path,
			     j == i ? "" : r->cg[j].path + skip))
			break;
	}
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_rss);
}

void procs_free(struct proc_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].cg);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}
