/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http.h - the exporter (--listen): libmicrohttpd serves, from its own
 * thread, the metrics of the latest completed cycle at /metrics
 * (OpenMetrics when the Accept header asks for it, else the Prometheus
 * text format), an index page at /, 404 elsewhere, 405 for a method
 * other than GET or HEAD.  The scanner renders both formats once per
 * cycle and swaps them in under a mutex (http_publish); a request copies
 * the buffer it needs under that mutex and is then served by libmicrohttpd
 * alone, so a slow or stalled client never holds up the scanner.
 */
#ifndef IDLETOP_HTTP_H
#define IDLETOP_HTTP_H

#include <stddef.h>
#include <sys/socket.h>

struct http;

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
 * Serve these expositions from now on (the buffers are taken over and
 * freed by http; NULL, NULL: keep the old ones).
 */
void http_publish(struct http *h, char *prom, size_t prom_len, char *om,
		  size_t om_len);
/* The address it listens on, "127.0.0.1:9410", "[::1]:9410". */
const char *http_address(const struct http *h);
void http_stop(struct http *h);

#endif
