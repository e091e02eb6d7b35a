/* SPDX-License-Identifier: GPL-2.0 */
/* util.h - checked I/O and string helpers */
#ifndef IDLETOP_UTIL_H
#define IDLETOP_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* pread/pwrite until len bytes, EOF or error; EINTR retried. */
ssize_t pread_full(int fd, void *buf, size_t len, off_t off);
ssize_t pwrite_full(int fd, const void *buf, size_t len, off_t off);
/* malloc'ed "a/b" with exactly one slash between; NULL on ENOMEM. */
char *path_join(const char *a, const char *b);
/* Whole small text file, NUL-terminated, malloc'ed; NULL + errno on error. */
char *read_text_file(const char *path, size_t *len);
/* Monotonic and process-CPU clocks in seconds. */
double now_mono(void);
double now_cpu(void);
double now_real(void);

#endif
