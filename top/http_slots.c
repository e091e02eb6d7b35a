// SPDX-License-Identifier: GPL-2.0
/*
 * http_slots.c - connection slots (http.h): a deadline for the request
 * headers, kept by a watchdog thread, and eviction when all are taken.
 * A slow connection is shutdown(2), never closed: libmicrohttpd sees the
 * end of its stream, closes it and tells slots_notify(), which frees the
 * slot before the descriptor is closed (so it is never one reused).
 */
#include <errno.h>
#include <time.h>
#include "http_int.h"
#include "util.h"

#define WATCH_MS 200	/* how often the watchdog looks */

static struct slot *slot_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c,
					MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/* With h->lock held. */
static void shut(struct http *h, struct slot *s)
{
	shutdown(s->fd, SHUT_RDWR);
	s->shut = 1;
	h->shut++;
	h->closed_slow++;
}

/*
 * With h->lock held: the slot a new connection takes over, the oldest
 * waiting for headers, else the oldest older than HTTP_EVICT_AGE.
 */
static struct slot *victim(struct http *h, double now)
{
	struct slot *best = NULL, *s;
	int pass;

	for (pass = 0; pass < 2 && !best; pass++)
		for (s = h->slot; s < h->slot + HTTP_SLOTS; s++)
			if (s->c && !s->shut && (pass || s->waiting) &&
			    (!best || s->since < best->since))
				best = s;
	if (best && !best->waiting && now - best->since < HTTP_EVICT_AGE)
		return NULL;
	return best;
}

enum MHD_Result slots_accept(void *cls, const struct sockaddr *addr,
			     socklen_t len)
{
	struct http *h = cls;
	struct slot *s = NULL;
	int ok = 1;

	(void)addr;
	(void)len;
	pthread_mutex_lock(&h->lock);
	if (h->used - h->shut >= HTTP_MAX_CONN) {
		s = victim(h, now_mono());
		if (s)
			shut(h, s);
		ok = s != NULL;
	}
	pthread_mutex_unlock(&h->lock);
	return ok ? MHD_YES : MHD_NO;
}

static void slot_take(struct http *h, struct MHD_Connection *c, void **ctx)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c,
					MHD_CONNECTION_INFO_CONNECTION_FD);
	struct slot *s;

	*ctx = NULL;
	if (!ci)
		return;
	for (s = h->slot; s < h->slot + HTTP_SLOTS; s++)
		if (!s->c) {
			*s = (struct slot){ .c = c, .fd = ci->connect_fd,
					    .since = now_mono(),
					    .waiting = 1 };
			h->used++;
			*ctx = s;
			return;
		}
}

void slots_notify(void *cls, struct MHD_Connection *c, void **ctx,
		  enum MHD_ConnectionNotificationCode what)
{
	struct http *h = cls;
	struct slot *s = *ctx;

	pthread_mutex_lock(&h->lock);
	if (what == MHD_CONNECTION_NOTIFY_STARTED) {
		slot_take(h, c, ctx);
	} else if (s) {
		h->used--;
		h->shut -= s->shut;
		s->c = NULL;
		*ctx = NULL;
	}
	pthread_mutex_unlock(&h->lock);
}

void slots_busy(struct http *h, struct MHD_Connection *c)
{
	struct slot *s = slot_of(c);

	if (!s)
		return;
	pthread_mutex_lock(&h->lock);
	s->waiting = 0;
	pthread_mutex_unlock(&h->lock);
}

/* A response is done: the connection may wait for the next request. */
void slots_completed(void *cls, struct MHD_Connection *c, void **state,
		     enum MHD_RequestTerminationCode toe)
{
	struct http *h = cls;
	struct slot *s = slot_of(c);

	(void)state;
	(void)toe;
	if (!s)
		return;
	pthread_mutex_lock(&h->lock);
	s->waiting = 1;
	s->since = now_mono();
	pthread_mutex_unlock(&h->lock);
}

static void *watch(void *arg)
{
	struct http *h = arg;
	struct timespec ts;
	struct slot *s;
	double now;

	pthread_mutex_lock(&h->lock);
	while (!h->stopping) {
		now = now_mono();
		for (s = h->slot; s < h->slot + HTTP_SLOTS; s++)
			if (s->c && s->waiting && !s->shut &&
			    now - s->since > HTTP_HEADER_DEADLINE)
				shut(h, s);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += WATCH_MS * 1000000L;
		ts.tv_sec += ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		pthread_cond_timedwait(&h->wake, &h->lock, &ts);
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

int slots_init(struct http *h)
{
	pthread_condattr_t a;
	int rc;

	if (pthread_condattr_init(&a))
		return -1;
	rc = pthread_condattr_setclock(&a, CLOCK_MONOTONIC) ||
	     pthread_cond_init(&h->wake, &a);
	pthread_condattr_destroy(&a);
	if (rc)
		return -1;
	if (pthread_create(&h->watchdog, NULL, watch, h)) {
		pthread_cond_destroy(&h->wake);
		return -1;
	}
	h->watchdog_on = 1;
	return 0;
}

void slots_stop(struct http *h)
{
	if (!h->watchdog_on)
		return;
	pthread_mutex_lock(&h->lock);
	h->stopping = 1;
	pthread_cond_signal(&h->wake);
	pthread_mutex_unlock(&h->lock);
	pthread_join(h->watchdog, NULL);
	pthread_cond_destroy(&h->wake);
	h->watchdog_on = 0;
}
