// SPDX-License-Identifier: GPL-2.0
/* fields.c - the column registry (fields.h): one entry per column */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "fields.h"

static uint64_t page(const struct report *r)
{
	return r->p.page_size ? r->p.page_size : 4096;
}

static void set_u(struct field_val *v, int has, uint64_t u)
{
	v->has = has;
	v->u = has ? u : 0;
}

static void set_d(struct field_val *v, int has, double d)
{
	v->has = has;
	v->d = has ? d : 0;
}

/* Before the first counted cycle sizes come from memory.stat. */
static void get_res(const struct report *r, const struct cg_stat *s,
		    struct field_val *v)
{
	const struct cg_mem *m = &s->mem;

	if (r->cycle)
		set_u(v, 1, s->resident);
	else if (m->has_stat)
		set_u(v, 1, m->anon + m->file);
	else
		set_u(v, m->has_current, m->current);
}

static void get_anon(const struct report *r, const struct cg_stat *s,
		     struct field_val *v)
{
	if (r->cycle)
		set_u(v, 1, s->total.resident[PK_ANON] * page(r));
	else
		set_u(v, s->mem.has_stat, s->mem.anon);
}

static void get_file(const struct report *r, const struct cg_stat *s,
		     struct field_val *v)
{
	const struct cg_mem *m = &s->mem;

	if (r->cycle)
		set_u(v, 1, s->total.resident[PK_FILE] * page(r));
	else	/* memory.stat's file includes shmem */
		set_u(v, m->has_stat, m->file > m->shmem ?
		      m->file - m->shmem : 0);
}

static void get_shmem(const struct report *r, const struct cg_stat *s,
		      struct field_val *v)
{
	if (r->cycle)
		set_u(v, 1, s->total.resident[PK_SHMEM] * page(r));
	else
		set_u(v, s->mem.has_stat, s->mem.shmem);
}

static void get_idle(const struct report *r, const struct cg_stat *s,
		     struct field_val *v)
{
	set_u(v, r->cycle > 0, s->idle);
}

/* Nothing resident: no percentage (0 of 0). */
static void get_idlepct(const struct report *r, const struct cg_stat *s,
			struct field_val *v)
{
	set_d(v, r->cycle > 0 && s->resident, s->idle_pct);
}

static void get_ws(const struct report *r, const struct cg_stat *s,
		   struct field_val *v)
{
	set_u(v, r->cycle > 0, s->working_set);
}

/* Suggestions: none for the root, slices and the like (stats.h). */
static void get_low(const struct report *r, const struct cg_stat *s,
		    struct field_val *v)
{
	set_u(v, r->cycle > 0 && !s->no_sugg, s->sugg_low);
}

static void get_hsugg(const struct report *r, const struct cg_stat *s,
		      struct field_val *v)
{
	set_u(v, r->cycle > 0 && !s->no_sugg, s->sugg_high);
}

static void get_floor(const struct report *r, const struct cg_stat *s,
		      struct field_val *v)
{
	set_u(v, r->cycle > 0 && !s->no_sugg && s->no_swap, s->sugg_floor);
}

static void get_kernel(const struct report *r, const struct cg_stat *s,
		       struct field_val *v)
{
	set_u(v, r->cycle > 0 && s->mem.has_current, s->kernel);
}

static void get_current(const struct report *r, const struct cg_stat *s,
			struct field_val *v)
{
	(void)r;
	set_u(v, s->mem.has_current, s->mem.current);
}

static void get_mlow(const struct report *r, const struct cg_stat *s,
		     struct field_val *v)
{
	(void)r;
	set_u(v, s->mem.has_low, s->mem.low);
}

static void get_high(const struct report *r, const struct cg_stat *s,
		     struct field_val *v)
{
	(void)r;
	set_u(v, s->mem.has_high, s->mem.high);
}

static void get_max(const struct report *r, const struct cg_stat *s,
		    struct field_val *v)
{
	(void)r;
	set_u(v, s->mem.has_max, s->mem.max);
}

/* The lower of memory.high and memory.max (sorting HIGH/MAX). */
static void get_limit(const struct report *r, const struct cg_stat *s,
		      struct field_val *v)
{
	uint64_t h = s->mem.has_high ? s->mem.high : CG_NOLIMIT;
	uint64_t x = s->mem.has_max ? s->mem.max : CG_NOLIMIT;

