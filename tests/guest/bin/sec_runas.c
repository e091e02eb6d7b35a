// SPDX-License-Identifier: GPL-2.0
/*
 * sec_runas.c - run a command as another user (no supplementary groups),
 * for the permission tests: busybox's setpriv cannot change uids.
 *
 *   sec_runas UID GID CMD [ARG...]
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;
	gid_t gid;

	if (argc < 4) {
		fprintf(stderr, "usage: sec_runas UID GID CMD [ARG...]\n");
		return 2;
	}
	uid = (uid_t)strtoul(argv[1], NULL, 10);
	gid = (gid_t)strtoul(argv[2], NULL, 10);
	if (setgroups(0, NULL) || setgid(gid) || setuid(uid)) {
		perror("sec_runas");
		return 2;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 127;
}
