// SPDX-License-Identifier: GPL-2.0
/*
 * benchrun - run the steps of one measured scan cycle, report their cost.
 *
 *   benchrun [--name NAME] [--subtract S] [--out FILE] [--kill-after S]
 *            -- STEP [:: STEP]...
 *
 * A STEP is a command with arguments, run as a child (stdout to FILE,
 * default /dev/null; stderr inherited), or `@sleep S`, which sleeps S
 * seconds in benchrun itself and is not counted.  For every child the CPU
 * time comes from wait4()'s rusage (user and system), the wall time from
 * CLOCK_MONOTONIC around fork..wait.  --subtract S removes S seconds from
 * the total wall time (a child that sleeps S seconds itself, e.g.
 * `idletop --mark-wait S`).  --kill-after S sends SIGTERM to a child still
 * running after S seconds (a daemon such as `idletop -b`), reading VmHWM
 * and VmRSS from its /proc/PID/status just before (0 if not killed).
 * Prints one line per step and a total:
 *
 *   BENCHSTEP name=NAME step=I user=U sys=S wall=W hwm_kb=K rss_kb=K
 *             maxrss_kb=K cmd=ARGV0
 *
 * maxrss_kb is the child's peak resident set from wait4() (ru_maxrss).
 *   BENCH name=NAME user=U sys=S wall=W rc=RC
 *
 * Exit: 0 if every child exited 0, else 1; 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

/* VmHWM and VmRSS of a live process, in KiB. */
static void vm_kb(pid_t pid, long *hwm, long *rss)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "VmHWM: %ld", hwm);
		sscanf(line, "VmRSS: %ld", rss);
	}
	fclose(f);
}

static void usage(void)
{
	fprintf(stderr, "usage: benchrun [--name NAME] [--subtract S] "
		"[--out FILE] [--kill-after S] -- STEP [:: STEP]...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *name = "run", *out = "/dev/null";
	double subtract = 0, kill_after = 0, user = 0, sys = 0, wall = 0;
	int i = 1, step = 0, bad = 0;

	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--") ) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--name") && i + 1 < argc) {
			name = argv[++i];
		} else if (!strcmp(argv[i], "--subtract") && i + 1 < argc) {
			subtract = atof(argv[++i]);
		} else if (!strcmp(argv[i], "--kill-after") && i + 1 < argc) {
			kill_after = atof(argv[++i]);
		} else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
			out = argv[++i];
		} else {
			usage();
		}
	}
	if (i >= argc)
		usage();
	while (i < argc) {
		char **cmd = argv + i;
		int n = 0, status, killed = 0;
		long hwm = 0, rss = 0;
		struct rusage ru;
		double t0;
		pid_t pid;

		while (i + n < argc && strcmp(argv[i + n], "::"))
			n++;
		i += n + 1;
		if (!n)
			usage();
		cmd[n] = NULL;
		if (!strcmp(cmd[0], "@sleep")) {
			double s = n > 1 ? atof(cmd[1]) : 0;
			struct timespec ts = { (time_t)s,
				(long)((s - (double)(time_t)s) * 1e9) };

			while (nanosleep(&ts, &ts) && errno == EINTR)
				;
			continue;
		}
		t0 = mono();
		pid = fork();
		if (pid < 0) {
			perror("benchrun: fork");
			return 1;
		}
		if (!pid) {
			int fd = open(out, O_WRONLY | O_CREAT | O_APPEND, 0644);

			if (fd < 0 || dup2(fd, 1) < 0) {
				perror(out);
				_exit(127);
			}
			execvp(cmd[0], cmd);
			perror(cmd[0]);
			_exit(127);
		}
		for (;;) {
			pid_t w = wait4(pid, &status, kill_after > 0 ?
					WNOHANG : 0, &ru);
			struct timespec poll = { 0, 20 * 1000 * 1000 };

			if (w == pid)
				break;
			if (w < 0 && errno != EINTR) {
				perror("benchrun: wait4");
				return 1;
			}
			if (kill_after > 0 && !killed &&
			    mono() - t0 >= kill_after) {
				vm_kb(pid, &hwm, &rss);
				kill(pid, SIGTERM);
				killed = 1;
			}
			nanosleep(&poll, NULL);
		}
		t0 = mono() - t0;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "benchrun: %s: %s %d\n", cmd[0],
				WIFEXITED(status) ? "exit" : "signal",
				WIFEXITED(status) ? WEXITSTATUS(status) :
				WTERMSIG(status));
			bad = 1;
		}
		printf("BENCHSTEP name=%s step=%d user=%.6f sys=%.6f "
		       "wall=%.6f hwm_kb=%ld rss_kb=%ld maxrss_kb=%ld cmd=%s\n",
		       name, step++, tv(ru.ru_utime), tv(ru.ru_stime), t0, hwm,
		       rss, (long)ru.ru_maxrss, cmd[0]);
		user += tv(ru.ru_utime);
		sys += tv(ru.ru_stime);
		wall += t0;
	}
	wall -= subtract;
	printf("BENCH name=%s user=%.6f sys=%.6f wall=%.6f rc=%d\n", name,
	       user, sys, wall > 0 ? wall : 0, bad);
	fflush(stdout);
	return bad;
}
