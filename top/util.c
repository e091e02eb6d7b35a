// SPDX-License-Identifier: GPL-2.0
/* util.c - checked I/O and string helpers */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "util.h"

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
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

double now_real(void)
{
	return clock_s(CLOCK_REALTIME);
}
