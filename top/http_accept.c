// SPDX-License-Identifier: GPL-2.0
/*
 * http_accept.c - content negotiation for /metrics (http.h): the Accept
 * and Accept-Encoding fields as RFC 9110 12.5.1 and 12.5.3 read them.
 * Pure functions on strings, unit tested (test_export.c).
 */
#include <string.h>
#include <strings.h>
#include "http.h"
#include "metrics.h"

/* What /metrics can be, in the order a tie goes to. */
static const struct offer {
	const char *type, *sub, *version, *ctype;
	int fmt;
} offers[] = {
	{ "text", "plain", "0.0.4", METRICS_CT_PROMETHEUS, MF_PROMETHEUS },
	{ "application", "openmetrics-text", "1.0.0", METRICS_CT_OPENMETRICS,
	  MF_OPENMETRICS },
	{ "application", "openmetrics-text", "0.0.1",
	  "application/openmetrics-text; version=0.0.1; charset=utf-8",
	  MF_OPENMETRICS },
};
#define NR_OFFERS (sizeof(offers) / sizeof(*offers))

/* One element of a list: "type/sub;name=value;q=0.5" or "gzip;q=0". */
struct elem {
	const char *type, *sub, *version;
	size_t type_len, sub_len, version_len;
	int q;			/* weight in thousandths, 0..1000 */
	int bad;		/* malformed, or a charset other than UTF-8 */
};

static int is_tchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static const char *skip_ows(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static const char *token(const char *p, const char **tok, size_t *len)
{
	*tok = p;
	while (is_tchar(*p))
		p++;
	*len = (size_t)(p - *tok);
	return p;
}

/*
 * A token, or a quoted-string's contents (an escaped character stays
 * escaped, so a value with one never matches: none of ours has one).
 */
static const char *value(const char *p, const char **v, size_t *len)
{
	if (*p != '"')
		return token(p, v, len);
	*v = ++p;
	while (*p && *p != '"')
		p += p[0] == '\\' && p[1] ? 2 : 1;
	*len = (size_t)(p - *v);
	return *p == '"' ? p + 1 : p;
}

/* qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ); -1: bad */
static int qvalue(const char *v, size_t len)
{
	int q, scale = 100;
	size_t i;

	if (!len || (v[0] != '0' && v[0] != '1') || len > 5 ||
	    (len > 1 && v[1] != '.'))
		return -1;
	q = (v[0] - '0') * 1000;
	for (i = 2; i < len; i++, scale /= 10) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		q += (v[i] - '0') * scale;
	}
	return q > 1000 ? -1 : q;
}

static int is(const char *s, size_t len, const char *word)
{
	return len == strlen(word) && !strncasecmp(s, word, len);
}

/* The parameters after an element's name; returns where it ends. */
static const char *params(const char *p, struct elem *e)
{
	const char *name, *v;
	size_t nlen, vlen;

	for (;;) {
		p = skip_ows(p);
		if (*p != ';')
			return p;
		p = token(skip_ows(p + 1), &name, &nlen);
		p = skip_ows(p);
		if (*p != '=') {
			e->bad = 1;
			continue;
		}
		p = value(skip_ows(p + 1), &v, &vlen);
		if (is(name, nlen, "q")) {
			e->q = qvalue(v, vlen);
			e->bad |= e->q < 0;
		} else if (is(name, nlen, "version")) {
			e->version = v;
			e->version_len = vlen;
		} else if (is(name, nlen, "charset")) {
			e->bad |= !is(v, vlen, "utf-8");
		}
	}
}

/*
 * The next element of the list at *pp ("type/sub" when media, a coding
 * otherwise); 0 at the end of the list.  A malformed element is skipped
 * up to the next comma with e->bad set.
 */
static int next_elem(const char **pp, struct elem *e, int media)
{
	const char *p = *pp;

	while (*p == ',' || *p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return 0;
	memset(e, 0, sizeof(*e));
	e->q = 1000;
	p = token(p, &e->type, &e->type_len);
	if (media) {
		if (*p == '/')
			p = token(p + 1, &e->sub, &e->sub_len);
		e->bad = !e->type_len || !e->sub_len;
	}
	e->bad |= !e->type_len;
	p = params(p, e);
	if (*p && *p != ',') {
		e->bad = 1;
		while (*p && *p != ',')
			p++;
	}
	*pp = p;
	return 1;
}

/* How closely e names o: -1 not at all, 0 "* / *" .. 3 with the version. */
static int match(const struct elem *e, const struct offer *o)
{
	int star_type = is(e->type, e->type_len, "*");
	int star_sub = is(e->sub, e->sub_len, "*");

	if (star_type)
		return star_sub && !e->version ? 0 : -1;
	if (!is(e->type, e->type_len, o->type))
		return -1;
	if (star_sub)
		return e->version ? -1 : 1;
	if (!is(e->sub, e->sub_len, o->sub))
		return -1;
	if (!e->version)
		return 2;
	return is(e->version, e->version_len, o->version) ? 3 : -1;
}

/* How one offer fares: the most specific range that names it decides. */
struct fit {
	int q, spec, pos;
};

static void fit_of(const char *accept, const struct offer *o, struct fit *f)
{
	struct elem e;
	int pos = 0, m;

	f->q = 0;
	f->spec = -1;
	f->pos = 0;
	while (next_elem(&accept, &e, 1)) {
		pos++;
		if (e.bad)
			continue;
		m = match(&e, o);
		if (m > f->spec) {
			f->spec = m;
			f->q = e.q;
			f->pos = pos;
		}
	}
}

static int better(const struct fit *a, const struct fit *b)
{
	if (a->q != b->q)
		return a->q > b->q;
	if (a->spec != b->spec)
		return a->spec > b->spec;
	return a->pos < b->pos;
}

int http_negotiate(const char *accept, const char **ctype)
{
	struct fit best = { 0, -1, 0 }, f;
	const char *s;
	size_t i, pick = NR_OFFERS;

	s = accept ? skip_ows(accept) : "";
	if (!*s) {
		*ctype = offers[0].ctype;
		return offers[0].fmt;
	}
	for (i = 0; i < NR_OFFERS; i++) {
		fit_of(s, &offers[i], &f);
		if (f.q > 0 && (pick == NR_OFFERS || better(&f, &best))) {
			best = f;
			pick = i;
		}
	}
	if (pick == NR_OFFERS)
		return -1;
	*ctype = offers[pick].ctype;
	return offers[pick].fmt;
}

int http_gzip_ok(const char *accept_encoding)
{
	const char *p = accept_encoding;
	struct elem e;
	int gzip = -1, star = -1;

	if (!p)
		return 0;
	while (next_elem(&p, &e, 0)) {
		if (e.bad)
			continue;
		if (is(e.type, e.type_len, "gzip") ||
		    is(e.type, e.type_len, "x-gzip"))
			gzip = e.q;
		else if (is(e.type, e.type_len, "*"))
			star = e.q;
	}
	return gzip >= 0 ? gzip > 0 : star > 0;
}
