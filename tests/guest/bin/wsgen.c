// SPDX-License-Identifier: GPL-2.0
/*
 * wsgen - workload generator with known working sets, for idletop's
 * guest tests. Each kind gets SIZE[:HOT]: SIZE bytes populated once, the
 * HOT fraction (default 0) touched again every --interval ms.
 *
 *   anon   private anonymous memory (THP disabled with MADV_NOHUGEPAGE)
 *   file   a file in --dir, kept hot with pread()
 *   mmap   a file in --dir, mmap'd shared and kept hot by loads
 *   shmem  a memfd, mmap'd shared
 *   thp    2 MiB-aligned anonymous memory with MADV_HUGEPAGE (hot part
 *          rounded to whole 2 MiB pages)
 *
 * --reread drops the page cache of file and mmap once written (synced,
 * POSIX_FADV_DONTNEED), so that it comes back through readahead: in
 * large folios on a filesystem that has them (XFS in 6.1).
 *
 * Prints one line "ready anon=B anon_hot=B ..." (bytes) to stdout or
 * --ready FILE once populated, then runs until killed or --duration.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL
#define HPAGE (2UL << 20)

enum { K_ANON, K_FILE, K_MMAP, K_SHMEM, K_THP, K_NR };
static const char *const kname[K_NR] = { "anon", "file", "mmap", "shmem", "thp" };

struct region {
	size_t size, hot;	/* bytes */
	char *mem;		/* mapping, or NULL for K_FILE */
	int fd;
};

static struct region reg[K_NR];
static int reread;
static volatile sig_atomic_t stop;

static void die(const char *what)
{
	fprintf(stderr, "wsgen: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void usage(FILE *f)
{
	fputs("Usage: wsgen [OPTION]...\n"
	      "  --anon=SIZE[:HOT]   anonymous memory, HOT fraction kept hot\n"
	      "  --file=SIZE[:HOT]   file in --dir read with read()/pread()\n"
	      "  --mmap=SIZE[:HOT]   file in --dir mapped with mmap\n"
	      "  --shmem=SIZE[:HOT]  memfd (shmem) mapped shared\n"
	      "  --thp=SIZE[:HOT]    MADV_HUGEPAGE anon, 2 MiB aligned\n"
	      "  --dir=DIR           where files go (default .; tmpfs makes\n"
	      "                      them shmem, use a disk fs for file)\n"
	      "  --reread            drop file and mmap from the page cache\n"
	      "                      once written: read back by readahead\n"
	      "  --cgroup=DIR        join this cgroup first (DIR/cgroup.procs)\n"
	      "  --interval=MS       touch hot memory every MS ms (default 100)\n"
	      "  --duration=SEC      exit after SEC seconds (default: never)\n"
	      "  --ready=FILE        write the ready line to FILE, not stdout\n"
	      "  -h, --help          this help\n"
	      "SIZE takes K, M, G suffixes (binary); HOT is 0..1.\n", f);
}

static int parse_size(const char *s, size_t *size, size_t *hot, size_t unit)
{
	char *end;
	double h = 0;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'G': case 'g': v <<= 10; /* fall through */
	case 'M': case 'm': v <<= 10; /* fall through */
	case 'K': case 'k': v <<= 10; end++; break;
	}
	if (*end == ':') {
		h = strtod(end + 1, &end);
		if (h < 0 || h > 1)
			return -1;
	}
	if (*end || v == 0 || v > (1ULL << 40))
		return -1;
	*size = (size_t)((v + unit - 1) / unit * unit);
	*hot = (size_t)((double)*size * h) / unit * unit;
	return 0;
}

static void join_cgroup(const char *dir)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f))
		die(path);
}

/* Write, never read first: a read fault would map the (huge) zero page. */
static void touch(char *mem, size_t len)
{
	volatile char *p = mem;
	static char v;
	size_t i;

	v++;
	for (i = 0; i < len; i += PAGE)
		p[i] = v;
}

