// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz.c - a deterministic mutation fuzzer for every file idletop parses
 * (targets in fuzz_targets.c).  Each input is a random stack of edits of
 * a seed (bit flips, random bytes, inserts, deletes, repeats, tokens from
 * a dictionary of the formats, numbers at the edges of their types,
 * splices of two seeds), in a heap buffer of exactly its size, so that
 * AddressSanitizer sees a read one byte past the end.
 *
 *   fuzz [-s SEED] [-t SECONDS] [-n INPUTS] [TARGET...]
 *	every target (or those named) for an equal share of SECONDS (10)
 *	or INPUTS each (default unlimited), whichever ends first; the same
 *	SEED (1) gives the same inputs in the same order
 *   fuzz -r FILE TARGET	one input from FILE, to replay a finding
 *
 * A sanitizer report (the suite builds this with ASan and UBSan, exiting
 * on the first) prints the target and the input that caused it.  Prints
 * one line per target and "N passed, N failed".  Built with
 * -DFUZZ_LIBFUZZER (`make libfuzzer`, clang) the same targets run under
 * libFuzzer instead, coverage-guided, for long runs by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "fixture.h"
#include "fuzz.h"
#include "util.h"

#define MAX_LEN 8192

static uint64_t rng = 1;
static const char *cur_target;
static const char *cur_data;
static size_t cur_len;

uint64_t fuzz_rand(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static void dump(const char *what, const char *data, size_t len)
{
	size_t i;

	fprintf(stderr, "fuzz: %s: input of %zu bytes: \"", what, len);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)data[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			fputc(c, stderr);
		else
			fprintf(stderr, "\\x%02x", c);
	}
	fprintf(stderr, "\"\n");
}

/* Weak: only there when built with a sanitizer. */
void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static void on_death(void)
{
	if (cur_target)
		dump(cur_target, cur_data, cur_len);
}

/* One input in a buffer of exactly len + 1 bytes. */
static int run_one(const struct fuzz_target *t, const char *src, size_t len)
{
	char *d;
	int rc;

	if (!t->binary)
		len = strnlen(src, len);
	d = malloc(len + 1);
	if (!d)
		return -1;
	memcpy(d, src, len);
	d[len] = '\0';
	cur_target = t->name;
	cur_data = d;
	cur_len = len;
	rc = t->run(d, len);
	if (rc)
		dump(t->name, d, len);
	cur_target = NULL;
	free(d);
	return rc;
}

#ifdef FUZZ_LIBFUZZER
/*
 * libFuzzer (clang -fsanitize=fuzzer, `make libfuzzer`): coverage-guided,
 * for long runs by hand.  FUZZ_TARGET names the target; with
 * FUZZ_SEEDS=DIR its seeds are written to DIR first (DIR/seed-N), so
 * that `FUZZ_SEEDS=c FUZZ_TARGET=mountinfo libfuzz c` starts from them.
 */
static const struct fuzz_target *lf_target;

