// SPDX-License-Identifier: GPL-2.0
/* util.c - checked I/O and string helpers */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "util.h"

#define TEMP_TRIES 100		/* names taken before giving up (EEXIST) */

ssize_t pread_full(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = pread(fd, (char *)buf + done, len - done,
				  off + (off_t)done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

ssize_t pwrite_full(int fd, const void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = util_fault("pwrite") ? -1 :
			    pwrite(fd, (const char *)buf + done, len - done,
				   off + (off_t)done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return done ? (ssize_t)done : -1;	/* errno kept */
		if (r == 0) {
			errno = 0;	/* the file took no more */
			break;
		}
		done += (size_t)r;
	}
	return (ssize_t)done;
}

char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb;
	char *p;

	while (la > 1 && a[la - 1] == '/')
		la--;
	while (*b == '/')
		b++;
	lb = strlen(b);
	p = malloc(la + lb + 2);
	if (!p)
		return NULL;
	memcpy(p, a, la);
	if (lb && !(la == 1 && a[0] == '/'))
		p[la++] = '/';
	memcpy(p + la, b, lb);
	p[la + lb] = '\0';
	return p;
}

char *read_text_file(const char *path, size_t *lenp)
{
	return read_text_at(AT_FDCWD, path, lenp);
}

char *read_text_at(int dirfd, const char *name, size_t *lenp)
{
	size_t cap = 4096, len = 0;
	char *buf, *n;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		ssize_t r = read(fd, buf + len, cap - len - 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (cap - len < 2) {
			n = realloc(buf, cap * 2);
			if (!n)
				free(buf);
			buf = n;
			cap *= 2;
		}
	}
	close(fd);
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

/* ".NAME.XXXXXX", six random letters and digits; NULL on ENOMEM. */
static char *temp_name(const char *name)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned long seq;
	unsigned char r[6];
	struct timespec ts;
	char *t;
	size_t i, at;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);	/* O_EXCL keeps it safe */
		for (i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)((unsigned long)ts.tv_nsec >> i * 5 ^
					       (unsigned long)getpid() >> i ^
					       seq++);
	}
	if (asprintf(&t, ".%s.XXXXXX", name) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	at = strlen(t) - sizeof(r);
	for (i = 0; i < sizeof(r); i++)
		t[at + i] = set[r[i] % (sizeof(set) - 1)];
	return t;
}

/* A new file beside name, *tmp its malloc'ed name; fd or -1. */
static int open_temp(int dirfd, const char *name, mode_t mode, char **tmp)
{
	int i, fd;

	for (i = 0; i < TEMP_TRIES; i++) {
		*tmp = temp_name(name);
		if (!*tmp)
			return -1;
		fd = openat(dirfd, *tmp, O_WRONLY | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		free(*tmp);
		*tmp = NULL;
		if (errno != EEXIST)
			return -1;
	}
	return -1;	/* errno EEXIST */
}

/* The mode and group of the file replaced (see util.h); closes fd on error. */
static int keep_attrs(int fd, const struct stat *old)
{
	mode_t m = old->st_mode & 0777;
	int e;

	if (fchown(fd, (uid_t)-1, old->st_gid))
		m = (m & 0707) | (m & 07) << 3;
	if (!fchmod(fd, m))
		return 0;
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

/* fill(), fflush(), fsync(), fclose(): 0, or -1 with errno; fd closed. */
static int fill_sync(int fd, int (*fill)(FILE *f, void *arg), void *arg)
{
	FILE *f = fdopen(fd, "w");
	int rc, e;

	if (!f) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	rc = fill(f, arg);
	if (!rc && (fflush(f) || fsync(fileno(f))))
		rc = -1;
	e = errno;
	if (fclose(f) && !rc) {
		rc = -1;
		e = errno;
	}
	errno = e;
	return rc;
}

int replace_file(int dirfd, const char *name, mode_t mode,
		 int (*fill)(FILE *f, void *arg), void *arg)
{
	struct stat old;
	char *tmp;
	int keep, fd, rc, e;

	if (!*name) {
		errno = EISDIR;	/* "-o dir/" */
		return -1;
	}
	keep = !fstatat(dirfd, name, &old, AT_SYMLINK_NOFOLLOW) &&
	       S_ISREG(old.st_mode);
	fd = open_temp(dirfd, name, keep ? 0600 : mode, &tmp);
	if (fd < 0)
		return -1;
	rc = keep && keep_attrs(fd, &old) ? -1 : fill_sync(fd, fill, arg);
	if (!rc)
		rc = renameat(dirfd, tmp, dirfd, name);
	if (rc) {
		e = errno;
		unlinkat(dirfd, tmp, 0);
		errno = e;
	}
	free(tmp);
	if (!rc && fsync(dirfd) && errno != EBADF && errno != EINVAL)
		rc = -1;	/* EBADF: an O_PATH dirfd; EINVAL: not syncable */
	return rc;
}

int replace_path(const char *path, mode_t mode,
		 int (*fill)(FILE *f, void *arg), void *arg)
{
	const char *slash = strrchr(path, '/');
	char *dir = !slash ? strdup(".") :
		    strndup(path, slash == path ? 1 : (size_t)(slash - path));
	int fd, rc, e;

	if (!dir) {
		errno = ENOMEM;
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && errno == EACCES)	/* write and search, no read */
		fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0)
		return -1;
	rc = replace_file(fd, slash ? slash + 1 : path, mode, fill, arg);
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

int (*util_fault_hook)(const char *site);
double (*util_clock_hook)(int which);

int util_fault(const char *site)
{
	int e = util_fault_hook ? util_fault_hook(site) : 0;

	if (e)
		errno = e;
	return e;
}

static double clock_s(clockid_t id)
{
	struct timespec ts;

	if (util_clock_hook)
		return util_clock_hook(id == CLOCK_MONOTONIC ? UTIL_MONO :
				       id == CLOCK_REALTIME ? UTIL_REAL :
				       UTIL_CPU);
	if (clock_gettime(id, &ts))
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double now_mono(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

double now_cpu(void)
{
	return clock_s(CLOCK_THREAD_CPUTIME_ID);
}

double now_real(void)
{
	return clock_s(CLOCK_REALTIME);
}

int poll_stop(struct pollfd *fds, nfds_t n, double seconds,
	      volatile sig_atomic_t *stop)
{
	struct timespec ts;
	sigset_t block, old;
	int r, e;

	if (!(seconds > 0))
		seconds = 0;
	if (seconds > 3600)
		seconds = 3600;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	if (*stop) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return 0;
	}
	util_fault("poll_stop");	/* tests: a signal after the check */
	r = ppoll(fds, n, &ts, &old);
	e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return r;
}
