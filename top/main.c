// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - idletop: options, then the main loop:
 *   wait for the next slice (or a stop: poll_stop()) -> one scan slice
 *   -> after a completed cycle the engine has a new report: print it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "batch.h"
#include "engine.h"
#include "http.h"
#include "metrics.h"
#include "options.h"
#include "select.h"
#include "tty.h"
#include "ui.h"
#include "util.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/*
 * Signals whose default action ends idletop, other than SIGINT and
 * SIGTERM (a clean exit through `stop`) and SIGPIPE (ignored: EPIPE).
 * The TUI's terminal is put back (tty.c, async-signal-safe), then the
 * action idletop found is put back and the signal raised again: the
 * default action ends idletop by that signal (the exit status says which,
 * a core dump is still written), or a sanitizer's handler reports.  A
 * signal that was ignored at start (nohup) stays ignored.
 */
static const int fatal_signals[] = {
	SIGHUP, SIGQUIT, SIGILL, SIGABRT, SIGFPE, SIGSEGV, SIGBUS, SIGSYS,
	SIGTRAP, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
	SIGXFSZ, SIGIO, SIGPWR, SIGSTKFLT,
};
static struct sigaction found[NSIG];

static void on_fatal(int sig)
{
	tty_restore();
	sigaction(sig, &found[sig], NULL);
	raise(sig);	/* blocked here: acted on once we return */
}

/* The handler's own stack, so that it runs after a stack overflow too. */
static void alt_stack(void)
{
	static char stack[64 * 1024];
	stack_t ss = { .ss_sp = stack, .ss_size = sizeof(stack) };

	sigaltstack(&ss, NULL);
}

static void setup_signals(void)
{
	struct sigaction sa;
	size_t i;
	int sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	alt_stack();
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_ONSTACK;
	for (i = 0; i < sizeof(fatal_signals) / sizeof(*fatal_signals); i++) {
		sig = fatal_signals[i];
		if (!sigaction(sig, NULL, &found[sig]) &&
		    found[sig].sa_handler != SIG_IGN)
			sigaction(sig, &sa, NULL);
	}
}

/* The report in the format asked for; text with --fields' columns. */
static int print(FILE *f, const struct report *r, const struct config *cfg)
{
	if (cfg->format == FMT_TEXT && cfg->fields)
		return batch_text_fields(f, r, &cfg->fset);
	return batch_print(f, r, cfg->format);
}

struct report_out {
	const struct report *r;
	const struct config *cfg;
};

static int print_out(FILE *f, void *arg)
{
	const struct report_out *o = arg;

	return print(f, o->r, o->cfg);
}

/*
 * -o FILE: replace_file() (util.h): a temp file ".FILE.XXXXXX" beside
 * it (never an existing name, never through a planted symlink; the dot
 * keeps a textfile collector's "*.prom" from matching it), renamed over
 * FILE: a reader sees the old report or the new one whole.  FILE keeps
 * its mode and group (an admin's group read for a collector); a new FILE
 * gets 0666 less the umask, what fopen() gave it before.
 */
static int write_file(const char *path, const struct report *r,
		      const struct config *cfg)
{
	struct report_out o = { r, cfg };

	if (!replace_path(path, 0666, print_out, &o))
		return 0;
	fprintf(stderr, "idletop: %s: %s\n", path, strerror(errno));
	return -1;
}

/* A closed pipe (EPIPE) ends idletop quietly, with status 1. */
static int output(const struct config *cfg, const struct report *r)
{
	if (cfg->output)
		return write_file(cfg->output, r, cfg);
	if (!print(stdout, r, cfg))
		return 0;
	if (errno != EPIPE)
		fprintf(stderr, "idletop: write: %s\n", strerror(errno));
	return -1;
}

/*
 * Seconds until /healthz calls a report stale: twice the longest a cycle
 * takes (the steady period, this cycle's, or its stretched length), and
 * 10 s for the tree walk and a loaded machine.
 */
static double next_within(const struct config *cfg, const struct report *r)
{
	double t = cfg->period;

	if (r && r->p.period > t)
		t = r->p.period;
	if (r && r->p.cycle_seconds > t)
		t = r->p.cycle_seconds;
	return 2 * t + 10;
}

/* --listen: both expositions of r (NULL: none yet) to the server. */
static void publish(struct http *h, const struct config *cfg,
		    const struct report_params *p, const struct report *r)
{
	struct http_pub pub = { .cycle = r ? r->cycle : 0,
				.next_within = next_within(cfg, r) };
	struct sbuf b[2];
	int f;

	for (f = 0; f < 2; f++) {
		sb_init(&b[f]);
		metrics_render(&b[f], p, r, f ? MF_OPENMETRICS : MF_PROMETHEUS);
	}
	if (b[0].oom || b[1].oom) {
		sb_free(&b[0]);
		sb_free(&b[1]);
	}
	pub.prom = b[0].p;
	pub.prom_len = b[0].len;
	pub.om = b[1].p;
	pub.om_len = b[1].len;
	if (http_publish(h, &pub))
		fprintf(stderr, "idletop: out of memory: metrics not "
			"updated\n");
}

