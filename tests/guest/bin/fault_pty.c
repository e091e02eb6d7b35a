// SPDX-License-Identifier: GPL-2.0
/*
 * fault_pty.c - run an interactive program on a pseudo-terminal of our own
 * and hit it with signals, without tmux.
 *
 *   fault_pty MODE CMD [ARG...]
 *
 * MODE: winch  300 SIGWINCHs, with real size changes (TIOCSWINSZ) among
 *              them, then "q": the program must survive and exit 0;
 *       term   SIGTERM;  int  SIGINT;  ctrlc  ^C typed on the terminal:
 *              the program must exit by itself (not be killed).
 * In every mode, once the program is gone, the terminal must be as it
 * found it: the same termios modes, the alternate screen left (the last
 * smcup "ESC[?1049h" followed by an rmcup "ESC[?1049l") and the cursor
 * visible (no "ESC[?25l" after the last "ESC[?25h").  The program runs
 * with TERM=screen in a session of its own, the pty as its controlling
 * terminal.  Exit 0 ok, 1 a check failed, 2 setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static char *out;
static size_t out_len, out_cap;
static int master = -1;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Read what the program wrote for up to `secs` (keeps it from blocking). */
static void drain(double secs)
{
	double end = now() + secs;
	struct pollfd p = { .fd = master, .events = POLLIN };
	char buf[65536];
	ssize_t r;

	do {
		int ms = (int)((end - now()) * 1000);

		if (poll(&p, 1, ms > 0 ? ms : 0) <= 0)
			break;
		r = read(master, buf, sizeof(buf));
		if (r <= 0)
			break;	/* EIO: the slave side is closed */
		if (out_len + (size_t)r > out_cap) {
			out_cap = (out_len + (size_t)r) * 2;
			out = realloc(out, out_cap);
			if (!out)
				exit(2);
		}
		memcpy(out + out_len, buf, (size_t)r);
		out_len += (size_t)r;
	} while (now() < end);
}

static const char *last(const char *needle)
{
	const char *p = NULL, *q = out;
	size_t n = strlen(needle);

	while (q && (q = memmem(q, out_len - (size_t)(q - out), needle, n)))
		p = q++;
	return p;
}

static int exited(pid_t pid, int *st, double secs)
{
	double end = now() + secs;

	while (now() < end) {
		if (waitpid(pid, st, WNOHANG) == pid)
			return 1;
		drain(0.05);
	}
	return 0;
}

static void set_size(int cols, int rows)
{
	struct winsize ws = { .ws_row = (unsigned short)rows,
			      .ws_col = (unsigned short)cols };

	ioctl(master, TIOCSWINSZ, &ws);
}

int main(int argc, char **argv)
{
	struct termios before, after;
	const char *mode, *name, *smcup, *rmcup, *civis, *cnorm;
	int slave, st = 0, fail = 0, i;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: fault_pty winch|term|int|ctrlc CMD [ARG...]\n");
		return 2;
	}
	mode = argv[1];
	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master) ||
	    !(name = ptsname(master)) ||
	    (slave = open(name, O_RDWR | O_NOCTTY)) < 0) {
		perror("fault_pty: pty");
		return 2;
	}
	set_size(100, 30);
	tcgetattr(slave, &before);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0) {
		setsid();
		if (ioctl(slave, TIOCSCTTY, 0) < 0)
			perror("TIOCSCTTY");
		dup2(slave, 0);
		dup2(slave, 1);
		close(slave);
		close(master);
		setenv("TERM", "screen", 1);
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}

	/* started: the alternate screen is on; then let it draw and scan */
	for (i = 0; i < 300 && !last("\033[?1049h"); i++) {
		drain(0.1);
		if (waitpid(pid, &st, WNOHANG) == pid) {
			drain(0.2);
			printf("FAIL: %s exited before it started (status %#x); "
			       "output: %.*s\n", argv[2], st, (int)out_len, out);
			return 1;
		}
	}
	if (!last("\033[?1049h")) {
		printf("FAIL: no alternate screen after 30 s\n");
		kill(pid, SIGKILL);
		return 1;
	}
	drain(2);

	if (!strcmp(mode, "winch")) {
		for (i = 0; i < 300; i++) {
			if (i % 10 == 0)
				set_size(40 + i % 90, 8 + i % 40); /* the kernel signals */
			if (kill(pid, SIGWINCH))
				break;
			if (i % 20 == 0)
				drain(0.01);
		}
		set_size(100, 30);
		drain(1);
		if (kill(pid, 0)) {
			printf("FAIL: died during the SIGWINCH storm (after %d)\n", i);
			fail = 1;
		} else {
			printf("ok: survived %d SIGWINCHs and 30 resizes\n", i);
		}
		if (write(master, "q", 1) != 1)
			perror("write q");
	} else if (!strcmp(mode, "term")) {
		kill(pid, SIGTERM);
	} else if (!strcmp(mode, "int")) {
		kill(pid, SIGINT);
	} else if (!strcmp(mode, "ctrlc")) {
		if (write(master, "\003", 1) != 1)
			perror("write ^C");
	} else {
		fprintf(stderr, "fault_pty: unknown mode %s\n", mode);
		kill(pid, SIGKILL);
		return 2;
	}
	if (!exited(pid, &st, 15)) {
		printf("FAIL: %s: still running 15 s later\n", mode);
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return 1;
	}
	drain(0.2);
	if (WIFSIGNALED(st)) {
		printf("FAIL: %s: killed by signal %d\n", mode, WTERMSIG(st));
		fail = 1;
	} else if (!strcmp(mode, "winch") && WEXITSTATUS(st)) {
		printf("FAIL: q: exit status %d\n", WEXITSTATUS(st));
		fail = 1;
	} else {
		printf("ok: %s: exit status %d\n", mode, WEXITSTATUS(st));
	}

	tcgetattr(slave, &after);
	if (before.c_iflag != after.c_iflag || before.c_oflag != after.c_oflag ||
	    before.c_cflag != after.c_cflag || before.c_lflag != after.c_lflag ||
	    memcmp(before.c_cc, after.c_cc, sizeof(before.c_cc))) {
		printf("FAIL: %s: termios not restored: lflag %#x -> %#x, "
		       "iflag %#x -> %#x, oflag %#x -> %#x\n", mode,
		       before.c_lflag, after.c_lflag, before.c_iflag,
		       after.c_iflag, before.c_oflag, after.c_oflag);
		fail = 1;
	} else {
		printf("ok: %s: termios restored\n", mode);
	}
	smcup = last("\033[?1049h");
	rmcup = last("\033[?1049l");
	civis = last("\033[?25l");
	cnorm = last("\033[?25h");
	if (!rmcup || rmcup < smcup) {
		printf("FAIL: %s: alternate screen not left\n", mode);
		fail = 1;
	} else if (civis && (!cnorm || cnorm < civis)) {
		printf("FAIL: %s: cursor left invisible\n", mode);
		fail = 1;
	} else {
		printf("ok: %s: alternate screen left, cursor visible\n", mode);
	}
	return fail;
}
