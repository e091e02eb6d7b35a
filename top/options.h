/* SPDX-License-Identifier: GPL-2.0 */
/* options.h - command line: one getopt_long parser */
#ifndef IDLETOP_OPTIONS_H
#define IDLETOP_OPTIONS_H

#include <stdint.h>
#include <stdio.h>
#include "config.h"

#define OPT_OK		0
#define OPT_EXIT	1	/* --help/--version printed: exit 0 */
#define OPT_USAGE	2	/* bad usage, message printed: exit 2 */

/* --idle-buckets when not given */
extern const struct idle_tbuckets idle_tbuckets_default;

void options_default(struct config *c);
int options_parse(struct config *c, int argc, char **argv, FILE *out,
		  FILE *err);
/* Strict number parsing: the whole string, finite, within [min, max]. */
int parse_num(const char *s, double min, double max, double *v);
/* "60,2m,1h": ascending seconds (suffix s, m, h, d), 1..16 of them. */
int parse_buckets(const char *s, struct idle_tbuckets *tb);
/* Bytes with an optional binary suffix K, M, G, T ("512M"). */
int parse_size(const char *s, uint64_t *v);

#endif