/*
 * A report, with only the cgroups --max-depth etc. select, to the
 * exporter (with --listen) and to stdout or -o FILE (unless --listen
 * alone).  st: what the last report showed (--min-bytes hysteresis).
 */
static int show(const struct config *cfg, struct http *h,
		const struct report *r, struct select_state *st)
{
	const struct report *v = r;
	struct report view;
	int rc = 0;

	if (select_active(&cfg->sel)) {
		if (report_select(r, &cfg->sel, st, &view)) {
			fprintf(stderr, "idletop: %s\n", strerror(ENOMEM));
			return -1;
		}
		v = &view;
	}
	if (h)
		publish(h, cfg, &v->p, v);
	if (!h || cfg->output || cfg->batch)
		rc = output(cfg, v);
	if (v == &view)
		report_free(&view);
	return rc;
}

/*
 * A failed step (engine.h, Errors): said on stderr, counted in the next
 * report and, with --listen, in idletop_scan_errors_total and named by
 * /healthz at once while the last report stays served; 1 after
 * ENGINE_FAILS_MAX in a row, or at once when it is fatal: give up.
 */
static int step_failed(struct engine *e, struct http *h)
{
	if (engine_fatal(e)) {
		fprintf(stderr, "idletop: %s\n", engine_err(e));
		return 1;
	}
	if (engine_fails(e) >= ENGINE_FAILS_MAX) {
		fprintf(stderr, "idletop: %s; giving up after %u failures in "
			"a row\n", engine_err(e), engine_fails(e));
		return 1;
	}
	fprintf(stderr, "idletop: %s; retrying in %.3gs (failure %u of %u "
		"in a row)\n", engine_err(e), engine_wait(e), engine_fails(e),
		ENGINE_FAILS_MAX);
	if (h)
		http_error(h, engine_err(e));
	return 0;
}

static int batch_loop(struct engine *e, const struct config *cfg,
		      struct http *h, struct select_state *st)
{
	unsigned long done = 0;
	int rc;

	while (!stop) {
		if (poll_stop(NULL, 0, engine_wait(e), &stop) < 0 &&
		    errno != EINTR)
			return 1;
		if (stop)
			break;
		rc = engine_step(e);
		if (rc < 0 && step_failed(e, h))
			return 1;
		if (rc <= 0)
			continue;
		if (show(cfg, h, engine_report(e), st))
			return 1;
		if (cfg->iterations && ++done >= cfg->iterations)
			break;
	}
	return 0;
}

static int run_batch(struct engine *e, const struct config *cfg,
		     struct http *h)
{
	struct select_state st = { 0 };
	int rc = batch_loop(e, cfg, h, &st);

	select_state_free(&st);
	return rc;
}

static int run_mark_wait(struct engine *e, const struct config *cfg)
{
	int rc = engine_mark_wait(e, cfg->mark_wait, &stop);

	if (rc < 0)
		fprintf(stderr, "idletop: %s\n", engine_err(e));
	if (rc)
		return 1;
	return show(cfg, NULL, engine_report(e), NULL) ? 1 : 0;
}

static int run_listen(struct engine *e, const struct config *cfg)
{
	char err[512];
	struct http *h = http_start(cfg->listen, err, sizeof(err));
	int rc;

	if (!h) {
		fprintf(stderr, "idletop: %s\n", err);
		return 1;
	}
	publish(h, cfg, engine_params(e), NULL);
	fprintf(stderr, "idletop: serving http://%s/metrics\n",
		http_address(h));
	rc = run_batch(e, cfg, h);
	http_stop(h);
	return rc;
}

/* --listen is a usage error unless http.c can bind to what it names. */
static int bad_listen(const struct config *cfg)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char msg[256];

	if (!cfg->listen || !http_parse_listen(cfg->listen, &ss, &len, msg,
					       sizeof(msg)))
		return 0;
	fprintf(stderr, "idletop: %s\n", msg);
	return 1;
}

int main(int argc, char **argv)
{
	struct config cfg;
	struct engine *e;
	char err[512];
	int rc;

	options_default(&cfg);
	rc = options_parse(&cfg, argc, argv, stdout, stderr);
	if (rc == OPT_EXIT)
		return fflush(stdout) ? 1 : 0;
	if (rc != OPT_OK || bad_listen(&cfg))
		return 2;
	setup_signals();
	e = engine_new(&cfg, err, sizeof(err));
	if (!e) {
		fprintf(stderr, "idletop: %s\n", err);
		return 1;
	}
	rc = cfg.mark_wait >= 0 ? run_mark_wait(e, &cfg) :
	     cfg.listen ? run_listen(e, &cfg) :
	     cfg.batch ? run_batch(e, &cfg, NULL) : ui_run(e, &cfg, &stop);
	engine_free(e);
	return rc;
}
