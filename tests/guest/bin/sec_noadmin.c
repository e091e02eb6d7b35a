// SPDX-License-Identifier: GPL-2.0
/*
 * sec_noadmin.c - run a command as root without CAP_SYS_ADMIN, like the
 * root of a container without a user namespace (Docker's default keeps
 * uid 0 and drops CAP_SYS_ADMIN).  It is dropped from the bounding set,
 * so the exec'd program (uid 0) does not get it back; descriptors the
 * caller opened stay open.
 *
 *   sec_noadmin CMD [ARG...]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

#define CAP_SYS_ADMIN 21

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: sec_noadmin CMD [ARG...]\n");
		return 2;
	}
	if (prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0)) {
		perror("sec_noadmin: PR_CAPBSET_DROP");
		return 2;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
