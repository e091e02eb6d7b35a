// SPDX-License-Identifier: GPL-2.0
/*
 * procs.c - what the engine reads for the screens besides the report:
 * the processes of one cgroup and all its descendants (cgroup.procs of
 * each) with their RSS (VmRSS in <root>/proc/PID/status) and the cgroup
 * they are in, and the host's name, kernel release and memory size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "procs.h"
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

static struct proc_ent *procs_grow(struct proc_list *l)
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

static void procs_failed(struct proc_list *l, int err)
{
	if (!l->err)
		l->err = err;
	l->nerr++;
}

/* The processes of one cgroup; rel: its path below the subtree's root. */
static int read_cgroup_procs(struct proc_list *l, const char *root,
			     const char *cgdir, const char *path,
			     const char *rel)
{
	char *dir = path_join(cgdir, path), *file, *s, *p, *end;
	struct proc_ent *e;
	long pid;

	file = dir ? path_join(dir, "cgroup.procs") : NULL;
	free(dir);
	s = file ? read_text_file(file, NULL) : NULL;
	if (!s)
		procs_failed(l, file ? errno : ENOMEM);
	free(file);
	for (p = s; p && *p; p = end) {
		pid = strtol(p, &end, 10);
		if (end == p)
			break;
		if (!(e = procs_grow(l)) || !(e->cg = strdup(rel))) {
			free(s);
			procs_failed(l, ENOMEM);
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
		if (read_cgroup_procs(l, root, cgdir, r->cg[j].path,
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

/* The first line of <root>/rel, malloc'ed, or NULL. */
static char *read_line_file(const char *root, const char *rel)
{
	char *p = path_join(root, rel), *s, *nl;

	if (!p)
		return NULL;
	s = read_text_file(p, NULL);
	free(p);
	if (s && (nl = strchr(s, '\n')))
		*nl = '\0';
	return s;
}

static uint64_t read_mem_total(const char *root)
{
	char *s = read_line_file(root, "proc/meminfo");
	unsigned long long kb = 0;

	if (s && sscanf(s, "MemTotal: %llu kB", &kb) != 1)
		kb = 0;
	free(s);
	return (uint64_t)kb << 10;
}

void host_read(struct host_info *h, const char *root)
{
	h->name = read_line_file(root, "proc/sys/kernel/hostname");
	h->kernel = read_line_file(root, "proc/sys/kernel/osrelease");
	h->mem_total = read_mem_total(root);
}

void host_free(struct host_info *h)
{
	free(h->name);
	free(h->kernel);
	memset(h, 0, sizeof(*h));
}
