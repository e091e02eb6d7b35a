// SPDX-License-Identifier: GPL-2.0
/* http.c - the exporter's HTTP side, on libmicrohttpd (http.h) */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "http_int.h"
#include "metrics.h"
#include "util.h"
#include "version.h"

static const char index_page[] =
"<!DOCTYPE html>\n<html><head><title>idletop exporter</title></head>\n"
"<body><h1>idletop " IDLETOP_VERSION "</h1>\n"
"<p>Per-cgroup resident and idle memory: "
"<a href=\"/metrics\">/metrics</a> (Prometheus text format; OpenMetrics "
"when the Accept header asks for it), "
"<a href=\"/healthz\">/healthz</a> (200 when a fresh report is served, "
"else 503 with the reason). The metrics are described in "
"idletop(1).</p>\n</body></html>\n";

static int port_of(const char *s, in_port_t *port)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0 || v > 65535)
		return -1;
	*port = htons((in_port_t)v);
	return 0;
}

int http_parse_listen(const char *s, struct sockaddr_storage *ss,
		      socklen_t *len, char *err, size_t errlen)
{
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
	const char *colon = strrchr(s, ':'), *ps = colon ? colon + 1 : s;
	char host[INET6_ADDRSTRLEN + 2];
	size_t hl = colon ? (size_t)(colon - s) : 0;
	in_port_t port;

	memset(ss, 0, sizeof(*ss));
	if (port_of(ps, &port)) {
		snprintf(err, errlen, "invalid --listen '%s': expected "
			 "[ADDRESS:]PORT, PORT 0..65535 (0: any free one)", s);
		return -1;
	}
	if (hl >= sizeof(host))
		goto bad;
	memcpy(host, s, hl);
	host[hl] = 0;
	if (hl > 2 && host[0] == '[' && host[hl - 1] == ']') {
		host[hl - 1] = 0;
		if (inet_pton(AF_INET6, host + 1, &v6->sin6_addr) != 1)
			goto bad;
		v6->sin6_family = AF_INET6;
		v6->sin6_port = port;
		*len = sizeof(*v6);
		return 0;
	}
	if (inet_pton(AF_INET, hl ? host : "127.0.0.1", &v4->sin_addr) != 1)
		goto bad;
	v4->sin_family = AF_INET;
	v4->sin_port = port;
	*len = sizeof(*v4);
	return 0;
bad:
	snprintf(err, errlen, "invalid --listen '%s': the address must be "
		 "a numeric IPv4 address or an IPv6 one in brackets "
		 "([::1]:PORT)", s);
	return -1;
}

/* "127.0.0.1:9410", "[::1]:9410": where fd listens (port 0: the one given) */
static void name_of(int fd, struct http *h)
{
	union {
		struct sockaddr sa;
		struct sockaddr_in v4;
		struct sockaddr_in6 v6;
	} u;
	socklen_t len = sizeof(u);
	char host[INET6_ADDRSTRLEN] = "?";

	memset(&u, 0, sizeof(u));
	if (getsockname(fd, &u.sa, &len)) {
		snprintf(h->addr, sizeof(h->addr), "?");
		return;
	}
	if (u.sa.sa_family == AF_INET6) {
		inet_ntop(AF_INET6, &u.v6.sin6_addr, host, sizeof(host));
		snprintf(h->addr, sizeof(h->addr), "[%s]:%d", host,
			 ntohs(u.v6.sin6_port));
	} else {
		inet_ntop(AF_INET, &u.v4.sin_addr, host, sizeof(host));
		snprintf(h->addr, sizeof(h->addr), "%s:%d", host,
			 ntohs(u.v4.sin_port));
	}
}

static int open_socket(const char *listen_s, struct http *h, char *err,
		       size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, one = 1;

	if (http_parse_listen(listen_s, &ss, &len, err, errlen))
		return -1;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "--listen %s: socket: %s", listen_s,
			 strerror(errno));
		return -1;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 64)) {
		snprintf(err, errlen, "--listen %s: %s%s", listen_s,
			 strerror(errno), errno == EADDRINUSE ?
			 " (another process listens on that port)" : "");
		close(fd);
		return -1;
	}
	name_of(fd, h);
	return fd;
}

static enum MHD_Result queue(struct MHD_Connection *c, unsigned status,
			     struct MHD_Response *r)
{
	enum MHD_Result rc;

	if (!r)
		return MHD_NO;
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status,
			     const char *type, const char *msg,
			     enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(msg),
							(void *)msg, mode);

	if (r)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	return queue(c, status, r);
}

static enum MHD_Result text(struct MHD_Connection *c, unsigned status,
			    const char *msg)
{
	return reply(c, status, "text/plain; charset=utf-8", msg,
		     MHD_RESPMEM_PERSISTENT);
}

static const char *header(struct MHD_Connection *c, const char *name)
{
	return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

/* The snapshot, shared, in the format and encoding the client accepts. */
static enum MHD_Result serve_metrics(struct http *h,
				     struct MHD_Connection *c)
{
	const char *ctype;
	int f = http_negotiate(header(c, MHD_HTTP_HEADER_ACCEPT), &ctype);
	int gz = http_gzip_ok(header(c, MHD_HTTP_HEADER_ACCEPT_ENCODING));
	struct MHD_Response *r;
	struct snap *s;

	if (f < 0)
		return text(c, MHD_HTTP_NOT_ACCEPTABLE, "not acceptable: "
			    "/metrics is " METRICS_CT_PROMETHEUS " or "
			    METRICS_CT_OPENMETRICS " (or version=0.0.1)\n");
	s = snap_get(h);
	if (!s)
		return text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
			    "no metrics yet\n");
	r = body_response(h, s, f, gz);
	if (!r)
		return text(c, MHD_HTTP_INTERNAL_SERVER_ERROR,
			    "out of memory\n");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY,
				"Accept, Accept-Encoding");
	if (gz)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING,
					"gzip");
	return queue(c, MHD_HTTP_OK, r);
}

