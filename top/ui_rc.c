// SPDX-License-Identifier: GPL-2.0
/*
 * ui_rc.c - the saved settings, like htop's htoprc: read at start from
 * $XDG_CONFIG_HOME/idletop/idletoprc (default ~/.config), written on
 * exit.  Lines "key=value", '#' comments:
 *   columns=resident,idle,...   (fields.h ids)
 *   sort=idle  sort_reverse=0|1  units=auto|KiB|MiB|GiB|pages
 *   view=tree|flat
 * A file with any bad line is ignored as a whole, with a warning that
 * names the line; the defaults (and the command line) apply.
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

char *rc_path(void)
{
	const char *x = getenv("XDG_CONFIG_HOME"), *h = getenv("HOME");
	char *p;

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

int rc_load(struct view_state *vs, const char *path, char *msg, size_t len)
{
	struct view_state t = *vs;
	char *text = read_text_file(path, NULL), *line, *next, *eq;
	const char *why = NULL;
	int n = 0;

	if (!text)
		return errno == ENOENT ? 0 :
		       (snprintf(msg, len, "%s: %s: ignored", path,
				 strerror(errno)), -1);
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

static int mkdirs(char *path)	/* the directories of a file's path */
{
	char *s;

	for (s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0700) && errno != EEXIST) {
			*s = '/';
			return -1;
		}
		*s = '/';
	}
	return 0;
}

static int write_rc(FILE *f, const struct view_state *vs)
{
	struct sbuf b;
	int rc;

	sb_init(&b);
	sb_puts(&b, "# idletop settings, written when idletop quits\n"
		"columns=");
	fields_list(&b, &vs->cols);
	sb_printf(&b, "\nsort=%s\nsort_reverse=%d\nunits=%s\nview=%s\n",
		  fields[vs->sort].id, vs->sort_rev, ui_unit_name(vs->unit),
		  vs->flat ? "flat" : "tree");
	rc = b.oom ? (errno = ENOMEM, -1) :
	     fwrite(b.p, 1, b.len, f) != b.len ? -1 : 0;
	sb_free(&b);
	return rc;
}

/* A temp file beside it, renamed over it: never half a file. */
int rc_save(const struct view_state *vs, const char *path, char *msg,
	    size_t len)
{
	char *tmp = NULL;
	FILE *f = NULL;
	int fd = -1, rc = -1, made = 0;

	if (asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		tmp = NULL;
		errno = ENOMEM;
	} else if (!mkdirs(tmp) && (fd = mkostemp(tmp, O_CLOEXEC)) >= 0) {
		made = 1;
		f = fdopen(fd, "w");
		if (f) {
			fd = -1;
			rc = write_rc(f, vs);
			if (fclose(f) && !rc)
				rc = -1;
			if (!rc && rename(tmp, path))
				rc = -1;
		}
	}
	if (rc) {
		snprintf(msg, len, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		if (made)
			unlink(tmp);
	}
	free(tmp);
	return rc;
}