	(void)r;
	set_u(v, s->mem.has_high || s->mem.has_max, h < x ? h : x);
}

static void get_limitpct(const struct report *r, const struct cg_stat *s,
			 struct field_val *v)
{
	(void)r;
	set_d(v, s->has_limit_pct, s->limit_pct);
}

static void get_psi(const struct report *r, const struct cg_stat *s,
		    struct field_val *v)
{
	(void)r;
	set_d(v, s->mem.has_pressure, s->mem.some_avg10);
}

static void get_refaults(const struct report *r, const struct cg_stat *s,
			 struct field_val *v)
{
	(void)r;
	set_d(v, s->has_rate, s->refault_rate);
}

static void get_swap(const struct report *r, const struct cg_stat *s,
		     struct field_val *v)
{
	(void)r;
	set_u(v, s->mem.has_swap, s->mem.swap_current);
}

static void get_reaccess(const struct report *r, const struct cg_stat *s,
			 struct field_val *v)
{
	set_u(v, r->cycle > 0, s->reaccess);
}

#define M FF_MEASURED
#define S FF_SORT
const struct field fields[FIELDS_NR] = {
	[F_NAME] = { "name", "NAME", 0, FK_NAME, S | FF_NOTEXT, NULL,
		"the cgroup (flat view: its path)", NULL, 0 },
	[F_RES] = { "resident", "RESIDENT", 10, FK_BYTES,
		S | FF_TUI | FF_TEXT, "resident",
		"user pages on the LRU (before the first cycle: memory.stat "
		"anon+file)", get_res, 1 },
	[F_ANON] = { "anon", "ANON", 8, FK_BYTES, S | FF_TUI | FF_TEXT, NULL,
		"anonymous pages", get_anon, 7 },
	[F_FILE] = { "file", "FILE", 8, FK_BYTES, S | FF_TUI | FF_TEXT, NULL,
		"page cache pages, shmem apart", get_file, 6 },
	[F_SHMEM] = { "shmem", "SHMEM", 8, FK_BYTES, S | FF_TEXT, NULL,
		"shmem and tmpfs pages", get_shmem, 14 },
	[F_IDLE] = { "idle", "IDLE", 9, FK_BYTES, S | M | FF_TUI | FF_TEXT,
		"idle", "pages not accessed for at least one cycle", get_idle, 2 },
	[F_IDLEPCT] = { "idle_pct", "IDLE%", 7, FK_PCT,
		S | M | FF_TUI | FF_TEXT, "idle_pct",
		"IDLE of RESIDENT, % (\"-\": nothing resident)", get_idlepct, 3 },
	[F_WS] = { "working_set", "WORKSET", 9, FK_BYTES,
		S | M | FF_TUI | FF_TEXT, "working_set",
		"resident minus pages idle for >= --ws-cycles cycles", get_ws, 4,
		.metric = "idletop_working_set_bytes" },
	[F_LOW] = { "sugg_low", "LOW*", 9, FK_BYTES, S | M | FF_TEXT,
		"suggested_low", "suggested memory.low: the working set",
		get_low, 15, .metric = "idletop_suggested_low_bytes" },
	[F_HIGH_SUGG] = { "sugg_high", "HIGH*", 9, FK_BYTES,
		S | M | FF_TUI | FF_TEXT, "suggested_high",
		"suggested memory.high: working set+headroom+kernel",
		get_hsugg, 8, .metric = "idletop_suggested_high_bytes" },
	[F_CURRENT] = { "current", "CURRENT", 9, FK_BYTES,
		S | FF_TUI | FF_TEXT, NULL, "memory.current", get_current, 9,
		.metric = "idletop_memory_current_bytes" },
	[F_MEMLOW] = { "low", "LOW", 9, FK_LIMIT, S, NULL, "memory.low",
		get_mlow, 20, .metric = "idletop_memory_low_bytes" },
	[F_HIGH] = { "high", "HIGH", 9, FK_LIMIT, S | FF_TEXT, NULL,
		"memory.high", get_high, 16,
		.metric = "idletop_memory_high_bytes" },
	[F_MAX] = { "max", "MAX", 9, FK_LIMIT, S, NULL, "memory.max",
		get_max, 17, .metric = "idletop_memory_max_bytes" },
	[F_LIMIT] = { "high_max", "HIGH/MAX", 15, FK_HIGHMAX,
		S | FF_TUI | FF_NOTEXT, NULL, "memory.high / memory.max",
		get_limit, 13 },
	[F_LIMITPCT] = { "limit_pct", "%LIMIT", 7, FK_PCT, S | FF_TUI,
		"limit_pct", "memory.current of the lower of memory.high "
		"and memory.max, %", get_limitpct, 10 },
	[F_PSI] = { "psi", "PSI10", 7, FK_PCT, S | FF_TUI, "psi_some_avg10",
		"memory.pressure some avg10, %", get_psi, 11 },
	[F_REFAULTS] = { "refaults", "REFLT/s", 9, FK_RATE, S | FF_TUI,
		"refaults_per_second", "workingset refaults (anon + file) "
		"per second, between two refreshes", get_refaults, 12 },
	[F_SWAP] = { "swap", "SWAP", 8, FK_BYTES, S, NULL,
		"memory.swap.current", get_swap, 18,
		.metric = "idletop_memory_swap_current_bytes" },
	[F_REACCESS] = { "reaccess", "REACC", 8, FK_BYTES, S | M,
		"reaccess", "found accessed this cycle after >= 1 idle cycle",
		get_reaccess, 19 },
	[F_KERNEL] = { "kernel", "KERNEL", 9, FK_BYTES, S | M, "kernel",
		"memory.current minus resident (kernel memory)", get_kernel, 21,
		.metric = "idletop_kernel_bytes" },
	[F_FLOOR] = { "sugg_floor", "FLOOR*", 9, FK_BYTES, S | M,
		"suggested_high_floor",
		"without swap: anon+shmem, the floor of sugg_high",
		get_floor, 22, .metric = "idletop_suggested_high_floor_bytes" },
	[F_TREND] = { "trend", "TREND", 10, FK_TREND, FF_TUI | FF_NOTEXT,
		NULL, "IDLE% over the last cycles", NULL, 5 },
};
#undef M
#undef S

