/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mglru.h - the multi-gen LRU's debugfs file, an approximate idle source
 * for kernels without idle page tracking (docs/mglru.md, "The mglru
 * source").  /sys/kernel/debug/lru_gen (mm/vmscan.c, lru_gen_seq_show()
 * of 6.1) lists, per memory cgroup and node (a lruvec), each generation
 * from the oldest to the youngest:
 *
 *	memcg  ID PATH			(first memory node only)
 *	 node  NID
 *	 SEQ  AGE_MS  NR_ANON  NR_FILE	(one line per generation)
 *
 * PATH is the cgroup's path from the root of the hierarchy; a name with
 * a newline in it continues on the lines before " node".  Writing
 * "+ ID NID MAX_SEQ CAN_SWAP FORCE_SCAN" runs one aging step of that
 * lruvec (a new youngest generation; accessed pages move into it).
 *
 * The parser takes the file in pieces of any size and calls back once
 * per lruvec; it keeps one line (MGLRU_LINE_MAX) and one lruvec.
 */
#ifndef IDLETOP_MGLRU_H
#define IDLETOP_MGLRU_H

#include <stddef.h>
#include <stdint.h>

#define MGLRU_GEN_PATH		"sys/kernel/debug/lru_gen"
#define MGLRU_ENABLED_PATH	"sys/kernel/mm/lru_gen/enabled"
/* "memcg ID " and a path of PATH_MAX bytes, with room to spare */
#define MGLRU_LINE_MAX		4400
/* generations per lruvec: MAX_NR_GENS is 4; more is a malformed file */
#define MGLRU_GENS_MAX		4

struct mglru_gen {
	uint64_t seq;		/* the generation's sequence number */
	uint64_t age_ms;	/* ms since the aging step that made it */
	uint64_t anon, file;	/* pages */
};

struct mglru_lruvec {
	unsigned id;		/* memcg ID (the aging command's) */
	const char *path;	/* "/" the root, "" without memcg */
	int node;
	unsigned n;		/* generations, oldest first (seq ascending) */
	struct mglru_gen gen[MGLRU_GENS_MAX];
};

/* Called once per lruvec: 0, or -1 with a message in err (stops). */
typedef int mglru_fn(void *ctx, const struct mglru_lruvec *v, char *err,
		     size_t errlen);

struct mglru_parser {
	const char *name;	/* the file, for messages */
	mglru_fn *fn;
	void *ctx;
	unsigned long lineno;	/* lines completed */
	size_t len;		/* bytes in line */
	int state;		/* where in the grammar (mglru.c) */
	unsigned id;
	size_t path_len;
	struct mglru_lruvec cur;
	char line[MGLRU_LINE_MAX];
	char path[MGLRU_LINE_MAX];
};

void mglru_parse_init(struct mglru_parser *p, const char *name,
		      mglru_fn *fn, void *ctx);
/*
 * The next n bytes of the file.  0, or -1 with "NAME:LINE: what" in err
 * (a malformed line, or the callback's error): stop there.
 */
int mglru_parse(struct mglru_parser *p, const char *buf, size_t n,
		char *err, size_t errlen);
/* End of file: the last lruvec.  0, or -1 with err (truncated file). */
int mglru_parse_end(struct mglru_parser *p, char *err, size_t errlen);

/*
 * 1 when the multi-gen LRU is on (bit 0x0001 of lru_gen/enabled) and
 * its debugfs file exists, under root; 0 otherwise.
 */
int mglru_available(const char *root);
/*
 * One aging step of a lruvec, through fd (the debugfs file opened for
 * writing): "+ ID NID SEQ 1 1", anon pages too (can_swap) and every page
 * table walked (force_scan).  0; -1 with errno (EINVAL: the memcg is
 * gone, or seq is no longer the youngest's).
 */
int mglru_age(int fd, unsigned id, int node, uint64_t seq);

#endif