static void write_seeds(const char *dir)
{
	char name[32];
	size_t i;

	for (i = 0; lf_target->seeds[i]; i++) {
		snprintf(name, sizeof(name), "seed-%zu", i);
		if (fx_write(dir, name, lf_target->seeds[i]))
			perror(dir);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *name = getenv("FUZZ_TARGET"), *seeds = getenv("FUZZ_SEEDS");
	size_t i;

	(void)argc;
	(void)argv;
	for (i = 0; name && i < fuzz_ntargets; i++)
		if (!strcmp(fuzz_targets[i].name, name))
			lf_target = &fuzz_targets[i];
	if (!lf_target || fuzz_setup()) {
		fprintf(stderr, "fuzz: set FUZZ_TARGET to one of:");
		for (i = 0; i < fuzz_ntargets; i++)
			fprintf(stderr, " %s", fuzz_targets[i].name);
		fprintf(stderr, "\n");
		exit(2);
	}
	if (seeds)
		write_seeds(seeds);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(on_death);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	if (run_one(lf_target, (const char *)data, len))
		abort();	/* an invariant failed: a finding */
	return 0;
}
#else

static size_t below(size_t n)
{
	return n ? (size_t)(fuzz_rand() % n) : 0;
}

static const char *const dict[] = {
	"\n", " ", "\t", "-", "/", "\\", "max", "max\n", "0", "1", "-1",
	"4096", "18446744073709551615", "18446744073709551616",
	"99999999999999999999999999999", "1e309", "nan", "inf", "-0", "0x10",
	"avg10=", " avg60=", " avg300=", " total=", "some ", "full ",
	" - ", "cgroup2", "cgroup", "\\040", "\\134", "\\777", "\\0",
	"Name:\t", "\nVmRSS:", " kB", "\nVmRSS:\t 1 kB\n", "anon ", "file ",
	"shmem ", "anon_thp ", "inactive_file ", "low ", "high ", "oom_kill ",
	"\xff", "\xc3\xa9", "\xe2\x80\xae", "%s", "%n",
};

/* Edits in place: buf has room for MAX_LEN bytes; returns the length. */
static size_t edit(char *buf, size_t len, const struct fuzz_target *t)
{
	const char *tok, *other;
	size_t pos = below(len + 1), n, tl;

	switch (below(10)) {
	case 0:
		if (len)
			buf[below(len)] ^= (char)(1 << below(8));
		break;
	case 1:
		if (len)
			buf[below(len)] = (char)fuzz_rand();
		break;
	case 2:
		if (len < MAX_LEN) {
			memmove(buf + pos + 1, buf + pos, len - pos);
			buf[pos] = (char)fuzz_rand();
			len++;
		}
		break;
	case 3:
		n = below(len - pos + 1) % 64;
		memmove(buf + pos, buf + pos + n, len - pos - n);
		len -= n;
		break;
	case 4:	/* repeat a piece */
		n = below(len - pos + 1) % 256;
		if (len + n <= MAX_LEN) {
			memmove(buf + pos + n, buf + pos, len - pos);
			len += n;
		}
		break;
	case 5: case 6:
		tok = dict[below(sizeof(dict) / sizeof(*dict))];
		tl = strlen(tok);
		if (len + tl > MAX_LEN)
			break;
		memmove(buf + pos + tl, buf + pos, len - pos);
		memcpy(buf + pos, tok, tl);
		len += tl;
		break;
	case 7:
		len = pos;
		break;
	default:	/* the tail of another seed from here */
		for (n = 0; t->seeds[n]; n++)
			;
		other = t->seeds[below(n)];
		tl = strlen(other);
		n = below(tl + 1);
		if (pos + tl - n <= MAX_LEN) {
			memcpy(buf + pos, other + n, tl - n);
			len = pos + tl - n;
		}
	}
	return len;
}

static int fuzz_target(const struct fuzz_target *t, double seconds,
		       unsigned long max)
{
	static char buf[MAX_LEN + 1];
	double end = now_mono() + seconds;
	unsigned long n = 0;
	size_t nseeds, len, k, edits;
	int bad = 0;

	for (nseeds = 0; t->seeds[nseeds]; nseeds++)
		bad |= run_one(t, t->seeds[nseeds], strlen(t->seeds[nseeds]));
	while (!bad && (!max || n < max) && ((n & 15) || now_mono() < end)) {
		k = below(nseeds);
		len = strlen(t->seeds[k]);
		memcpy(buf, t->seeds[k], len);
		for (edits = 1 + below(8); edits; edits--)
			len = edit(buf, len, t);
		bad = run_one(t, buf, len);
		n++;
	}
	printf("%s %s: %lu inputs\n", bad ? "FAIL" : "ok", t->name, n);
	return bad;
}

static int replay(const char *file, const char *name)
{
	size_t len, i;
	char *d = read_text_file(file, &len);

	if (!d) {
		perror(file);
		return 2;
	}
	for (i = 0; i < fuzz_ntargets; i++)
		if (!strcmp(fuzz_targets[i].name, name))
			break;
	if (i == fuzz_ntargets || fuzz_setup()) {
		fprintf(stderr, "fuzz: no target %s, or no temp dir\n", name);
		free(d);
		return 2;
	}
	i = (size_t)run_one(&fuzz_targets[i], d, len);
	fuzz_teardown();
	free(d);
	return i ? 1 : 0;
}

static int wanted(const struct fuzz_target *t, int argc, char **argv)
{
	int i;

	for (i = optind; i < argc; i++)
		if (!strcmp(argv[i], t->name))
			return 1;
	return optind == argc;
}

int main(int argc, char **argv)
{
	double seconds = 10, share;
	unsigned long max = 0, seed = 1;
	unsigned cost = 0;
	int opt, pass = 0, fail = 0;
	const char *rfile = NULL;
	size_t i;

	while ((opt = getopt(argc, argv, "s:t:n:r:")) != -1) {
		switch (opt) {
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 't': seconds = atof(optarg); break;
		case 'n': max = strtoul(optarg, NULL, 0); break;
		case 'r': rfile = optarg; break;
		default:
			fprintf(stderr, "usage: fuzz [-s SEED] [-t SECONDS] "
				"[-n INPUTS] [TARGET...] | -r FILE TARGET\n");
			return 2;
		}
	}
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(on_death);
	if (rfile)
		return optind + 1 == argc ? replay(rfile, argv[optind]) : 2;
	rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	if (fuzz_setup()) {
		perror("fuzz: setup");
		return 1;
	}
	for (i = 0; i < fuzz_ntargets; i++)
		if (wanted(&fuzz_targets[i], argc, argv))
			cost += fuzz_targets[i].cost;
	for (i = 0; i < fuzz_ntargets; i++) {
		if (!wanted(&fuzz_targets[i], argc, argv))
			continue;
		share = seconds * fuzz_targets[i].cost / (cost ? cost : 1);
		if (fuzz_target(&fuzz_targets[i], share, max))
			fail++;
		else
			pass++;
	}
	fuzz_teardown();
	printf("%d passed, %d failed\n", pass, fail);
	return fail ? 1 : 0;
}
#endif
