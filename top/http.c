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
#include "http.h"
#include "metrics.h"
#include "version.h"

#define HTTP_TIMEOUT 10		/* seconds a connection may stall */
#define HTTP_MAX_CONN 32

struct http {
	struct MHD_Daemon *d;
	pthread_mutex_t lock;
	char *buf[2];		/* MF_PROMETHEUS, MF_OPENMETRICS */
	size_t len[2];
	char addr[INET6_ADDRSTRLEN + 8];
};

static const char index_page[] =
"<!DOCTYPE html>\n<html><head><title>idletop exporter</title></head>\n"
"<body><h1>idletop " IDLETOP_VERSION "</h1>\n"
"<p>Per-cgroup resident and idle memory: "
"<a href=\"/metrics\">/metrics</a> (Prometheus text format; OpenMetrics "
"when the Accept header asks for it). The metrics are described in "
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

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status,
			     const char *type, void *buf, size_t len,
			     enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, buf,
								 mode);
	enum MHD_Result rc;

	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(buf);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

static enum MHD_Result text(struct MHD_Connection *c, unsigned status,
			    const char *msg)
{
	return reply(c, status, "text/plain; charset=utf-8", (void *)msg,
		     strlen(msg), MHD_RESPMEM_PERSISTENT);
}

/* A copy of the exposition asked for, taken under the lock. */
static enum MHD_Result metrics(struct http *h, struct MHD_Connection *c)
{
	const char *acc = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						      "Accept");
	int f = acc && strstr(acc, "application/openmetrics-text") ?
		MF_OPENMETRICS : MF_PROMETHEUS;
	size_t len;
	char *copy;

	pthread_mutex_lock(&h->lock);
	len = h->len[f];
	copy = malloc(len ? len : 1);
	if (copy)
		memcpy(copy, h->buf[f], len);
	pthread_mutex_unlock(&h->lock);
	if (!copy)
		return text(c, MHD_HTTP_INTERNAL_SERVER_ERROR,
			    "out of memory\n");
	return reply(c, MHD_HTTP_OK, f == MF_OPENMETRICS ?
		     METRICS_CT_OPENMETRICS : METRICS_CT_PROMETHEUS, copy,
		     len, MHD_RESPMEM_MUST_FREE);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *data,
				  size_t *data_len, void **state)
{
	(void)version;
	(void)data;
	(void)data_len;
	(void)state;
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			    "method not allowed: GET or HEAD\n");
	if (!strcmp(url, "/metrics"))
		return metrics(cls, c);
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8",
			     (void *)index_page, sizeof(index_page) - 1,
			     MHD_RESPMEM_PERSISTENT);
	return text(c, MHD_HTTP_NOT_FOUND, "not found: see / and /metrics\n");
}

static void http_free(struct http *h)
{
	free(h->buf[0]);
	free(h->buf[1]);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

struct http *http_start(const char *listen_s, char *err, size_t errlen)
{
	struct http *h = calloc(1, sizeof(*h));
	sigset_t all, old;
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
	/* signals are the main thread's (main.c), never the server's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	h->d = MHD_start_daemon(MHD_USE_AUTO | MHD_USE_INTERNAL_POLLING_THREAD,
				0, NULL, NULL, on_request, h,
				MHD_OPTION_LISTEN_SOCKET, fd,
				MHD_OPTION_CONNECTION_TIMEOUT,
				(unsigned)HTTP_TIMEOUT,
				MHD_OPTION_CONNECTION_LIMIT,
				(unsigned)HTTP_MAX_CONN, MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->d) {
		snprintf(err, errlen, "--listen %s: cannot start the HTTP "
			 "server (libmicrohttpd)", listen_s);
		close(fd);
		http_free(h);
		return NULL;
	}
	return h;
}

void http_publish(struct http *h, char *prom, size_t prom_len, char *om,
		  size_t om_len)
{
	char *old[2];

	if (!prom || !om) {
		free(prom);
		free(om);
		return;
	}
	pthread_mutex_lock(&h->lock);
	old[0] = h->buf[0];
	old[1] = h->buf[1];
	h->buf[0] = prom;
	h->len[0] = prom_len;
	h->buf[1] = om;
	h->len[1] = om_len;
	pthread_mutex_unlock(&h->lock);
	free(old[0]);
	free(old[1]);
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
