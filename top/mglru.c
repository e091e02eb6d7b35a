// SPDX-License-Identifier: GPL-2.0
/* mglru.c - the multi-gen LRU's debugfs file: parser and aging (mglru.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mglru.h"
#include "util.h"

/* Where in the grammar the parser is. */
enum {
	S_START,	/* nothing yet: a memcg line comes first */
	S_MEMCG,	/* after a memcg line: its path may continue */
	S_NODE,		/* in a lruvec: generations; then a node or memcg */
};

void mglru_parse_init(struct mglru_parser *p, const char *name,
		      mglru_fn *fn, void *ctx)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->fn = fn;
	p->ctx = ctx;
}

static int bad(struct mglru_parser *p, const char *what, char *err,
	       size_t errlen)
{
	snprintf(err, errlen, "%s:%lu: %s", p->name, p->lineno + 1, what);
	return -1;
}

/* An unsigned decimal number after optional blanks; *s moves past it. */
static int number(const char **s, uint64_t max, uint64_t *v)
{
	const char *c = *s;
	uint64_t x = 0;

	while (*c == ' ')
		c++;
	if (*c < '0' || *c > '9')
		return -1;
	for (; *c >= '0' && *c <= '9'; c++) {
		if (x > (max - (uint64_t)(*c - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*c - '0');
	}
	*s = c;
	*v = x;
	return 0;
}

/* The lruvec read so far, to the callback; its error gets the line. */
static int flush(struct mglru_parser *p, char *err, size_t errlen)
{
	char why[256];

	if (p->state != S_NODE)
		return 0;
	p->cur.path = p->path;
	if (p->fn(p->ctx, &p->cur, why, sizeof(why)) == 0)
		return 0;
	return bad(p, why, err, errlen);
}

/* "memcg ID PATH": ID, one blank, the path to the end of the line. */
static int memcg_line(struct mglru_parser *p, const char *s, char *err,
		      size_t errlen)
{
	uint64_t id;

	if (number(&s, 65535, &id) || (*s != ' ' && *s))
		return bad(p, "expected \"memcg ID PATH\"", err, errlen);
	if (*s)
		s++;
	p->id = (unsigned)id;
	p->path_len = strlen(s);
	memcpy(p->path, s, p->path_len + 1);
	p->state = S_MEMCG;
	return 0;
}

/* A line after "memcg" that is not " node": the path had a newline. */
static int path_more(struct mglru_parser *p, const char *s, char *err,
		     size_t errlen)
{
	size_t n = strlen(s);

	if (p->path_len + 1 + n >= sizeof(p->path))
		return bad(p, "cgroup path too long", err, errlen);
	p->path[p->path_len++] = '\n';
	memcpy(p->path + p->path_len, s, n + 1);
	p->path_len += n;
	return 0;
}

static int node_line(struct mglru_parser *p, const char *s, char *err,
		     size_t errlen)
{
	uint64_t nid;

	if (p->state == S_START)
		return bad(p, "\" node\" before any memcg line", err, errlen);
	if (number(&s, 1 << 20, &nid) || *s)
		return bad(p, "expected \" node NID\"", err, errlen);
	memset(&p->cur, 0, sizeof(p->cur));
	p->cur.id = p->id;
	p->cur.node = (int)nid;
	p->state = S_NODE;
	return 0;
}

/* " SEQ AGE_MS NR_ANON NR_FILE", each number followed by blanks */
static int gen_line(struct mglru_parser *p, const char *s, char *err,
		    size_t errlen)
{
	struct mglru_gen g;

	if (p->state != S_NODE)
		return bad(p, "a generation outside a \" node\" block", err,
			   errlen);
	if (number(&s, UINT64_MAX, &g.seq) ||
	    number(&s, UINT64_MAX, &g.age_ms) ||
	    number(&s, UINT64_MAX, &g.anon) ||
	    number(&s, UINT64_MAX, &g.file) || s[strspn(s, " ")])
		return bad(p, "expected \" SEQ AGE_MS NR_ANON NR_FILE\"",
			   err, errlen);
	if (p->cur.n >= MGLRU_GENS_MAX)
		return bad(p, "more generations than MAX_NR_GENS (4)", err,
			   errlen);
	if (p->cur.n && g.seq <= p->cur.gen[p->cur.n - 1].seq)
		return bad(p, "generations not in ascending order", err,
			   errlen);
	p->cur.gen[p->cur.n++] = g;
	return 0;
}

static int line(struct mglru_parser *p, char *err, size_t errlen)
{
	const char *s = p->line;
	int rc;

	if (!strncmp(s, "memcg ", 6) && p->state != S_MEMCG) {
		rc = flush(p, err, errlen);
		return rc ? rc : memcg_line(p, s + 6, err, errlen);
	}
	if (!strncmp(s, " node ", 6)) {
		rc = flush(p, err, errlen);
		return rc ? rc : node_line(p, s + 6, err, errlen);
	}
	if (p->state == S_MEMCG)
		return path_more(p, s, err, errlen);
	return gen_line(p, s, err, errlen);
}

int mglru_parse(struct mglru_parser *p, const char *buf, size_t n, char *err,
		size_t errlen)
{
	const char *end = buf + n, *nl;
	size_t k;

	while (buf < end) {
		nl = memchr(buf, '\n', (size_t)(end - buf));
		k = (size_t)((nl ? nl : end) - buf);
		if (memchr(buf, '\0', k))
			return bad(p, "a NUL byte", err, errlen);
		if (p->len + k >= sizeof(p->line))
			return bad(p, "line too long", err, errlen);
		memcpy(p->line + p->len, buf, k);
		p->len += k;
		buf += k;
		if (!nl)
			break;
		buf++;
		p->line[p->len] = 0;
		if (line(p, err, errlen))
			return -1;
		p->lineno++;
		p->len = 0;
	}
	return 0;
}

int mglru_parse_end(struct mglru_parser *p, char *err, size_t errlen)
{
	if (p->len)
		return bad(p, "truncated (no newline at the end)", err, errlen);
	if (p->state == S_MEMCG)
		return bad(p, "a memcg line without \" node\"", err, errlen);
	return flush(p, err, errlen);
}

int mglru_available(const char *root)
{
	char *en = path_join(root, MGLRU_ENABLED_PATH);
	char *gen = path_join(root, MGLRU_GEN_PATH);
	char *text = en ? read_text_file(en, NULL) : NULL, *end;
	unsigned long long caps = 0;
	int on = 0;

	if (text) {
		errno = 0;
		caps = strtoull(text, &end, 0);
		on = !errno && end != text && (!*end || *end == '\n') &&
		     (caps & 1);
	}
	if (on && (!gen || access(gen, F_OK)))
		on = 0;
	free(text);
	free(en);
	free(gen);
	return on;
}

int mglru_age(int fd, unsigned id, int node, uint64_t seq)
{
	char cmd[96];
	int n = snprintf(cmd, sizeof(cmd), "+ %u %d %llu 1 1\n", id, node,
			 (unsigned long long)seq);
	ssize_t w;

	if (util_fault("mglru_age"))
		return -1;
	do
		w = write(fd, cmd, (size_t)n);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -1;
	if (w != n) {
		errno = EIO;
		return -1;
	}
	return 0;
}