static char *map_anon(size_t len, int thp)
{
	size_t extra = thp ? HPAGE : 0;
	char *p = mmap(NULL, len + extra, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap anon");
	if (thp)
		p = (char *)(((uintptr_t)p + HPAGE - 1) & ~(HPAGE - 1));
	if (madvise(p, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) && thp)
		die("madvise(MADV_HUGEPAGE)");
	touch(p, len);
	return p;
}

static int make_file(const char *dir, const char *name, size_t len)
{
	char path[4096], buf[65536];
	size_t done;
	int fd;

	snprintf(path, sizeof(path), "%s/wsgen.%d.%s", dir, (int)getpid(), name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		die(path);
	unlink(path);	/* gone when we are */
	memset(buf, 0x5a, sizeof(buf));
	for (done = 0; done < len; done += sizeof(buf))
		if (pwrite(fd, buf, len - done < sizeof(buf) ? len - done :
			   sizeof(buf), (off_t)done) < 0)
			die("write");
	if (fdatasync(fd))
		die("fdatasync");
	errno = reread ? posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) : 0;
	if (errno)
		die("posix_fadvise(POSIX_FADV_DONTNEED)");
	return fd;
}

static void read_file(int fd, size_t len)
{
	char buf[PAGE];
	size_t off;

	for (off = 0; off < len; off += PAGE)
		if (pread(fd, buf, 1, (off_t)off) < 0)
			die("pread");
}

static void populate(const char *dir)
{
	struct region *r;

	if ((r = &reg[K_ANON])->size)
		r->mem = map_anon(r->size, 0);
	if ((r = &reg[K_THP])->size)
		r->mem = map_anon(r->size, 1);
	if ((r = &reg[K_FILE])->size) {
		r->fd = make_file(dir, "file", r->size);
		read_file(r->fd, r->size);
	}
	if ((r = &reg[K_MMAP])->size) {
		r->fd = make_file(dir, "mmap", r->size);
		r->mem = mmap(NULL, r->size, PROT_READ | PROT_WRITE,
			      MAP_SHARED, r->fd, 0);
		if (r->mem == MAP_FAILED)
			die("mmap file");
		touch(r->mem, r->size);
	}
	if ((r = &reg[K_SHMEM])->size) {
		r->fd = memfd_create("wsgen", MFD_CLOEXEC);
		if (r->fd < 0 || ftruncate(r->fd, (off_t)r->size))
			die("memfd");
		r->mem = mmap(NULL, r->size, PROT_READ | PROT_WRITE,
			      MAP_SHARED, r->fd, 0);
		if (r->mem == MAP_FAILED)
			die("mmap memfd");
		touch(r->mem, r->size);
	}
}

static void touch_hot(void)
{
	int k;

	for (k = 0; k < K_NR; k++) {
		if (!reg[k].hot)
			continue;
		if (k == K_FILE)
			read_file(reg[k].fd, reg[k].hot);
		else
			touch(reg[k].mem, reg[k].hot);
	}
}

static void say_ready(const char *file)
{
	FILE *f = file ? fopen(file, "w") : stdout;
	int k;

	if (!f)
		die(file);
	fputs("ready", f);
	for (k = 0; k < K_NR; k++)
		fprintf(f, " %s=%zu %s_hot=%zu", kname[k], reg[k].size,
			kname[k], reg[k].hot);
	fprintf(f, " pid=%d\n", (int)getpid());
	if ((file ? fclose(f) : fflush(f)) == EOF)
		die("ready");
}

static void on_signal(int s)
{
	(void)s;
	stop = 1;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "anon", 1, NULL, 'a' }, { "file", 1, NULL, 'f' },
		{ "mmap", 1, NULL, 'm' }, { "shmem", 1, NULL, 's' },
		{ "thp", 1, NULL, 't' }, { "dir", 1, NULL, 'D' },
		{ "cgroup", 1, NULL, 'c' }, { "interval", 1, NULL, 'i' },
		{ "duration", 1, NULL, 'd' }, { "ready", 1, NULL, 'r' },
		{ "reread", 0, NULL, 'R' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	const char *dir = ".", *cg = NULL, *ready = NULL;
	double interval = 100, duration = -1, t0;
	struct timespec ts;
	int o, k;

	while ((o = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		k = o == 'a' ? K_ANON : o == 'f' ? K_FILE : o == 'm' ? K_MMAP :
		    o == 's' ? K_SHMEM : o == 't' ? K_THP : -1;
		if (k >= 0) {
			if (parse_size(optarg, &reg[k].size, &reg[k].hot,
				       k == K_THP ? HPAGE : PAGE))
				goto bad;
			continue;
		}
		switch (o) {
		case 'D': dir = optarg; break;
		case 'c': cg = optarg; break;
		case 'r': ready = optarg; break;
		case 'R': reread = 1; break;
		case 'i': interval = atof(optarg);
			if (interval <= 0)
				goto bad;
			break;
		case 'd': duration = atof(optarg);
			if (duration <= 0)
				goto bad;
			break;
		case 'h': usage(stdout); return 0;
		default: goto bad;
		}
	}
	if (optind < argc)
		goto bad;
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (cg)
		join_cgroup(cg);
	populate(dir);
	say_ready(ready);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	while (!stop) {
		touch_hot();
		usleep((useconds_t)(interval * 1000));
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (duration > 0 && (double)ts.tv_sec +
		    (double)ts.tv_nsec / 1e9 - t0 >= duration)
			break;
	}
	return 0;
bad:
	usage(stderr);
	return 2;
}
