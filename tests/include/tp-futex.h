/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tp-futex.h: the TP futex ops and the syscall wrappers shared by the
 * project's test programs (the C files of tests/guest/ and tests/stress/tp-stress.c).
 *
 * The op numbers are the ones kernel/patches/ adds to include/uapi/linux/futex.h;
 * a <linux/futex.h> that already has them (the guest tests are built against
 * the patched kernel's headers) wins.  The host's headers have none of them.
 *
 * Every wrapper returns what the syscall returns, or -errno on failure (errno is
 * set as well), so a caller can compare with -ETIMEDOUT etc. without reading
 * errno at the right moment.
 */
#ifndef TP_FUTEX_H
#define TP_FUTEX_H

#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2		13
#endif
#ifndef FUTEX_LOCK
#define FUTEX_LOCK		14
#endif
#ifndef FUTEX_UNLOCK
#define FUTEX_UNLOCK		15
#endif
#ifndef FUTEX_LOCK_PRIVATE
#define FUTEX_LOCK_PRIVATE	(FUTEX_LOCK | FUTEX_PRIVATE_FLAG)
#endif
#ifndef FUTEX_UNLOCK_PRIVATE
#define FUTEX_UNLOCK_PRIVATE	(FUTEX_UNLOCK | FUTEX_PRIVATE_FLAG)
#endif

#define TP_NSEC_PER_SEC		1000000000L

/*
 * futex(2) as it is: any op, any address (bad ones included), val and timeout;
 * uaddr2 and val3 are 0.  Returns the result or -errno.
 */
static inline long tp_futex(volatile void *uaddr, int op, uint32_t val,
			    const struct timespec *timeout)
{
	long ret = syscall(SYS_futex, uaddr, op, val, timeout, NULL, 0);

	return ret < 0 ? -errno : ret;
}

/*
 * FUTEX_LOCK on @uaddr; @flags: FUTEX_PRIVATE_FLAG and/or FUTEX_CLOCK_REALTIME.
 * @abs_timeout: absolute, on CLOCK_MONOTONIC (or CLOCK_REALTIME with that flag),
 * NULL to wait forever.  Returns 0..2 (how the lock was taken) or -errno.
 */
static inline long tp_futex_lock(volatile uint32_t *uaddr, int flags,
				 const struct timespec *abs_timeout)
{
	return tp_futex(uaddr, FUTEX_LOCK | flags, 0, abs_timeout);
}

/* FUTEX_UNLOCK on @uaddr: 0 (no waiter woken) or 1 (one woken), or -errno. */
static inline long tp_futex_unlock(volatile uint32_t *uaddr, int flags)
{
	return tp_futex(uaddr, FUTEX_UNLOCK | flags, 0, NULL);
}

/* The caller's TID: what a TP futex word holds while the caller owns it. */
static inline pid_t tp_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* An absolute timeout @us microseconds from now on @clk, for FUTEX_LOCK. */
static inline struct timespec tp_abs_timeout_us(clockid_t clk, long us)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	ts.tv_sec += us / 1000000;
	ts.tv_nsec += (us % 1000000) * 1000;
	if (ts.tv_nsec >= TP_NSEC_PER_SEC) {
		ts.tv_sec++;
		ts.tv_nsec -= TP_NSEC_PER_SEC;
	}
	return ts;
}

/* The same in milliseconds. */
static inline struct timespec tp_abs_timeout_ms(clockid_t clk, long ms)
{
	return tp_abs_timeout_us(clk, ms * 1000);
}

#endif /* TP_FUTEX_H */
