// SPDX-License-Identifier: GPL-2.0
/*
 * fault_nocap.c - run a command as root without the capabilities that
 * bypass file permissions (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), so a
 * file with mode 000 is unreadable even for root.  They are dropped from
 * the bounding set, so the exec'd program (uid 0) does not get them back.
 *
 *   fault_nocap CMD [ARG...]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

#define CAP_DAC_OVERRIDE 1
#define CAP_DAC_READ_SEARCH 2

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: fault_nocap CMD [ARG...]\n");
		return 2;
	}
	if (prctl(PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0) ||
	    prctl(PR_CAPBSET_DROP, CAP_DAC_READ_SEARCH, 0, 0, 0)) {
		perror("fault_nocap: PR_CAPBSET_DROP");
		return 2;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