int fields_find(const char *id)
{
	int i;

	for (i = 0; i < FIELDS_NR; i++)
		if (!strcasecmp(id, fields[i].id) ||
		    !strcasecmp(id, fields[i].title))
			return i;
	return -1;
}

int fields_has(const struct field_set *set, enum field_id id)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (set->id[i] == id)
			return 1;
	return 0;
}

void fields_default(struct field_set *set, unsigned flag)
{
	int i;

	set->n = 0;
	for (i = 0; i < FIELDS_NR; i++)
		if (fields[i].flags & flag)
			set->id[set->n++] = (enum field_id)i;
}

int fields_parse(struct field_set *set, const char *list, unsigned not,
		 char *err, size_t errlen)
{
	const char *p = list, *e;
	char id[32];
	int f;

	set->n = 0;
	for (; *p; p = *e ? e + 1 : e) {
		e = p + strcspn(p, ",");
		if (e == p)
			continue;
		snprintf(id, sizeof(id), "%.*s", (int)(e - p), p);
		f = (size_t)(e - p) < sizeof(id) ? fields_find(id) : -1;
		if (f == F_NAME)
			continue;
		if (f < 0 || (fields[f].flags & not)) {
			snprintf(err, errlen, "unknown field '%.*s' (idletop "
				 "--fields=help lists them)", (int)(e - p) > 40 ?
				 40 : (int)(e - p), p);
			return -1;
		}
		if (fields_has(set, (enum field_id)f))
			continue;
		set->id[set->n++] = (enum field_id)f;
	}
	return 0;
}

void fields_list(struct sbuf *b, const struct field_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		sb_printf(b, "%s%s", i ? "," : "", fields[set->id[i]].id);
}

void field_get(const struct report *r, const struct cg_stat *s,
	       enum field_id f, struct field_val *v)
{
	memset(v, 0, sizeof(*v));
	if (f < FIELDS_NR && fields[f].get)
		fields[f].get(r, s, v);
}

void fields_help(struct sbuf *b)
{
	int i;

	for (i = 0; i < FIELDS_NR; i++)
		sb_printf(b, "  %-12s %-9s %s%s%s%s\n", fields[i].id,
			  fields[i].title, fields[i].help,
			  fields[i].flags & FF_NOTEXT ? " (view only)" : "",
			  fields[i].metric ? "; exporter: " : "",
			  fields[i].metric ? fields[i].metric : "");
}
