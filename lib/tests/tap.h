/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Minimal TAP 13 output for the lib/ tests, with kselftest's exit codes
 * (0 pass, 1 fail, 4 skip).  A watchdog alarm turns a hang into a failure;
 * TAP_WATCHDOG_SCALE=N in the environment multiplies its time by N (slow
 * kernels: sanitizers, lockdep).
 */
#ifndef TP_TAP_H
#define TP_TAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TAP_SKIP_EXIT	4

static int tap_count, tap_failed;

static inline void tap_plan(int n, unsigned int watchdog_s)
{
	const char *scale = getenv("TAP_WATCHDOG_SCALE");
	int k = scale ? atoi(scale) : 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..%d\n", n);
	alarm(watchdog_s * (k > 0 && k <= 100 ? k : 1));
}

static inline void __attribute__((format(printf, 2, 3)))
tap_ok(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d ", ok ? "ok" : "not ok", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!ok)
		tap_failed++;
}

static inline void __attribute__((format(printf, 2, 3)))
tap_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("ok %d %s # SKIP ", ++tap_count, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline void __attribute__((format(printf, 1, 2)))
tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline void __attribute__((noreturn)) tap_skip_all(const char *reason)
{
	printf("TAP version 13\n1..0 # SKIP %s\n", reason);
	exit(TAP_SKIP_EXIT);
}

static inline int tap_exit(void)
{
	printf("# %d tests, %d failed\n", tap_count, tap_failed);
	return tap_failed ? 1 : 0;
}

/* Helpers for timeouts. */
static inline void ts_add_ms(struct timespec *ts, long ms)
{
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

static inline struct timespec ts_in(clockid_t clk, long ms)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	ts_add_ms(&ts, ms);
	return ts;
}

/* Has CLOCK_MONOTONIC reached the deadline? */
static inline bool ts_passed(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline->tv_sec ||
	       (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

static inline long ms_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000 +
	       (now.tv_nsec - start->tv_nsec) / 1000000;
}

static inline const char *err_name(int err)
{
	static __thread char buf[16];
	const char *name = err ? strerrorname_np(err) : "0";

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "%d", err);
	return buf;
}

#endif /* TP_TAP_H */
