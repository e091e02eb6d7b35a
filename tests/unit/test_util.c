// SPDX-License-Identifier: GPL-2.0
/* test_util.c - poll_stop(): a stop is never lost before the wait */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "util.h"

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* SIGTERM sets stop, as in idletop; no SA_RESTART. */
static int setup(void **state)
{
	struct sigaction sa;

	(void)state;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	stop = 0;
	return sigaction(SIGTERM, &sa, NULL);
}

static int teardown(void **state)
{
	(void)state;
	util_fault_hook = NULL;
	signal(SIGTERM, SIG_DFL);
	return 0;
}

/* The signal lands between the check of stop and the wait. */
static int term_after_check(const char *site)
{
	if (!strcmp(site, "poll_stop"))
		raise(SIGTERM);
	return 0;
}

static int blocked(int sig)
{
	sigset_t now;

	assert_int_equal(pthread_sigmask(SIG_SETMASK, NULL, &now), 0);
	return sigismember(&now, sig);
}

/*
 * A SIGTERM after the check: the wait of 5 s ends at once (a plain
 * poll() after the check waited it out: the lost wake-up).
 */
static void test_no_lost_wakeup(void **state)
{
	double t0 = now_mono();
	int r;

	(void)state;
	util_fault_hook = term_after_check;
	r = poll_stop(NULL, 0, 5, &stop);
	assert_int_equal(r, -1);
	assert_int_equal(errno, EINTR);
	assert_true(stop);
	assert_true(now_mono() - t0 < 1);
	assert_false(blocked(SIGTERM));
	assert_false(blocked(SIGINT));
}

static void test_stopped_and_timeout(void **state)
{
	struct pollfd p;
	double t0 = now_mono();
	int fds[2];

	(void)state;
	stop = 1;
	assert_int_equal(poll_stop(NULL, 0, 5, &stop), 0);
	assert_true(now_mono() - t0 < 1);
	stop = 0;
	t0 = now_mono();
	assert_int_equal(poll_stop(NULL, 0, 0.05, &stop), 0);
	assert_true(now_mono() - t0 >= 0.05);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], "x", 1), 1);
	p = (struct pollfd){ .fd = fds[0], .events = POLLIN };
	assert_int_equal(poll_stop(&p, 1, 5, &stop), 1);
	assert_true(p.revents & POLLIN);
	close(fds[0]);
	close(fds[1]);
	assert_false(blocked(SIGTERM));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_lost_wakeup, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_stopped_and_timeout, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
