// SPDX-License-Identifier: GPL-2.0
/*
 * test_rc.c - the settings file (ui_rc.c): what is read (never through a
 * symlink, never blocking on a FIFO, only a regular file of ours of at
 * most 64 KiB), what is written (only the settings changed in the
 * session, never --fields) and where (only into a base directory of
 * ours, only the leaf directory made), in a temp directory; and
 * replace_file() (util.c, shared with -o) failing half-way.  The tests of
 * other users' files and directories chown to nobody, so they need root;
 * run as another user they are skipped.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include "ui.h"
#include "util.h"

#define NOBODY 65534
#define RC_MAX (64 * 1024)

struct fix {
	char base[64];		/* a temp directory: BASE */
	char dir[96];		/* BASE/idletop, not made */
	char path[128];		/* BASE/idletop/idletoprc */
	char msg[512];
};

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	strcpy(f->base, "/tmp/test_rc.XXXXXX");
	if (!mkdtemp(f->base)) {
		free(f);
		return -1;
	}
	snprintf(f->dir, sizeof(f->dir), "%s/idletop", f->base);
	snprintf(f->path, sizeof(f->path), "%s/idletoprc", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->base);
	if (system(cmd))
		return -1;
	free(f);
	return 0;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) < 0, 0);
	assert_int_equal(fclose(f), 0);
}

