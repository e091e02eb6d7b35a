/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http_int.h - the exporter's parts, inside http*.c only: the server
 * (http.c), the snapshots and response bodies (http_body.c), the
 * connection slots (http_slots.c).  One lock, h->lock, guards all the
 * shared state below; libmicrohttpd calls back from a single thread (no
 * thread pool), which alone fills in a snapshot's gzip form.
 */
#ifndef IDLETOP_HTTP_INT_H
#define IDLETOP_HTTP_INT_H

#include <arpa/inet.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "http.h"

#define HTTP_SPARE_CONN 16	/* slots for evicted connections to close in */
#define HTTP_SLOTS (HTTP_MAX_CONN + HTTP_SPARE_CONN)

/* One publish, immutable once made (but for its gzip form). */
struct snap {
	atomic_int refs;
	char *body[2];		/* MF_PROMETHEUS, MF_OPENMETRICS; no "# EOF" */
	size_t len[2];
	unsigned char *gz[2];	/* raw deflate, flushed, no final block */
	size_t gz_len[2];
	unsigned long crc[2];	/* CRC-32 of body[f] */
	uint64_t cycle;
	double published, next_within;	/* monotonic, seconds */
};

/* A connection: how long it may still wait for a request's headers. */
struct slot {
	struct MHD_Connection *c;	/* NULL: free */
	int fd;
	double since;		/* accept, or the end of its last response */
	int waiting;		/* for a request's headers */
	int shut;		/* shut down by us, closing */
};

struct http {
	struct MHD_Daemon *d;
	pthread_mutex_t lock;
	struct snap *snap;
	uint64_t errors;		/* http_error() calls */
	char err[256];			/* the last one, "" after a report */
	uint64_t closed_slow;		/* connections shut for being slow */
	struct slot slot[HTTP_SLOTS];
	unsigned used, shut;
	pthread_t watchdog;
	pthread_cond_t wake;
	int watchdog_on, stopping;
	char addr[INET6_ADDRSTRLEN + 8];
};

/* http_body.c */
struct snap *snap_new(struct http_pub *p);
/* The current snapshot with a reference taken (NULL: none). */
struct snap *snap_get(struct http *h);
void snap_put(struct snap *s);
/*
 * The response for /metrics in format f (gzip'ed when gzip): the
 * snapshot's body and the tail, without copying the body.  Takes over
 * the reference on s.  NULL when out of memory.
 */
struct MHD_Response *body_response(struct http *h, struct snap *s, int f,
				   int gzip);

/* http_slots.c */
int slots_init(struct http *h);		/* starts the watchdog thread */
void slots_stop(struct http *h);
enum MHD_Result slots_accept(void *cls, const struct sockaddr *addr,
			     socklen_t len);
void slots_notify(void *cls, struct MHD_Connection *c, void **ctx,
		  enum MHD_ConnectionNotificationCode what);
void slots_completed(void *cls, struct MHD_Connection *c, void **state,
		     enum MHD_RequestTerminationCode toe);
/* The connection's request headers are in. */
void slots_busy(struct http *h, struct MHD_Connection *c);

#endif
