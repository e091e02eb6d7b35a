/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http.h - the exporter (--listen): libmicrohttpd serves, from its own
 * thread, the metrics of the latest completed cycle at /metrics, its
 * health at /healthz, an index page at /, 404 elsewhere, 405 for a method
 * other than GET or HEAD.
 *
 * Memory: the scanner renders both formats once per cycle and publishes
 * them as one immutable snapshot (http_publish); every response refers to
 * that snapshot (a reference count, dropped when the response is done),
 * so N clients cost one exposition, not N copies.  A response appends a
 * small tail made per request: the process_* metrics (selfstat.h), the
 * exporter's own counters and, in OpenMetrics, "# EOF".  gzip, when the
 * client accepts it, is made once per snapshot and format (the tail is
 * compressed per request and spliced in).
 *
 * Slots: at most HTTP_MAX_CONN connections are served, HTTP_PER_IP from
 * one address.  A connection has HTTP_HEADER_DEADLINE seconds from its
 * accept (or from the end of its previous response) to deliver a
 * request's headers, however slowly the bytes come; after that it is
 * shut down.  When all slots are taken, a new connection takes the slot
 * of the oldest one still waiting for headers, or of the oldest one older
 * than HTTP_EVICT_AGE: slow and idle clients cannot keep a scrape out.
 * Each connection has HTTP_CONN_MEMORY bytes for its request (larger
 * headers get 431).
 *
 * CPU: the HTTP thread is not billed to --cpu (util.h, now_cpu), and a
 * slow or stalled client never holds up the scanner or a publish.
 */
#ifndef IDLETOP_HTTP_H
#define IDLETOP_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define HTTP_MAX_CONN		64
#define HTTP_PER_IP		16
#define HTTP_HEADER_DEADLINE	5.0	/* seconds */
#define HTTP_EVICT_AGE		1.0	/* seconds */
#define HTTP_IDLE_TIMEOUT	10	/* seconds without any progress */
#define HTTP_CONN_MEMORY	(16 * 1024)

struct http;

/* One publish: the expositions (taken over, freed by http) and health. */
struct http_pub {
	char *prom, *om;	/* metrics_render() output, "# EOF" and all */
	size_t prom_len, om_len;
	uint64_t cycle;		/* the report's cycle; 0: none yet */
	double next_within;	/* seconds until /healthz calls it stale */
};

/*
 * "[ADDR:]PORT": a numeric IPv4 address, or an IPv6 one in brackets;
 * 127.0.0.1 when ADDR is left out (":PORT" too); PORT 0 is any free
 * port (http_address() says which). 0, or -1 with why.
 */
int http_parse_listen(const char *s, struct sockaddr_storage *ss,
		      socklen_t *len, char *err, size_t errlen);
/* Bind and listen, start the server thread. NULL with why (e.g. in use). */
struct http *http_start(const char *listen, char *err, size_t errlen);
/*
 * Serve this snapshot from now on.  On a NULL exposition (out of memory)
 * nothing changes and -1 is returned; the buffers are freed either way.
 */
int http_publish(struct http *h, struct http_pub *p);
/*
 * A runtime error of the scanner: counted (idletop_scan_errors_total),
 * and named by /healthz until the next publish of a report.
 */
void http_error(struct http *h, const char *msg);
/* The address it listens on, "127.0.0.1:9410", "[::1]:9410". */
const char *http_address(const struct http *h);
void http_stop(struct http *h);

/*
 * Content negotiation (http_accept.c), RFC 9110: the format an Accept
 * field asks for, MF_PROMETHEUS or MF_OPENMETRICS, with *ctype its
 * Content-Type; -1 when neither is acceptable (406).  Media ranges are
 * case-insensitive; the highest q wins, q=0 excludes, and for each
 * format the most specific range that names it decides its q.  The
 * Prometheus text format is version 0.0.4, OpenMetrics 1.0.0 or 0.0.1;
 * a range with another version does not name it.  A tie goes to the
 * more specific range, then the one listed first, then the text format;
 * no Accept (or an empty one) means the text format.
 */
int http_negotiate(const char *accept, const char **ctype);
/* 1 when an Accept-Encoding field allows gzip (or x-gzip, or *). */
int http_gzip_ok(const char *accept_encoding);

#endif
