// SPDX-License-Identifier: GPL-2.0
/* cgroup.c - find the cgroup2 mount and walk its tree */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cgroup.h"
#include "fmt.h"
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

static void free_names(char **v, size_t n)
{
	while (n--)
		free(v[n]);
	free(v);
}

/* One more name into *v; -1 with errno on ENOMEM. */
static int add_name(char ***v, size_t *n, size_t *cap, const char *name)
{
	char **nv, *s;

	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;

		nv = util_fault("cg.alloc") ? NULL :
		     realloc(*v, c * sizeof(**v));
		if (!nv)
			return -1;
		*v = nv;
		*cap = c;
	}
	s = util_fault("cg.alloc") ? NULL : strdup(name);
	if (!s)
		return -1;
	(*v)[(*n)++] = s;
	return 0;
}

/*
 * Sorted names of the subdirectories of the directory open at fd (which
 * this closes) into *out (NULL, *n = 0 if none or it vanished). -1 with
 * errno when it cannot be read whole.
 */
static int list_dirs(int fd, char ***out, size_t *n)
{
	DIR *d = util_fault("cg.opendir") ? NULL : fdopendir(fd);
	struct dirent *e;
	char **v = NULL;
	size_t cap = 0;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (!d) {
		rc = errno;
		close(fd);
		errno = rc;
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	}
	for (;;) {
		errno = 0;
		e = util_fault("cg.readdir") ? NULL : readdir(d);
		if (!e) {
			rc = errno ? -1 : 0;
			break;
		}
		if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN)
			continue;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((rc = add_name(&v, n, &cap, e->d_name)))
			break;
	}
	if (rc) {
		int err = errno;

		closedir(d);
		free_names(v, *n);
		*n = 0;
		errno = err;
		return -1;
	}
	closedir(d);
	if (v)
		qsort(v, *n, sizeof(*v), cmp_str);
	*out = v;
	return 0;
}

struct walk {
	struct cg_tree *t;
	const char *mount;
	char fail[256];		/* the cgroup that failed, escaped */
	int err;		/* and why */
};

static int walk(struct walk *w, char *rel, size_t nlen, int parent,
		int depth);

static int walk_fail(struct walk *w, const char *rel)
{
	struct sbuf b;

	w->err = errno ? errno : EIO;
	sb_init(&b);
	fmt_esc_text(&b, rel);
	snprintf(w->fail, sizeof(w->fail), "%s", b.oom ? "?" : sb_str(&b));
	sb_free(&b);
	return -1;
}

static int walk_kids(struct walk *w, const char *rel, char **kids, size_t n,
		     int self, int depth)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < n; i++) {
		char *child = rc ? NULL : path_join(rel, kids[i]);

		if (!rc && !child) {
			errno = ENOMEM;
			rc = walk_fail(w, rel);
		}
		if (!rc)
			rc = walk(w, child, strlen(kids[i]), self, depth + 1);
		free(kids[i]);
	}
	free(kids);
	return rc;
}

/*
 * A cgroup's directory is opened once: its inode, its memory.* files and
 * its children all come from that one directory, even if the path is
 * replaced meanwhile, and each file is one lookup instead of a walk of
 * the whole path.  Gone, or replaced by a file or (below the top) a
 * symlink: 1, skipped, not fatal.  0 with *fd, or -1.
 */
static int open_dir(const char *abs, int depth, int *fd, struct stat *st)
{
	int e;

	*fd = open(abs, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
		   (depth ? O_NOFOLLOW : 0));
	if (*fd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == ELOOP ?
		       1 : -1;
	if (!fstat(*fd, st))
		return 0;
	e = errno;
	close(*fd);
	*fd = -1;
	errno = e;
	return -1;
}

/* rel (malloc'ed) goes into the tree or is freed, whatever happens. */
static int walk(struct walk *w, char *rel, size_t nlen, int parent,
		int depth)
{
	char *abs = path_join(w->mount, rel), **kids = NULL;
	struct stat st;
	size_t n = 0;
	int self, v, fd = -1, rc = -1;

	errno = ENOMEM;
	if (!abs || util_fault("cg.node") ||
	    (v = open_dir(abs, depth, &fd, &st)) < 0 ||
	    (!v && push(w->t, rel, nlen, (uint64_t)st.st_ino, parent,
			depth))) {
		rc = walk_fail(w, rel);
	} else if (v) {
		rc = 0;
	} else {
		/* rel belongs to the tree now; list_dirs() closes fd */
		self = (int)w->t->n - 1;
		cg_read_mem(fd, &w->t->v[self].mem);
		free(abs);
		if (depth < MAX_DEPTH) {
			rc = list_dirs(fd, &kids, &n);
		} else {
			close(fd);
			rc = 0;
		}
		if (rc)
			return walk_fail(w, rel);
		return walk_kids(w, rel, kids, n, self, depth);
	}
	if (fd >= 0)
		close(fd);
	free(abs);
	free(rel);
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
	struct walk w = { .t = t, .mount = dir };
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
	if (!rel || walk(&w, rel, 1, -1, 0) || index_inodes(t)) {
		snprintf(err, errlen, "cgroup tree %s%s: %s (no partial tree "
			 "shown)", dir, w.fail[0] == '/' && w.fail[1] ?
			 w.fail : "", strerror(w.err ? w.err : ENOMEM));
		cg_tree_free(t);
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
