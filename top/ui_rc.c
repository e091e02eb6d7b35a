// SPDX-License-Identifier: GPL-2.0
/*
 * ui_rc.c - the saved settings, like htop's htoprc: read at start from
 * $XDG_CONFIG_HOME/idletop/idletoprc (default ~/.config), written on
 * exit only when a setting was changed in the TUI.  Lines "key=value",
 * '#' comments:
 *   columns=resident,idle,...   (fields.h ids)
 *   sort=idle  sort_reverse=0|1  units=auto|KiB|MiB|GiB|pages
 *   view=tree|flat
 * Read as htop reads htoprc: never through a symlink, never blocking on
 * a FIFO, only a regular file of ours of at most RC_MAX bytes.  A file
 * that is anything else, or has any bad line, is ignored as a whole,
 * with a warning, and never written; the defaults (and the command line)
 * apply.  Written only into a base directory of ours (only the leaf
 * idletop/ is made), so that root with another user's HOME (sudo -E)
 * writes nothing there; through replace_file() (util.h).  Directories
 * may be symlinks (dotfile managers link ~/.config/idletop): what was
 * opened is checked, by its descriptor, and written through it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ui.h"
#include "util.h"

#define RC_DIR "idletop"
#define RC_FILE "idletoprc"
#define RC_MAX (64 * 1024)	/* bytes: larger is not a settings file */

/* NULL: no settings file (none set, or set-uid: the environment is not ours) */
char *rc_path(void)
{
	const char *x = getenv("XDG_CONFIG_HOME"), *h = getenv("HOME");
	char *p;

	if (getuid() != geteuid())
		return NULL;
	if (x && *x == '/')
		return asprintf(&p, "%s/" RC_DIR "/" RC_FILE, x) < 0 ? NULL : p;
	if (h && *h == '/')
		return asprintf(&p, "%s/.config/" RC_DIR "/" RC_FILE, h) < 0 ?
		       NULL : p;
	return NULL;
}

/* One "key=value" into vs; NULL, or what is wrong with it. */
static const char *rc_line(struct view_state *vs, char *key, char *val)
{
	char err[160];
	int i;

	if (!strcmp(key, "columns"))
		return fields_parse(&vs->cols, val, 0, err, sizeof(err)) ?
		       "unknown field in columns" : NULL;
	if (!strcmp(key, "sort")) {
		i = fields_find(val);
		if (i < 0 || !(fields[i].flags & FF_SORT))
			return "not a sortable field";
		vs->sort = (enum field_id)i;
	} else if (!strcmp(key, "sort_reverse")) {
		if (strcmp(val, "0") && strcmp(val, "1"))
			return "expected 0 or 1";
		vs->sort_rev = *val == '1';
	} else if (!strcmp(key, "units")) {
		if ((i = ui_unit_parse(val)) < 0)
			return "expected auto, KiB, MiB, GiB or pages";
		vs->unit = i;
	} else if (!strcmp(key, "view")) {
		if (strcmp(val, "tree") && strcmp(val, "flat"))
			return "expected tree or flat";
		vs->flat = !strcmp(val, "flat");
	} else {
		return "unknown setting";
	}
	return NULL;
}

/* A file or directory not owned by us: 1, with msg; else 0. */
static int not_ours(const struct stat *st, const char *path, char *msg,
		    size_t len)
{
	if (st->st_uid == geteuid())
		return 0;
	snprintf(msg, len, "%s: owned by uid %u, not by uid %u", path,
		 (unsigned)st->st_uid, (unsigned)geteuid());
	return 1;
}

/* Why the open file fd is not read, or NULL; msg set when it is not ours. */
static const char *refuse(int fd, const char *path, char *msg, size_t len)
{
	struct stat st;

	if (fstat(fd, &st))
		return strerror(errno);
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	return not_ours(&st, path, msg, len) ? "" : NULL;
}

/*
 * The file's text in *text, malloc'ed: 0 (*text NULL: there is none), or
 * -1 with msg.  At most RC_MAX + 1 bytes are read, whatever its size.
 */
static int rc_read(const char *path, char **text, char *msg, size_t len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	const char *why;
	char *buf = NULL;
	ssize_t n = -1;

	*text = NULL;
	if (fd < 0 && errno == ENOENT)
		return 0;
	*msg = '\0';
	why = fd < 0 ? (errno == ELOOP ? "a symbolic link" : strerror(errno)) :
	      refuse(fd, path, msg, len);
	if (!why) {
		buf = malloc(RC_MAX + 2);
		n = buf ? pread_full(fd, buf, RC_MAX + 1, 0) : -1;
		why = !buf ? "out of memory" : n < 0 ? strerror(errno) :
		      n > RC_MAX ? "larger than 64 KiB" : NULL;
	}
	if (fd >= 0)
		close(fd);
	if (buf && n >= 0 && n <= RC_MAX) {
		buf[n] = '\0';
		*text = buf;
		return 0;
	}
	free(buf);
	if (why && *why)
		snprintf(msg, len, "%s: %s", path, why);
	snprintf(msg + strlen(msg), len - strlen(msg), ": ignored");
	return -1;
}

