// SPDX-License-Identifier: GPL-2.0
/*
 * cgfiles.c - memory.current, memory.stat, memory.low/high/max, pressure,
 * memory.events, memory.swap.current and memory.swap.max
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup.h"
#include "util.h"

struct cg_key {
	const char *key;
	size_t off;
};

static const struct cg_key stat_keys[] = {
	{ "anon", offsetof(struct cg_mem, anon) },
	{ "file", offsetof(struct cg_mem, file) },
	{ "shmem", offsetof(struct cg_mem, shmem) },
	{ "file_mapped", offsetof(struct cg_mem, file_mapped) },
	{ "unevictable", offsetof(struct cg_mem, unevictable) },
	{ "anon_thp", offsetof(struct cg_mem, anon_thp) },
	{ "file_thp", offsetof(struct cg_mem, file_thp) },
	{ "shmem_thp", offsetof(struct cg_mem, shmem_thp) },
	{ "active_anon", offsetof(struct cg_mem, active_anon) },
	{ "inactive_anon", offsetof(struct cg_mem, inactive_anon) },
	{ "active_file", offsetof(struct cg_mem, active_file) },
	{ "inactive_file", offsetof(struct cg_mem, inactive_file) },
	{ "workingset_refault_anon", offsetof(struct cg_mem, refault_anon) },
	{ "workingset_refault_file", offsetof(struct cg_mem, refault_file) },
};

static const struct cg_key event_keys[] = {
	{ "low", offsetof(struct cg_mem, ev_low) },
	{ "high", offsetof(struct cg_mem, ev_high) },
	{ "max", offsetof(struct cg_mem, ev_max) },
	{ "oom", offsetof(struct cg_mem, ev_oom) },
	{ "oom_kill", offsetof(struct cg_mem, ev_oom_kill) },
};

#define NKEYS(a) (sizeof(a) / sizeof(*(a)))

static int parse_u64(const char *s, char **end, uint64_t *v)
{
	unsigned long long x;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	x = strtoull(s, end, 10);
	if (errno)
		return -1;
	*v = x;
	return 0;
}

/*
 * "key value" lines into the fields of m named by keys; unknown keys and
 * malformed lines are ignored. 0 if any key was found, else -1.
 */
static int parse_keyed(const char *text, const struct cg_key *keys,
		       size_t nkeys, struct cg_mem *m)
{
	const char *line = text;
	int found = 0;

	while (*line) {
		const char *sp = strchr(line, ' '), *nl = strchr(line, '\n');
		size_t i, klen;
		uint64_t v;
		char *end;

		if (!nl)
			nl = line + strlen(line);
		if (sp && sp < nl && !parse_u64(sp + 1, &end, &v) &&
		    end == nl) {
			klen = (size_t)(sp - line);
			for (i = 0; i < nkeys; i++) {
				if (strlen(keys[i].key) != klen ||
				    memcmp(keys[i].key, line, klen))
					continue;
				*(uint64_t *)((char *)m + keys[i].off) = v;
				found++;
			}
		}
		line = *nl ? nl + 1 : nl;
	}
	return found ? 0 : -1;
}

int cg_parse_memstat(const char *text, struct cg_mem *m)
{
	return parse_keyed(text, stat_keys, NKEYS(stat_keys), m);
}

int cg_parse_events(const char *text, struct cg_mem *m)
{
	return parse_keyed(text, event_keys, NKEYS(event_keys), m);
}

int cg_parse_limit(const char *text, uint64_t *v)
{
	char *end;

	if (!strcmp(text, "max\n") || !strcmp(text, "max")) {
		*v = CG_NOLIMIT;
		return 0;
	}
	if (parse_u64(text, &end, v))
		return -1;
	return *end == '\0' || !strcmp(end, "\n") ? 0 : -1;
}

static int parse_psi_line(const char *l, double avg[3], uint64_t *total)
{
	unsigned long long t;

	if (sscanf(l, "avg10=%lf avg60=%lf avg300=%lf total=%llu",
		   &avg[0], &avg[1], &avg[2], &t) != 4)
		return -1;
	*total = t;
	return 0;
}

int cg_parse_pressure(const char *text, struct cg_mem *m)
{
	const char *some = strstr(text, "some "), *full = strstr(text, "full ");
	double a[3];

	if (!some || parse_psi_line(some + 5, a, &m->some_total))
		return -1;
	m->some_avg10 = a[0];
	m->some_avg60 = a[1];
	m->some_avg300 = a[2];
	if (full && !parse_psi_line(full + 5, a, &m->full_total)) {
		m->full_avg10 = a[0];
		m->full_avg60 = a[1];
		m->full_avg300 = a[2];
	}
	return 0;
}

static int read_limit(int dir, const char *name, uint64_t *v)
{
	char *t = read_text_at(dir, name, NULL);
	int ok = t && !cg_parse_limit(t, v);

	free(t);
	return ok;
}

void cg_read_mem(int dir, struct cg_mem *m)
{
	char *t;

	memset(m, 0, sizeof(*m));
	m->has_current = read_limit(dir, "memory.current", &m->current);
	m->has_low = read_limit(dir, "memory.low", &m->low);
	m->has_high = read_limit(dir, "memory.high", &m->high);
	m->has_max = read_limit(dir, "memory.max", &m->max);
	t = read_text_at(dir, "memory.stat", NULL);
	m->has_stat = t && !cg_parse_memstat(t, m);
	free(t);
	t = read_text_at(dir, "memory.pressure", NULL);
	m->has_pressure = t && !cg_parse_pressure(t, m);
	free(t);
	t = read_text_at(dir, "memory.events", NULL);
	m->has_events = t && !cg_parse_events(t, m);
	free(t);
	/* "max" cannot appear here; a CG_NOLIMIT value would be a bug */
	m->has_swap = read_limit(dir, "memory.swap.current", &m->swap_current) &&
		      m->swap_current != CG_NOLIMIT;
	m->has_swap_max = read_limit(dir, "memory.swap.max", &m->swap_max);
}
