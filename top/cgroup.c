// SPDX-License-Identifier: GPL-2.0
/* cgroup.c - find the cgroup2 mount and walk its tree */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cgroup.h"
#include "util.h"

#define MAX_DEPTH 64

/* Undo mountinfo's octal escapes (\040 for space etc.) in place. */
static void unescape_octal(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/* Field 5 is the mount point; the fs type follows the " - " separator. */
static char *line_cgroup2(char *line)
{
	char *sep = strstr(line, " - "), *f, *save = NULL;
	int i;

	if (!sep)
		return NULL;
	*sep = '\0';
	f = strtok_r(sep + 3, " ", &save);
	if (!f || strcmp(f, "cgroup2"))
		return NULL;
	f = strtok_r(line, " ", &save);
	for (i = 1; f && i < 5; i++)
		f = strtok_r(NULL, " ", &save);
	return f;
}

char *cg_mountinfo_cgroup2(const char *mountinfo)
{
	char *copy = strdup(mountinfo), *line, *save = NULL, *mp, *res = NULL;

	if (!copy)
		return NULL;
	for (line = strtok_r(copy, "\n", &save); line && !res;
	     line = strtok_r(NULL, "\n", &save)) {
		mp = line_cgroup2(line);
		if (mp) {
			unescape_octal(mp);
			res = strdup(mp);
		}
	}
	free(copy);
	return res;
}

char *cg_find_mount(const char *root, char *err, size_t errlen)
{
	char *path = path_join(root, "proc/self/mountinfo"), *text, *mp, *res;

	if (!path)
		goto nomem;
	text = read_text_file(path, NULL);
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(path);
		return NULL;
	}
	mp = cg_mountinfo_cgroup2(text);
	free(text);
	if (!mp) {
		snprintf(err, errlen, "no cgroup2 mount in %s; mount one "
			 "(mount -t cgroup2 none /sys/fs/cgroup) or use "
			 "--cgroup DIR", path);
		free(path);
		return NULL;
	}
	free(path);
	res = path_join(root, mp);
	free(mp);
	if (res)
		return res;
nomem:
	snprintf(err, errlen, "out of memory");
	return NULL;
}

static int push(struct cg_tree *t, char *path, size_t nlen, uint64_t ino,
		int parent, int depth)
{
	struct cg_node *n;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct cg_node *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	n = &t->v[t->n++];
	memset(n, 0, sizeof(*n));
	n->path = path;
	n->name = path + strlen(path) - nlen;
	n->ino = ino;
	n->parent = parent;
	n->depth = depth;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the subdirectories of dir; NULL + *n = 0 if none. */
static char **list_dirs(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL, **nv;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN)
			continue;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[*n] = strdup(e->d_name);
		if (!v[*n])
			break;
		(*n)++;
	}
	closedir(d);
	if (v)
		qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

static int walk(struct cg_tree *t, const char *mount, char *rel,
		size_t nlen, int parent, int depth)
{
	char *abs = path_join(mount, rel), **kids;
	struct stat st;
	size_t i, n;
	int self, rc = 0;

	if (!abs)
		return -1;
	if (stat(abs, &st) || !S_ISDIR(st.st_mode)) {
		free(abs);
		free(rel);
		return 0;	/* vanished meanwhile: not fatal */
	}
	if (push(t, rel, nlen, (uint64_t)st.st_ino, parent, depth)) {
		free(abs);
		free(rel);
		return -1;
	}
	self = (int)t->n - 1;
	cg_read_mem(abs, &t->v[self].mem);
	kids = depth < MAX_DEPTH ? list_dirs(abs, &n) : (n = 0, NULL);
	free(abs);
	for (i = 0; i < n; i++) {
		char *child = rc ? NULL : path_join(rel, kids[i]);

		if (!rc && !child)
			rc = -1;
		if (!rc)
			rc = walk(t, mount, child, strlen(kids[i]), self,
				  depth + 1);
		free(kids[i]);
	}
	free(kids);
	return rc;
}

static int cmp_ino(const void *a, const void *b)
{
	const struct cg_ino *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static int index_inodes(struct cg_tree *t)
{
	size_t i;

	free(t->by_ino);
	t->by_ino = calloc(t->n ? t->n : 1, sizeof(*t->by_ino));
	if (!t->by_ino)
		return -1;
	for (i = 0; i < t->n; i++) {
		t->by_ino[i].ino = t->v[i].ino;
		t->by_ino[i].idx = i;
	}
	qsort(t->by_ino, t->n, sizeof(*t->by_ino), cmp_ino);
	return 0;
}

int cg_tree_scan(struct cg_tree *t, const char *dir, char *err, size_t errlen)
{
	char *rel = strdup("/");
	struct stat st;

	cg_tree_free(t);
	errno = 0;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cgroup root %s: %s", dir,
			 errno ? strerror(errno) : "not a directory");
		free(rel);
		return -1;
	}
	if (!rel || walk(t, dir, rel, 1, -1, 0) || index_inodes(t)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

void cg_tree_free(struct cg_tree *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].path);
	free(t->v);
	free(t->by_ino);
	memset(t, 0, sizeof(*t));
}

long cg_tree_find(const struct cg_tree *t, uint64_t ino)
{
	struct cg_ino key = { .ino = ino }, *hit;

	if (!t->by_ino)
		return -1;
	hit = bsearch(&key, t->by_ino, t->n, sizeof(key), cmp_ino);
	return hit ? (long)hit->idx : -1;
}