int rc_load(struct view_state *vs, const char *path, char *msg, size_t len)
{
	struct view_state t = *vs;
	char *text, *line, *next, *eq;
	const char *why = NULL;
	int n = 0;

	if (rc_read(path, &text, msg, len))
		return -1;
	for (line = text; line && *line && !why; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n++;
		line[strcspn(line, "\r")] = '\0';
		if (!*line || *line == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq)
			why = "expected key=value";
		else
			*eq = '\0', why = rc_line(&t, line, eq + 1);
	}
	free(text);
	if (why) {
		snprintf(msg, len, "%s:%d: %s: file ignored", path, n, why);
		return -1;
	}
	*vs = t;
	return 0;
}

void rc_take(struct rc_settings *s, const struct view_state *vs)
{
	s->cols = vs->cols;
	s->sort = vs->sort;
	s->sort_rev = vs->sort_rev;
	s->unit = vs->unit;
	s->flat = vs->flat;
}

static int same_cols(const struct field_set *a, const struct field_set *b)
{
	return a->n == b->n && !memcmp(a->id, b->id, a->n * sizeof(*a->id));
}

static int same(const struct rc_settings *a, const struct rc_settings *b)
{
	return same_cols(&a->cols, &b->cols) && a->sort == b->sort &&
	       a->sort_rev == b->sort_rev && a->unit == b->unit &&
	       a->flat == b->flat;
}

int rc_merge(struct rc_settings *out, const struct rc_settings *file,
	     const struct rc_settings *start, const struct view_state *now)
{
	struct rc_settings n;

	rc_take(&n, now);
	*out = *file;
	if (!same_cols(&n.cols, &start->cols))
		out->cols = n.cols;
	if (n.sort != start->sort)
		out->sort = n.sort;
	if (n.sort_rev != start->sort_rev)
		out->sort_rev = n.sort_rev;
	if (n.unit != start->unit)
		out->unit = n.unit;
	if (n.flat != start->flat)
		out->flat = n.flat;
	return !same(out, file);
}

static int write_rc(FILE *f, void *arg)
{
	const struct rc_settings *s = arg;
	struct sbuf b;

	sb_init(&b);
	sb_puts(&b, "# idletop settings, written when idletop quits after a "
		"change\ncolumns=");
	fields_list(&b, &s->cols);
	sb_printf(&b, "\nsort=%s\nsort_reverse=%d\nunits=%s\nview=%s\n",
		  fields[s->sort].id, s->sort_rev, ui_unit_name(s->unit),
		  s->flat ? "flat" : "tree");
	return sb_write(f, &b);
}

/* The directory name under at (AT_FDCWD: a path), if it is ours; or -1. */
static int own_dir(int at, const char *name, const char *path, char *msg,
		   size_t len)
{
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st))
		snprintf(msg, len, "%s: %s", path, strerror(errno));
	else if (!not_ours(&st, path, msg, len))
		return fd;
	if (fd >= 0)
		close(fd);
	return -1;
}

/* The file in dir, when it is none or a regular file of ours. */
static int write_in(int dir, const char *file, const struct rc_settings *s,
		    const char *path, char *msg, size_t len)
{
	struct stat st;

	if (!fstatat(dir, file, &st, AT_SYMLINK_NOFOLLOW)) {
		if (!S_ISREG(st.st_mode)) {
			snprintf(msg, len, "%s: not a regular file", path);
			return -1;
		}
		if (not_ours(&st, path, msg, len))
			return -1;
	}
	if (!replace_file(dir, file, 0600, write_rc, (void *)s))
		return 0;
	snprintf(msg, len, "%s: %s", path, strerror(errno));
	return -1;
}

/* path is BASE/DIR/FILE: BASE must be ours; DIR is made when missing. */
int rc_save(const struct rc_settings *s, const char *path, char *msg,
	    size_t len)
{
	const char *file = strrchr(path, '/');
	char *dir = file ? strndup(path, (size_t)(file - path)) : NULL;
	char *leaf = dir ? strrchr(dir, '/') : NULL;
	int bfd, dfd = -1, rc = -1;

	if (!leaf) {
		snprintf(msg, len, "%s: %s", path, file && !dir ?
			 strerror(ENOMEM) : "not BASE/DIR/FILE");
		free(dir);
		return -1;
	}
	*leaf = '\0';
	bfd = own_dir(AT_FDCWD, *dir ? dir : "/", *dir ? dir : "/", msg, len);
	*leaf++ = '/';
	if (bfd >= 0 && mkdirat(bfd, leaf, 0700) && errno != EEXIST)
		snprintf(msg, len, "%s: %s", dir, strerror(errno));
	else if (bfd >= 0)
		dfd = own_dir(bfd, leaf, dir, msg, len);
	if (dfd >= 0)
		rc = write_in(dfd, file + 1, s, path, msg, len);
	if (dfd >= 0)
		close(dfd);
	if (bfd >= 0)
		close(bfd);
	free(dir);
	return rc;
}
