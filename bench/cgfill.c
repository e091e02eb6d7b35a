// SPDX-License-Identifier: GPL-2.0
/*
 * cgfill - memory charged to many memory cgroups, without a process
 * left in any of them, for `make bench` (the cost per cgroup).
 *
 *   cgfill PARENT N KIB DIR
 *
 * Creates the cgroups PARENT/c0 .. PARENT/c(N-1) (PARENT must have
 * +memory in its cgroup.subtree_control), and for each one moves itself
 * there and writes KIB KiB to DIR/c<i> (DIR on tmpfs: the pages stay
 * resident and charged to that cgroup after cgfill leaves it); then
 * moves itself back to the cgroup it started in.  Removing the files and
 * then the cgroups undoes it.  Exit: 0 ok, 1 error, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[65536];

static void die(const char *what)
{
	fprintf(stderr, "cgfill: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void join(const char *dir)
{
	char path[4096], pid[32];
	int fd, n;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, pid, (size_t)n) != n || close(fd))
		die(path);
}

/* The cgroup v2 directory this process is in, from /proc/self/cgroup. */
static void own_cgroup(char *dir, size_t len)
{
	char line[4096];
	FILE *f = fopen("/proc/self/cgroup", "r");

	if (!f || !fgets(line, sizeof(line), f) || strncmp(line, "0::", 3))
		die("/proc/self/cgroup");
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (strlen(line + 3) + 16 > len) {
		errno = ENAMETOOLONG;
		die("/proc/self/cgroup");
	}
	strcpy(dir, "/sys/fs/cgroup");
	strcat(dir, line + 3);
}

static void fill(const char *path, long kib)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	size_t left = (size_t)kib * 1024, n;

	if (fd < 0)
		die(path);
	while (left) {
		n = left < sizeof(buf) ? left : sizeof(buf);
		if (write(fd, buf, n) != (ssize_t)n)
			die(path);
		left -= n;
	}
	if (close(fd))
		die(path);
}

int main(int argc, char **argv)
{
	char home[4200], cg[4096], file[4096];
	long n, kib, i;

	if (argc != 5 || (n = atol(argv[2])) <= 0 || (kib = atol(argv[3])) <= 0) {
		fputs("usage: cgfill PARENT N KIB DIR\n", stderr);
		return 2;
	}
	memset(buf, 0x5a, sizeof(buf));
	own_cgroup(home, sizeof(home));
	for (i = 0; i < n; i++) {
		snprintf(cg, sizeof(cg), "%s/c%ld", argv[1], i);
		snprintf(file, sizeof(file), "%s/c%ld", argv[4], i);
		if (mkdir(cg, 0755) && errno != EEXIST)
			die(cg);
		join(cg);
		fill(file, kib);
	}
	join(home);
	return 0;
}
