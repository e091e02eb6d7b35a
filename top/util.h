/* SPDX-License-Identifier: GPL-2.0 */
/* util.h - checked I/O and string helpers */
#ifndef IDLETOP_UTIL_H
#define IDLETOP_UTIL_H

#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* pread until len bytes, EOF or error; EINTR retried; -1 on error. */
ssize_t pread_full(int fd, void *buf, size_t len, off_t off);
/*
 * pwrite until len bytes or an error; EINTR retried. -1 with errno when
 * nothing was written; else the bytes written, and when that is short of
 * len, errno says why: the error that stopped it, or 0 when write()
 * returned 0.  A short count is never silent: check it against len.
 */
ssize_t pwrite_full(int fd, const void *buf, size_t len, off_t off);
/* malloc'ed "a/b" with exactly one slash between; NULL on ENOMEM. */
char *path_join(const char *a, const char *b);
/* Whole small text file, NUL-terminated, malloc'ed; NULL + errno on error. */
char *read_text_file(const char *path, size_t *len);
/* The same for name under the directory dirfd (AT_FDCWD: the cwd). */
char *read_text_at(int dirfd, const char *name, size_t *len);
/*
 * Replace the file `name` in the directory dirfd whole: fill(f, arg)
 * writes a new file made beside it (".NAME.XXXXXX", O_EXCL|O_NOFOLLOW:
 * never an existing name, never through a symlink), which is fsync()ed,
 * renamed over name, and the directory fsync()ed (unless dirfd is an
 * O_PATH descriptor): a reader sees the old file or the new one whole.
 * The new file keeps the mode and group of the regular file it replaces
 * (when the group cannot be given, the group gets the bits of others);
 * else it is created with `mode` less the umask, as fopen() would.
 * fill returns 0, or -1 with errno.  0, or -1 with errno set and the temp
 * file removed.
 */
int replace_file(int dirfd, const char *name, mode_t mode,
		 int (*fill)(FILE *f, void *arg), void *arg);
/* The same for a path: its directory (".": none) opened, then as above. */
int replace_path(const char *path, mode_t mode,
		 int (*fill)(FILE *f, void *arg), void *arg);
/*
 * Monotonic clock and the calling thread's CPU clock, in seconds.  The
 * CPU clock is the scanner's (main) thread alone: the exporter's HTTP
 * thread is not billed to --cpu, so clients cannot stretch a cycle.
 */
double now_mono(void);
double now_cpu(void);
double now_real(void);
/*
 * poll() for up to `seconds` (at most an hour) that a stop cannot slip
 * past: SIGINT and SIGTERM, whose handlers set *stop, are blocked while
 * *stop is checked and unblocked by ppoll() only for the wait, so one
 * that comes after the check ends the wait at once.  0 without waiting
 * when *stop is set; else like poll(): ready fds, 0 on timeout, -1 with
 * errno (EINTR: a signal came).
 */
int poll_stop(struct pollfd *fds, nfds_t n, double seconds,
	      volatile sig_atomic_t *stop);

/*
 * Test hooks, NULL in idletop itself. util_fault(site) returns the errno
 * that util_fault_hook wants injected at a named site (and sets errno),
 * or 0; util_clock_hook replaces the three clocks (fake time and CPU).
 */
enum { UTIL_MONO, UTIL_CPU, UTIL_REAL };
extern int (*util_fault_hook)(const char *site);
extern double (*util_clock_hook)(int which);
int util_fault(const char *site);

#endif
