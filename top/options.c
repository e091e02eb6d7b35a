// SPDX-License-Identifier: GPL-2.0
/* options.c - command line parsing, --help, --version */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fields.h"
#include "idlesrc.h"
#include "options.h"
#include "select.h"
#include "version.h"

/* kstaled's 1, 2, 5, 15, 30, 60, 120, 240 periods at idletop's 60 s */
const struct idle_tbuckets idle_tbuckets_default = {
	8, { 60, 120, 300, 900, 1800, 3600, 7200, 14400 }
};

static const char usage_text[] =
"Usage: idletop [OPTION]...\n"
"Show per-cgroup resident and idle memory (idle page tracking):\n"
"interactive (h in the view lists the keys), or -b for batch output.\n"
"\n"
"  -b, --batch            batch mode: print a report after every cycle\n"
"  -n, --iterations=N     stop after N reports (default: until killed)\n"
"  -d, --delay=SECONDS    screen refresh (default 2): memory.*, PSI and\n"
"                         refaults are read again; with -b, where each\n"
"                         report is a cycle, --period unless given\n"
"      --period=SECONDS   seconds per full scan cycle, the idle window\n"
"                         (default 60)\n"
"      --first-window=SECONDS  first idle window (default 5, 0 off): the\n"
"                         first report after two of them, then --period\n"
"      --cpu=PERCENT      CPU budget, % of one core (default 2); when a\n"
"                         cycle cannot fit the period, the period stretches\n"
"  -f, --format=FMT       text (default), json (JSON Lines), openmetrics,\n"
"                         prometheus (text format 0.0.4)\n"
"  -o, --output=FILE      write each report to FILE (atomic rename)\n"
"      --fields=LIST      columns of the view and of text output, comma\n"
"                         separated ids (--fields=help lists them)\n"
"      --mark-wait=SECONDS  one shot: mark all pages idle, wait SECONDS,\n"
"                         read idle state once, print one report, exit\n"
"      --source=SRC       idle source: auto (default), kpageidle, bitmap;\n"
"                         kpageidle-folios / kpageidle-rw force the scan\n"
"                         ioctl's folio records / read+write (default: the\n"
"                         records when the kernel has them);\n"
"                         mglru: approximate, from the multi-gen LRU's\n"
"                         generations (auto's choice without idle page\n"
"                         tracking)\n"
"      --mglru-aging      mglru: one forced aging step per memcg and node\n"
"                         each cycle (changes what reclaim sees)\n"
"      --ws-cycles=K      pages idle for >= K cycles are not in the\n"
"                         working set (default 1, max 255)\n"
"      --headroom=PERCENT suggested memory.high = working set + PERCENT\n"
"                         (default 25), rounded up to 4 MiB\n"
"      --root=DIR         prefix for /proc, /sys and mountinfo (default /)\n"
"      --cgroup=DIR       cgroup2 root directory, not under --root\n"
"                         (default: the cgroup2 mount in mountinfo)\n"
"      --idle-buckets=LIST  idle-age buckets, seconds (suffix m, h, d):\n"
"                         bytes idle for at least each (default\n"
"                         1m,2m,5m,15m,30m,1h,2h,4h)\n"
"      --listen=[ADDR:]PORT  serve the latest cycle's metrics over HTTP\n"
"                         at /metrics (ADDR default 127.0.0.1); no TUI\n"
"      --node-label=NAME  a node=\"NAME\" label on every metric (e.g. the\n"
"                         Kubernetes node name)\n"
"      --max-depth=N      show cgroups down to depth N only (root: 0)\n"
"      --min-bytes=SIZE   show cgroups with at least SIZE resident\n"
"                         (suffix K, M, G, T; shown ones stay down to\n"
"                         half of it)\n"
"      --include=GLOB     show only cgroups whose path matches a GLOB\n"
"      --exclude=GLOB     do not show cgroups whose path matches GLOB\n"
"                         (both repeatable; the root is always shown;\n"
"                         these four apply to -b and --listen output)\n"
"      --slice-pfns=N     most PFNs per slice (default 65536)\n"
"      --slice-ms=MS      target slice duration (default 10)\n"
"  -h, --help             show this help and exit\n"
"  -V, --version          show the version and exit\n"
"\n"
"Needs root (the kernel files are mode 0600/0400) and CONFIG_IDLE_PAGE_TRACKING\n"
"(or, approximate, the multi-gen LRU on and debugfs mounted).\n"
"Exit status: 0 ok, 1 runtime error, 2 usage error.\n";