static char *read_text(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void defaults(struct view_state *vs)
{
	memset(vs, 0, sizeof(*vs));
	fields_default(&vs->cols, FF_TUI);
	vs->sort = F_RES;
}

static void settings(struct rc_settings *s, const char *cols, enum field_id sort)
{
	char err[256];

	memset(s, 0, sizeof(*s));
	assert_int_equal(fields_parse(&s->cols, cols, 0, err, sizeof(err)), 0);
	s->sort = sort;
}

/* chown path to nobody, or skip the test when not root */
static void to_nobody(const char *path)
{
	if (geteuid())
		skip();
	assert_int_equal(chown(path, NOBODY, NOBODY), 0);
}

/* Saved, read back; the leaf directory made 0700, the file 0600. */
static void test_round_trip(void **state)
{
	struct fix *f = *state;
	struct rc_settings s;
	struct view_state vs;
	struct stat st;

	settings(&s, "idle,resident", F_IDLE);
	s.sort_rev = 1;
	s.unit = 2;
	s.flat = 1;
	assert_int_equal(rc_save(&s, f->path, f->msg, sizeof(f->msg)), 0);
	assert_int_equal(stat(f->dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	defaults(&vs);
	assert_int_equal(rc_load(&vs, f->path, f->msg, sizeof(f->msg)), 0);
	assert_int_equal(vs.cols.n, 2);
	assert_int_equal(vs.cols.id[0], F_IDLE);
	assert_int_equal(vs.cols.id[1], F_RES);
	assert_int_equal(vs.sort, F_IDLE);
	assert_int_equal(vs.sort_rev, 1);
	assert_int_equal(vs.unit, 2);
	assert_int_equal(vs.flat, 1);
}

/* No file: nothing loaded, no message. */
static void test_missing_file(void **state)
{
	struct fix *f = *state;
	struct view_state vs;

	defaults(&vs);
	assert_int_equal(rc_load(&vs, f->path, f->msg, sizeof(f->msg)), 0);
	assert_int_equal(vs.sort, F_RES);
}

/* A symlink to a good file elsewhere: ignored, and not written through. */
static void test_symlink(void **state)
{
	struct fix *f = *state;
	struct rc_settings s;
	struct view_state vs;
	struct stat st;
	char target[128];

	snprintf(target, sizeof(target), "%s/elsewhere", f->base);
	write_text(target, "sort=idle\n");
	assert_int_equal(mkdir(f->dir, 0700), 0);
	assert_int_equal(symlink(target, f->path), 0);
	defaults(&vs);
	assert_int_equal(rc_load(&vs, f->path, f->msg, sizeof(f->msg)), -1);
	assert_non_null(strstr(f->msg, "a symbolic link: ignored"));
	assert_int_equal(vs.sort, F_RES);
	settings(&s, "resident", F_RES);
	assert_int_equal(rc_save(&s, f->path, f->msg, sizeof(f->msg)), -1);
	assert_non_null(strstr(f->msg, "not a regular file"));
	assert_int_equal(lstat(f->path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_string_equal(read_text(target), "sort=idle\n");
}

static void on_alarm(int sig)
{
	(void)sig;
	fail_msg("rc_load blocked on a FIFO");
}

/* A FIFO (no writer) and a device: ignored at once, never read. */
static void test_not_regular(void **state)
{
	struct fix *f = *state;
	struct view_state vs;

	assert_int_equal(mkdir(f->dir, 0700), 0);
	assert_int_equal(mkfifo(f->path, 0600), 0);
	defaults(&vs);
	signal(SIGALRM, on_alarm);
	alarm(5);
	assert_int_equal(rc_load(&vs, f->path, f->msg, sizeof(f->msg)), -1);
	alarm(0);
	assert_non_null(strstr(f->msg, "not a regular file: ignored"));
	if (geteuid())
		return;		/* /dev/null belongs to root */
	assert_int_equal(rc_load(&vs, "/dev/null", f->msg, sizeof(f->msg)), -1);
	assert_non_null(strstr(f->msg, "not a regular file: ignored"));
}

/* 64 KiB is read; one byte more is ignored without reading it. */
static void test_size_cap(void **state)
{
	struct fix *f = *state;
	struct view_state vs;
	char *text = malloc(RC_MAX + 2);

	assert_non_null(text);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	memset(text, '#', RC_MAX);
	memcpy(text, "sort=idle\n", 10);
	text[RC_MAX - 1] = '\n';
	text[RC_MAX] = '\0';
	write_text(f->path, text);
	defaults(&vs);
	assert_int_equal(rc_load(&vs, f->path, f->msg, sizeof(f->msg)), 0);
	assert_int_equal(vs.sort, F_IDLE);
	text[RC_MAX] = '\n';
	text[RC_MAX + 1] = '\0';
	write_text(f->path, text);
	defaults(&vs);
	assert_int_equal(rc_load(&vs, f->path, f->msg, sizeof(f->msg)), -1);
	assert_non_null(strstr(f->msg, "larger than 64 KiB: ignored"));
	assert_int_equal(vs.sort, F_RES);
	free(text);
}

/* Another user's file is neither read nor replaced. */
static void test_file_not_ours(void **state)
{
	struct fix *f = *state;
	struct rc_settings s;
	struct view_state vs;

	assert_int_equal(mkdir(f->dir, 0700), 0);
	write_text(f->path, "sort=idle\n");
	to_nobody(f->path);
	defaults(&vs);
	assert_int_equal(rc_load(&vs, f->path, f->msg, sizeof(f->msg)), -1);
	assert_non_null(strstr(f->msg, "owned by uid 65534, not by uid 0: "
			       "ignored"));
	assert_int_equal(vs.sort, F_RES);
	settings(&s, "resident", F_RES);
	assert_int_equal(rc_save(&s, f->path, f->msg, sizeof(f->msg)), -1);
	assert_non_null(strstr(f->msg, "owned by uid 65534"));
	assert_string_equal(read_text(f->path), "sort=idle\n");
}

/*
 * Root with another user's HOME (sudo -E): a base directory of another
 * user's gets nothing, not even the leaf directory; nor does a leaf
 * directory of another user's.
 */
static void test_dir_not_ours(void **state)
{
	struct fix *f = *state;
	struct rc_settings s;
	struct stat st;

	settings(&s, "resident", F_RES);
	to_nobody(f->base);
	assert_int_equal(rc_save(&s, f->path, f->msg, sizeof(f->msg)), -1);
	assert_non_null(strstr(f->msg, "owned by uid 65534"));
	assert_int_equal(lstat(f->dir, &st), -1);
	assert_int_equal(chown(f->base, 0, 0), 0);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	to_nobody(f->dir);
	assert_int_equal(rc_save(&s, f->path, f->msg, sizeof(f->msg)), -1);
	assert_non_null(strstr(f->msg, "owned by uid 65534"));
	assert_int_equal(lstat(f->path, &st), -1);
}

/* A missing base ($XDG_CONFIG_HOME, ~/.config) is not made. */
static void test_base_missing(void **state)
{
	struct fix *f = *state;
	struct rc_settings s;
	struct stat st;
	char path[160];

	snprintf(path, sizeof(path), "%s/config/idletop/idletoprc", f->base);
	settings(&s, "resident", F_RES);
	assert_int_equal(rc_save(&s, path, f->msg, sizeof(f->msg)), -1);
	assert_non_null(strstr(f->msg, "config: No such file or directory"));
	snprintf(path, sizeof(path), "%s/config", f->base);
	assert_int_equal(lstat(path, &st), -1);
}

/* Only what the session changed is saved; --fields never is. */
static void test_merge(void **state)
{
	struct rc_settings file, start, out;
	struct view_state now;
	char err[256];

	(void)state;
	settings(&file, "resident,idle", F_IDLE);	/* the rc file */
	settings(&start, "file", F_IDLE);		/* + --fields file */
	memset(&now, 0, sizeof(now));
	now.cols = start.cols;
	now.sort = start.sort;
	assert_int_equal(rc_merge(&out, &file, &start, &now), 0);
	now.unit = 3;					/* u */
	assert_int_equal(rc_merge(&out, &file, &start, &now), 1);
	assert_int_equal(out.unit, 3);
	assert_int_equal(out.cols.n, 2);		/* not --fields */
	assert_int_equal(out.cols.id[0], F_RES);
	assert_int_equal(out.sort, F_IDLE);
	now.unit = 0;					/* u back */
	assert_int_equal(rc_merge(&out, &file, &start, &now), 0);
	now.sort = F_RES;				/* s */
	now.sort_rev = 1;				/* r */
	now.flat = 1;					/* F5 */
	assert_int_equal(rc_merge(&out, &file, &start, &now), 1);
	assert_int_equal(out.sort, F_RES);
	assert_int_equal(out.sort_rev, 1);
	assert_int_equal(out.flat, 1);
	assert_int_equal(out.cols.n, 2);
	assert_int_equal(fields_parse(&now.cols, "file,swap", 0, err,
				      sizeof(err)), 0);	/* the chooser */
	assert_int_equal(rc_merge(&out, &file, &start, &now), 1);
	assert_int_equal(out.cols.n, 2);
	assert_int_equal(out.cols.id[0], F_FILE);
	assert_int_equal(out.cols.id[1], F_SWAP);
	/* settings the session began with apart from the file's (as
	 * --fields is for the columns) are not saved either */
	file.unit = 1;
	file.sort_rev = 0;
	file.flat = 0;
	start = (struct rc_settings){ .cols = file.cols, .sort = F_RES,
				      .sort_rev = 1, .unit = 2, .flat = 1 };
	now = (struct view_state){ .cols = start.cols, .sort = start.sort,
				   .sort_rev = 1, .unit = 2, .flat = 1 };
	assert_int_equal(rc_merge(&out, &file, &start, &now), 0);
	file.unit = 0;
	/* a change that ends where the file already is writes nothing */
	now = (struct view_state){ .cols = file.cols, .sort = F_IDLE };
	assert_int_equal(rc_merge(&out, &file, &start, &now), 0);
}

static int fill_fails(FILE *f, void *arg)
{
	(void)arg;
	fputs("half a file", f);
	errno = EIO;
	return -1;
}

/* A failed write leaves the old file as it was and nothing beside it. */
static void test_replace_fails(void **state)
{
	struct fix *f = *state;
	struct dirent *d;
	char old[128];
	DIR *dir;
	int fd, n = 0;

	snprintf(old, sizeof(old), "%s/out", f->base);
	write_text(old, "old\n");
	fd = open(f->base, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	errno = 0;
	assert_int_equal(replace_file(fd, "out", 0666, fill_fails, NULL), -1);
	assert_int_equal(errno, EIO);
	close(fd);
	assert_string_equal(read_text(old), "old\n");
	dir = opendir(f->base);
	assert_non_null(dir);
	while ((d = readdir(dir)))
		n += d->d_name[0] != '.' || strncmp(d->d_name, ".out.", 5) == 0;
	closedir(dir);
	assert_int_equal(n, 1);		/* out; no .out.XXXXXX */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_regular, setup, teardown),
		cmocka_unit_test_setup_teardown(test_size_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_not_ours, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dir_not_ours, setup, teardown),
		cmocka_unit_test_setup_teardown(test_base_missing, setup, teardown),
		cmocka_unit_test(test_merge),
		cmocka_unit_test_setup_teardown(test_replace_fails, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
