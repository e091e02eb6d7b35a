// SPDX-License-Identifier: GPL-2.0
/* http_body.c - snapshots and /metrics response bodies (http_int.h) */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "fmt.h"
#include "http_int.h"
#include "metrics.h"
#include "selfstat.h"
#include "util.h"

#define OM_EOF "# EOF\n"

/* gzip's member header: deflate, no name, no time, Unix (RFC 1952). */
static const unsigned char gz_head[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0,
					   0, 3 };

/* What one response holds besides its reference on the snapshot. */
struct req {
	struct snap *s;
	struct sbuf tail;
	unsigned char *tail_gz;
	unsigned char trailer[8];	/* gzip: CRC-32 and size, LE */
};

static void snap_free(struct snap *s)
{
	int f;

	for (f = 0; f < 2; f++) {
		free(s->body[f]);
		free(s->gz[f]);
	}
	free(s);
}

struct snap *snap_new(struct http_pub *p)
{
	struct snap *s = p->prom && p->om ? calloc(1, sizeof(*s)) : NULL;
	size_t el = strlen(OM_EOF);

	if (!s) {
		free(p->prom);
		free(p->om);
		return NULL;
	}
	atomic_init(&s->refs, 1);
	s->body[MF_PROMETHEUS] = p->prom;
	s->len[MF_PROMETHEUS] = p->prom_len;
	s->body[MF_OPENMETRICS] = p->om;
	s->len[MF_OPENMETRICS] = p->om_len;
	/* "# EOF" goes after the tail */
	if (p->om_len >= el && !memcmp(p->om + p->om_len - el, OM_EOF, el))
		s->len[MF_OPENMETRICS] -= el;
	s->cycle = p->cycle;
	s->next_within = p->next_within;
	s->published = now_mono();
	return s;
}

struct snap *snap_get(struct http *h)
{
	struct snap *s;

	pthread_mutex_lock(&h->lock);
	s = h->snap;
	if (s)
		atomic_fetch_add(&s->refs, 1);
	pthread_mutex_unlock(&h->lock);
	return s;
}

void snap_put(struct snap *s)
{
	if (s && atomic_fetch_sub(&s->refs, 1) == 1)
		snap_free(s);
}

/* Raw deflate of buf into a new buffer; flush: Z_SYNC_FLUSH or Z_FINISH. */
static unsigned char *deflate_raw(const void *buf, size_t len, int flush,
				  int wbits, int mem, size_t *out_len)
{
	z_stream z;
	unsigned char *out;
	size_t cap;
	int rc;

	memset(&z, 0, sizeof(z));
	if (len > 0xffffffffu ||
	    deflateInit2(&z, 6, Z_DEFLATED, -wbits, mem, Z_DEFAULT_STRATEGY))
		return NULL;
	cap = deflateBound(&z, (uLong)len) + 64;
	out = malloc(cap);
	if (out) {
		z.next_in = (Bytef *)buf;
		z.avail_in = (uInt)len;
		z.next_out = out;
		z.avail_out = (uInt)cap;
		rc = deflate(&z, flush);
		if (z.avail_in || rc != (flush == Z_FINISH ? Z_STREAM_END :
					 Z_OK)) {
			free(out);
			out = NULL;
		}
		*out_len = cap - z.avail_out;
	}
	deflateEnd(&z);
	return out;
}

/* The snapshot's gzip form of format f, made on first use. */
static int snap_gzip(struct snap *s, int f)
{
	if (s->gz[f])
		return 0;
	s->gz[f] = deflate_raw(s->body[f], s->len[f], Z_SYNC_FLUSH, 15, 8,
			       &s->gz_len[f]);
	if (!s->gz[f])
		return -1;
	s->crc[f] = crc32(crc32(0, NULL, 0), (const Bytef *)s->body[f],
			  (uInt)s->len[f]);
	return 0;
}

static void counter(struct sbuf *b, int f, const char *name,
		    const char *help, uint64_t v)
{
	selfstat_metric(b, f, name, "counter", NULL, help, (double)v);
}

/* The part made per request: process_*, the exporter's counters, EOF. */
static int tail_render(struct http *h, struct sbuf *b, int f)
{
	uint64_t errors, slow;

	pthread_mutex_lock(&h->lock);
	errors = h->errors;
	slow = h->closed_slow;
	pthread_mutex_unlock(&h->lock);
	selfstat_render(b, f);
	counter(b, f, "idletop_scan_errors", "Runtime errors of the scanner "
		"since idletop started; each is retried, and the last good "
		"report is served meanwhile.", errors);
	counter(b, f, "idletop_http_slow_closed", "HTTP connections shut "
		"down because their request headers were late or a new "
		"client needed the slot.", slow);
	if (f == MF_OPENMETRICS)
		sb_puts(b, OM_EOF);
	return b->oom ? -1 : 0;
}

static void put_le32(unsigned char *p, unsigned long v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void req_free(void *cls)
{
	struct req *r = cls;

	snap_put(r->s);
	sb_free(&r->tail);
	free(r->tail_gz);
	free(r);
}

/* iov: gzip header, the snapshot's deflate, the tail's, the trailer. */
static int gzip_iov(struct req *r, int f, struct MHD_IoVec *iov)
{
	struct snap *s = r->s;
	size_t tlen;
	unsigned long crc;

	if (snap_gzip(s, f))
		return -1;
	r->tail_gz = deflate_raw(r->tail.p, r->tail.len, Z_FINISH, 9, 1,
				 &tlen);
	if (!r->tail_gz)
		return -1;
	crc = crc32(crc32(0, NULL, 0), (const Bytef *)r->tail.p,
		    (uInt)r->tail.len);
	crc = crc32_combine(s->crc[f], crc, (z_off_t)r->tail.len);
	put_le32(r->trailer, crc);
	put_le32(r->trailer + 4, (unsigned long)(s->len[f] + r->tail.len));
	iov[0] = (struct MHD_IoVec){ gz_head, sizeof(gz_head) };
	iov[1] = (struct MHD_IoVec){ s->gz[f], s->gz_len[f] };
	iov[2] = (struct MHD_IoVec){ r->tail_gz, tlen };
	iov[3] = (struct MHD_IoVec){ r->trailer, sizeof(r->trailer) };
	return 4;
}

struct MHD_Response *body_response(struct http *h, struct snap *s, int f,
				   int gzip)
{
	struct req *r = calloc(1, sizeof(*r));
	struct MHD_IoVec iov[4];
	struct MHD_Response *resp;
	int n = 2;

	if (!r) {
		snap_put(s);
		return NULL;
	}
	r->s = s;
	sb_init(&r->tail);
	if (tail_render(h, &r->tail, f) ||
	    (gzip && (n = gzip_iov(r, f, iov)) < 0)) {
		req_free(r);
		return NULL;
	}
	if (!gzip) {
		iov[0] = (struct MHD_IoVec){ s->body[f], s->len[f] };
		iov[1] = (struct MHD_IoVec){ r->tail.p, r->tail.len };
	}
	resp = MHD_create_response_from_iovec(iov, (unsigned)n, req_free, r);
	if (!resp)
		req_free(r);
	return resp;
}