enum { O_PERIOD = 256, O_CPU, O_MARK_WAIT, O_SOURCE, O_WS, O_HEADROOM,
       O_ROOT, O_CGROUP, O_SLICE_PFNS, O_SLICE_MS, O_BUCKETS, O_LISTEN,
       O_MAX_DEPTH, O_MIN_BYTES, O_INCLUDE, O_EXCLUDE, O_FIRST, O_FIELDS,
       O_NODE_LABEL, O_MGLRU_AGING };

static const struct option longopts[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "delay", required_argument, NULL, 'd' },
	{ "period", required_argument, NULL, O_PERIOD },
	{ "first-window", required_argument, NULL, O_FIRST },
	{ "fields", required_argument, NULL, O_FIELDS },
	{ "cpu", required_argument, NULL, O_CPU },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "mark-wait", required_argument, NULL, O_MARK_WAIT },
	{ "source", required_argument, NULL, O_SOURCE },
	{ "mglru-aging", no_argument, NULL, O_MGLRU_AGING },
	{ "ws-cycles", required_argument, NULL, O_WS },
	{ "headroom", required_argument, NULL, O_HEADROOM },
	{ "root", required_argument, NULL, O_ROOT },
	{ "cgroup", required_argument, NULL, O_CGROUP },
	{ "slice-pfns", required_argument, NULL, O_SLICE_PFNS },
	{ "slice-ms", required_argument, NULL, O_SLICE_MS },
	{ "idle-buckets", required_argument, NULL, O_BUCKETS },
	{ "listen", required_argument, NULL, O_LISTEN },
	{ "node-label", required_argument, NULL, O_NODE_LABEL },
	{ "max-depth", required_argument, NULL, O_MAX_DEPTH },
	{ "min-bytes", required_argument, NULL, O_MIN_BYTES },
	{ "include", required_argument, NULL, O_INCLUDE },
	{ "exclude", required_argument, NULL, O_EXCLUDE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

void options_default(struct config *c)
{
	memset(c, 0, sizeof(*c));
	c->root = "/";
	c->period = 60;
	c->delay = 2;
	c->first_window = 5;
	c->cpu_pct = 2;
	c->format = FMT_TEXT;
	c->source = IDLESRC_AUTO;
	c->ws_cycles = 1;
	c->headroom_pct = 25;
	c->mark_wait = -1;
	c->slice_pfns = 65536;
	c->slice_ms = 10;
	c->idle_buckets = idle_tbuckets_default;
	select_default(&c->sel);
}

int parse_num(const char *s, double min, double max, double *v)
{
	char *end;
	double x;

	if (!*s || strchr(s, 'x') || strchr(s, 'X'))
		return -1;	/* no hex floats */
	errno = 0;
	x = strtod(s, &end);
	if (errno || *end || !isfinite(x) || x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

struct numopt {
	int opt;
	const char *name;
	double min, max;
	int integer;
};

static const struct numopt numopts[] = {
	{ 'n', "iterations", 1, 1e9, 1 },
	{ 'd', "delay", 0.01, 604800, 0 },
	{ O_PERIOD, "period", 0.01, 604800, 0 },
	{ O_FIRST, "first-window", 0, 604800, 0 },
	{ O_CPU, "cpu", 0.01, 100, 0 },
	{ O_MARK_WAIT, "mark-wait", 0, 86400, 0 },
	{ O_WS, "ws-cycles", 1, 255, 1 },
	{ O_HEADROOM, "headroom", 0, 1000, 1 },
	{ O_SLICE_PFNS, "slice-pfns", 64, 1 << 24, 1 },
	{ O_SLICE_MS, "slice-ms", 0.1, 10000, 0 },
	{ O_MAX_DEPTH, "max-depth", 0, 10000, 1 },
};

static void set_num(struct config *c, int opt, double v)
{
	switch (opt) {
	case 'n': c->iterations = (unsigned long)v; break;
	case 'd': c->delay = v; c->delay_set = 1; break;
	case O_PERIOD: c->period = v; c->period_set = 1; break;
	case O_FIRST: c->first_window = v; break;
	case O_CPU: c->cpu_pct = v; break;
	case O_MARK_WAIT: c->mark_wait = v; break;
	case O_WS: c->ws_cycles = (unsigned)v; break;
	case O_HEADROOM: c->headroom_pct = (unsigned)v; break;
	case O_SLICE_PFNS: c->slice_pfns = (size_t)v; break;
	case O_SLICE_MS: c->slice_ms = v; break;
	case O_MAX_DEPTH: c->sel.max_depth = (int)v; break;
	}
}

static int number_opt(struct config *c, int opt, const char *arg, FILE *err)
{
	size_t i;
	double v;

	for (i = 0; i < sizeof(numopts) / sizeof(*numopts); i++) {
		const struct numopt *n = &numopts[i];

		if (n->opt != opt)
			continue;
		if (parse_num(arg, n->min, n->max, &v) ||
		    (n->integer && v != floor(v))) {
			fprintf(err, "idletop: invalid --%s '%s': expected %s "
				"%g..%g\n", n->name, arg, n->integer ?
				"an integer" : "a number", n->min, n->max);
			return OPT_USAGE;
		}
		set_num(c, opt, v);
		return OPT_OK;
	}
	return -1;
}

static int parse_format(const char *s, enum out_format *f)
{
	if (!strcmp(s, "text"))
		*f = FMT_TEXT;
	else if (!strcmp(s, "json"))
		*f = FMT_JSON;
	else if (!strcmp(s, "openmetrics"))
		*f = FMT_OPENMETRICS;
	else if (!strcmp(s, "prometheus"))
		*f = FMT_PROMETHEUS;
	else
		return -1;
	return 0;
}

/* A number with a suffix from units ("" = 1 each), *end past it. */
static int num_unit(const char *s, const char *units, const double *mult,
		    double max, double *v)
{
	size_t n = strlen(s);
	const char *u;
	char num[64];

	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n + 1);
	u = strchr(units, num[n - 1]);
	if (u && num[n - 1]) {
		num[n - 1] = 0;
		if (parse_num(num, 0, max, v))
			return -1;
		*v *= mult[u - units];
		return 0;
	}
	return parse_num(num, 0, max, v);
}

int parse_buckets(const char *s, struct idle_tbuckets *tb)
{
	static const double mult[] = { 1, 60, 3600, 86400 };
	char item[64];
	size_t n;
	double v;

	memset(tb, 0, sizeof(*tb));
	for (;;) {
		n = strcspn(s, ",");
		if (n >= sizeof(item) || tb->n >= IDLE_TBUCKETS_MAX)
			return -1;
		memcpy(item, s, n);
		item[n] = 0;
		if (num_unit(item, "smhd", mult, 1e7, &v) || v <= 0 ||
		    (tb->n && v <= tb->secs[tb->n - 1]))
			return -1;
		tb->secs[tb->n++] = v;
		if (!s[n])
			return 0;
		s += n + 1;
	}
}

int parse_size(const char *s, uint64_t *v)
{
	static const double mult[] = { 1024.0, 1048576.0, 1073741824.0,
				       1099511627776.0 };
	double x;

	if (num_unit(s, "KMGT", mult, 1e18, &x) || x > 1.8e19 ||
	    x != floor(x))
		return -1;
	*v = (uint64_t)x;
	return 0;
}

/* The exporter's options: -1 when opt is not one of them. */
static int exporter_opt(struct config *c, int opt, const char *arg,
			FILE *err)
{
	switch (opt) {
	case O_BUCKETS:
		if (!parse_buckets(arg, &c->idle_buckets))
			return OPT_OK;
		fprintf(err, "idletop: invalid --idle-buckets '%s': expected "
			"1..%d ascending durations > 0 (60, 90s, 5m, 2h, 1d)\n",
			arg, IDLE_TBUCKETS_MAX);
		return OPT_USAGE;
	case O_MIN_BYTES:
		if (!parse_size(arg, &c->sel.min_bytes))
			return OPT_OK;
		fprintf(err, "idletop: invalid --min-bytes '%s': expected "
			"bytes, or a number with K, M, G or T\n", arg);
		return OPT_USAGE;
	case O_LISTEN:		/* checked by main.c: http_parse_listen() */
		c->listen = arg;
		return OPT_OK;
	case O_NODE_LABEL:
		if (*arg && strlen(arg) < 256) {
			c->node_label = arg;
			return OPT_OK;
		}
		fprintf(err, "idletop: invalid --node-label: expected 1 to 255 "
			"bytes\n");
		return OPT_USAGE;
	case O_INCLUDE:
	case O_EXCLUDE:
		if ((opt == O_INCLUDE ? c->sel.n_include : c->sel.n_exclude) >=
		    SELECT_MAX_PATTERNS) {
			fprintf(err, "idletop: more than %d --%s patterns\n",
				SELECT_MAX_PATTERNS, opt == O_INCLUDE ?
				"include" : "exclude");
			return OPT_USAGE;
		}
		if (opt == O_INCLUDE)
			c->sel.include[c->sel.n_include++] = arg;
		else
			c->sel.exclude[c->sel.n_exclude++] = arg;
		return OPT_OK;
	}
	return -1;
}

static int fields_opt(struct config *c, const char *arg, FILE *out,
		      FILE *err)
{
	struct sbuf b;
	char msg[160];

	if (!strcmp(arg, "help")) {
		sb_init(&b);
		sb_puts(&b, "Fields (--fields=ID,ID,...; the rc file's "
			"columns=):\n");
		fields_help(&b);
		fputs(sb_str(&b), out);
		sb_free(&b);
		return OPT_EXIT;
	}
	if (fields_parse(&c->fset, arg, 0, msg, sizeof(msg))) {
		fprintf(err, "idletop: invalid --fields: %s\n", msg);
		return OPT_USAGE;
	}
	c->fields = arg;
	return OPT_OK;
}

static int source_opt(struct config *c, const char *arg, FILE *err)
{
	if (!idlesrc_parse_kind(arg, &c->source))
		return OPT_OK;
	fprintf(err, "idletop: invalid --source '%s': expected auto, "
		"kpageidle, kpageidle-folios, kpageidle-rw, bitmap or mglru\n",
		arg);
	if (!strcmp(arg, "kpageidle-scan"))
		fprintf(err, "idletop: the KPAGEIDLE_SCAN ioctl has no bitmap "
			"output any more: use --source kpageidle-folios for "
			"its folio records\n");
	return OPT_USAGE;
}

static int apply_opt(struct config *c, int opt, const char *arg, FILE *out,
	       FILE *err)
{
	int rc = number_opt(c, opt, arg, err);

	if (rc < 0)
		rc = exporter_opt(c, opt, arg, err);
	if (rc >= 0)
		return rc;
	switch (opt) {
	case 'b': c->batch = 1; return OPT_OK;
	case 'o': c->output = arg; return OPT_OK;
	case O_ROOT: c->root = arg; return OPT_OK;
	case O_CGROUP: c->cgroup_dir = arg; return OPT_OK;
	case O_MGLRU_AGING: c->mglru_aging = 1; return OPT_OK;
	case O_FIELDS: return fields_opt(c, arg, out, err);
	case 'h': fputs(usage_text, out); return OPT_EXIT;
	case 'V': fputs("idletop " IDLETOP_VERSION "\n", out); return OPT_EXIT;
	case 'f':
		if (!parse_format(arg, &c->format))
			return OPT_OK;
		fprintf(err, "idletop: invalid --format '%s': expected text, "
			"json, openmetrics or prometheus\n", arg);
		return OPT_USAGE;
	case O_SOURCE: return source_opt(c, arg, err);
	}
	fprintf(err, "Try 'idletop --help' for more information.\n");
	return OPT_USAGE;
}

/*
 * -o, -f and -n shape the reports of -b, --listen and --mark-wait; the
 * interactive view prints none, so there they are a mistake, not a no-op.
 */
static int output_opt_alone(const struct config *c, int opt, FILE *err)
{
	if (!opt || c->batch || c->listen || c->mark_wait >= 0)
		return 0;
	fprintf(err, "idletop: -%c is for report output: add -b (or "
		"--listen, --mark-wait)\n"
		"Try 'idletop --help' for more information.\n", opt);
	return 1;
}

int options_parse(struct config *c, int argc, char **argv, FILE *out,
		  FILE *err)
{
	int opt, rc, output_opt = 0;

	optind = 1;
	opterr = 1;
	while ((opt = getopt_long(argc, argv, "bn:d:f:o:hV", longopts,
				  NULL)) != -1) {
		rc = apply_opt(c, opt, optarg, out, err);
		if (rc != OPT_OK)
			return rc;
		if (opt == 'o' || opt == 'f' || opt == 'n')
			output_opt = opt;
	}
	if (output_opt_alone(c, output_opt, err))
		return OPT_USAGE;
	if (c->mglru_aging && c->source != IDLESRC_AUTO &&
	    c->source != IDLESRC_MGLRU) {
		fprintf(err, "idletop: --mglru-aging is for --source mglru "
			"(or auto)\n");
		return OPT_USAGE;
	}
	if (c->listen && c->mark_wait >= 0) {
		fprintf(err, "idletop: --listen and --mark-wait do not go "
			"together\n");
		return OPT_USAGE;
	}
	/* batch reports are cycles: -d, top's delay between them, is the
	 * period there unless --period says otherwise */
	if ((c->batch || c->mark_wait >= 0) && c->delay_set && !c->period_set)
		c->period = c->delay;
	if (optind < argc) {
		fprintf(err, "idletop: unexpected argument '%s'\n"
			"Try 'idletop --help' for more information.\n",
			argv[optind]);
		return OPT_USAGE;
	}
	return OPT_OK;
}