/*
 * /healthz: 200 while the report served is younger than the publish
 * said (next_within), 503 before the first report and when stale; the
 * body says which, with the last error since the last report.
 */
static enum MHD_Result serve_health(struct http *h, struct MHD_Connection *c)
{
	char msg[512], err[sizeof(h->err)];
	struct snap *s = snap_get(h);
	double age = s ? now_mono() - s->published : 0;
	int ok = s && s->cycle && age <= s->next_within;

	pthread_mutex_lock(&h->lock);
	snprintf(err, sizeof(err), "%s", h->err);
	pthread_mutex_unlock(&h->lock);
	if (!s || !s->cycle)
		snprintf(msg, sizeof(msg), "not ready: no cycle completed yet "
			 "(the first report comes two periods after start)");
	else
		snprintf(msg, sizeof(msg), "%s: the report of cycle %llu is "
			 "%.0f s old (%s %.0f s)", ok ? "ok" : "stale",
			 (unsigned long long)s->cycle, age,
			 ok ? "the next is due within" :
			 "the next was due within", s->next_within);
	snap_put(s);
	if (*err)
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
			 "; last error: %s", err);
	strncat(msg, "\n", sizeof(msg) - strlen(msg) - 1);
	return reply(c, ok ? MHD_HTTP_OK : MHD_HTTP_SERVICE_UNAVAILABLE,
		     "text/plain; charset=utf-8", msg, MHD_RESPMEM_MUST_COPY);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *data,
				  size_t *data_len, void **state)
{
	static int headers_in;

	(void)version;
	(void)data;
	/*
	 * The first call comes with the headers; answering only at the
	 * second, once the request is whole, keeps the connection alive.
	 */
	if (!*state) {
		*state = &headers_in;
		slots_busy(cls, c);
		return MHD_YES;
	}
	if (*data_len) {	/* a body: not for us, dropped */
		*data_len = 0;
		return MHD_YES;
	}
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			    "method not allowed: GET or HEAD\n");
	if (!strcmp(url, "/metrics"))
		return serve_metrics(cls, c);
	if (!strcmp(url, "/healthz"))
		return serve_health(cls, c);
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8",
			     index_page, MHD_RESPMEM_PERSISTENT);
	return text(c, MHD_HTTP_NOT_FOUND,
		    "not found: see /, /metrics and /healthz\n");
}

static void http_free(struct http *h)
{
	slots_stop(h);
	snap_put(h->snap);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

static struct MHD_Daemon *daemon_start(struct http *h, int fd)
{
	sigset_t all, old;
	struct MHD_Daemon *d;

	/* signals are the main thread's (main.c), never the server's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	d = MHD_start_daemon(MHD_USE_AUTO | MHD_USE_INTERNAL_POLLING_THREAD,
			     0, slots_accept, h, on_request, h,
			     MHD_OPTION_LISTEN_SOCKET, fd,
			     MHD_OPTION_CONNECTION_TIMEOUT,
			     (unsigned)HTTP_IDLE_TIMEOUT,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned)HTTP_SLOTS,
			     MHD_OPTION_PER_IP_CONNECTION_LIMIT,
			     (unsigned)HTTP_PER_IP,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT,
			     (size_t)HTTP_CONN_MEMORY,
			     MHD_OPTION_NOTIFY_CONNECTION, slots_notify, h,
			     MHD_OPTION_NOTIFY_COMPLETED, slots_completed, h,
			     MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return d;
}

struct http *http_start(const char *listen_s, char *err, size_t errlen)
{
	struct http *h = calloc(1, sizeof(*h));
	int fd;

	if (!h || pthread_mutex_init(&h->lock, NULL)) {
		free(h);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	fd = open_socket(listen_s, h, err, errlen);
	if (fd < 0) {
		http_free(h);
		return NULL;
	}
	if (slots_init(h)) {
		snprintf(err, errlen, "--listen %s: cannot start a thread",
			 listen_s);
		close(fd);
		http_free(h);
		return NULL;
	}
	h->d = daemon_start(h, fd);
	if (!h->d) {
		/*
		 * Not closed here: libmicrohttpd 0.9.75 closes fd on its
		 * failure paths once it has taken it (daemon.c), and a second
		 * close could hit a descriptor reused meanwhile; an early
		 * failure leaks it, and idletop exits.
		 */
		snprintf(err, errlen, "--listen %s: cannot start the HTTP "
			 "server (libmicrohttpd)", listen_s);
		http_free(h);
		return NULL;
	}
	return h;
}

int http_publish(struct http *h, struct http_pub *p)
{
	struct snap *s = snap_new(p), *old;

	if (!s)
		return -1;
	pthread_mutex_lock(&h->lock);
	old = h->snap;
	h->snap = s;
	if (s->cycle)
		h->err[0] = 0;
	pthread_mutex_unlock(&h->lock);
	snap_put(old);
	return 0;
}

void http_error(struct http *h, const char *msg)
{
	pthread_mutex_lock(&h->lock);
	h->errors++;
	snprintf(h->err, sizeof(h->err), "%s", msg);
	pthread_mutex_unlock(&h->lock);
}

const char *http_address(const struct http *h)
{
	return h->addr;
}

void http_stop(struct http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->d);
	http_free(h);
}
