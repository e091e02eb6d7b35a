/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - a small mutation fuzzer for idletop's parsers (fuzz.c) and
 * its targets (fuzz_targets.c).  Built with the sanitizers, a crash, an
 * out-of-bounds access, a leak or undefined behaviour ends the run with
 * the sanitizer's report and the input that caused it.
 */
#ifndef IDLETOP_FUZZ_H
#define IDLETOP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

struct fuzz_target {
	const char *name;
	/* One input: data[len] is NUL, data has no NUL before it unless
	 * binary is set.  Returns 0, or -1 when an invariant failed. */
	int (*run)(const char *data, size_t len);
	const char *const *seeds;	/* NULL-terminated */
	int binary;			/* inputs may hold NULs */
	unsigned cost;		/* share of the time (1: a parser) */
};

extern const struct fuzz_target fuzz_targets[];
extern const size_t fuzz_ntargets;
/* Set up / tear down what the file-based targets need (a temp root). */
int fuzz_setup(void);
void fuzz_teardown(void);
/* A deterministic random number (xorshift64*), for targets too. */
uint64_t fuzz_rand(void);

#endif
