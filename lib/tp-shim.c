// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtp-shim.so: run unmodified pthread programs on TP futexes.
 *
 *	LD_PRELOAD=/path/to/libtp-shim.so program args...
 *
 * It interposes pthread_mutex_{lock,trylock,timedlock,clocklock,unlock,
 * destroy} and pthread_cond_{wait,timedwait,clockwait,signal,broadcast}.
 * Mutexes of glibc's NORMAL/DEFAULT ("timed") and ADAPTIVE kinds, without
 * the robust, priority-inheritance, priority-protection or process-shared
 * flags, are locked with tp-mutex, using the mutex's own __lock word as the
 * TP futex word: 0 when free, the owner's TID when held.  Every other mutex,
 * and every mutex when the kernel lacks TP futexes (or
 * TP_SHIM_FORCE_FALLBACK is set), goes to the real glibc function, found
 * with dlsym(RTLD_NEXT).  The decision is taken once per process, before
 * the first mutex operation, and never changes.
 *
 * Condition variables
 * -------------------
 * glibc's pthread_cond_wait() releases and retakes the mutex with internal
 * functions that expect glibc's own lock values (0/1/2) in __lock, so it
 * must never see a TP mutex.  For a TP mutex the shim waits on the real
 * condition variable with a glibc mutex of its own, a "stripe" chosen by
 * the address of the condition variable:
 *
 *	wait:	lock stripe; TP-unlock mutex; glibc cond wait (cond, stripe)
 *		-> atomically releases the stripe and sleeps; ...wakes with the
 *		stripe locked; unlock stripe; TP-lock mutex
 *	signal:	lock stripe; glibc signal; unlock stripe
 *
 * A waiter holds the stripe from before it releases the mutex until glibc
 * has queued it on the condition variable, and a signaller takes the
 * stripe, so a signal that follows the release of the mutex (the waiter's
 * predicate check) cannot fall into the gap: no wakeup is lost.  Each
 * stripe counts the TP waiters that use it, and signal and broadcast skip
 * the stripe when it has none (a waiter counts itself before it releases
 * the mutex, so any signaller that ran after that release sees it).
 * Timeouts, condattr clocks and process-shared condition variables are
 * glibc's; cancellation retakes the TP mutex before the user's cleanup
 * handlers run, as POSIX requires.
 *
 * Statistics
 * ----------
 * With TP_SHIM_STATS=1 the shim counts the lock calls (lock, trylock,
 * timedlock, clocklock) by where they went: TP futexes, or glibc and why
 * (no TP in this process, or the mutex's kind).  It prints one line the
 * first time a process locks a mutex of each kind, which also shows in
 * children that leave with _exit(), and the totals at exit().  Without it
 * the only cost is one predictable branch per lock call.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tp-mutex.h"

#define SHIM_API	__attribute__((visibility("default")))
#define likely(x)	__builtin_expect(!!(x), 1)

/* glibc's lock-elision flags in __kind (nptl/pthreadP.h); irrelevant here. */
#define KIND_ELISION_FLAGS	(256 | 512)

_Static_assert(offsetof(pthread_mutex_t, __data.__lock) == 0 &&
	       sizeof(((pthread_mutex_t *)0)->__data.__lock) == sizeof(uint32_t),
	       "pthread_mutex_t.__data.__lock is not a 32-bit word at offset 0");

enum { MODE_UNDECIDED, MODE_TP, MODE_GLIBC };

static int shim_mode;
static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;

static struct {
	int (*mutex_lock)(pthread_mutex_t *);
	int (*mutex_trylock)(pthread_mutex_t *);
	int (*mutex_timedlock)(pthread_mutex_t *, const struct timespec *);
	int (*mutex_clocklock)(pthread_mutex_t *, clockid_t,
			       const struct timespec *);
	int (*mutex_unlock)(pthread_mutex_t *);
	int (*mutex_destroy)(pthread_mutex_t *);
	int (*cond_wait)(pthread_cond_t *, pthread_mutex_t *);
	int (*cond_timedwait)(pthread_cond_t *, pthread_mutex_t *,
			      const struct timespec *);
	int (*cond_clockwait)(pthread_cond_t *, pthread_mutex_t *, clockid_t,
			      const struct timespec *);
	int (*cond_signal)(pthread_cond_t *);
	int (*cond_broadcast)(pthread_cond_t *);
} real;

/* One line on stderr, without stdio, keeping errno. */
static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	int saved = errno;
	char buf[256];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len > 0 && write(STDERR_FILENO, buf, (size_t)len < sizeof(buf) ?
			     (size_t)len : sizeof(buf) - 1) < 0)
		len = 0;
	errno = saved;
}

static void *must(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);

	if (!fn) {
		say("tp-shim: cannot find the real %s\n", name);
		abort();
	}
	return fn;
}

/* ---- Statistics (TP_SHIM_STATS=1; see the top of this file) --------- */

/* glibc's mutex kind bits in __kind (nptl/pthreadP.h). */
#define KIND_TYPE_MASK		3
#define KIND_ROBUST		16
#define KIND_PRIO_INHERIT	32
#define KIND_PRIO_PROTECT	64
#define KIND_PSHARED		128

enum { ST_TP, ST_NO_TP, ST_RECURSIVE, ST_ERRORCHECK, ST_ROBUST, ST_PI, ST_PP,
       ST_PSHARED, ST_N };

static const char *const st_name[ST_N] = {
	[ST_TP]		= "on TP futexes",
	[ST_NO_TP]	= "on glibc: no TP futexes in this process",
	[ST_RECURSIVE]	= "on glibc: recursive mutex",
	[ST_ERRORCHECK]	= "on glibc: error-checking mutex",
	[ST_ROBUST]	= "on glibc: robust mutex",
	[ST_PI]		= "on glibc: priority-inheritance mutex",
	[ST_PP]		= "on glibc: priority-protect mutex",
	[ST_PSHARED]	= "on glibc: process-shared mutex",
};

static bool stats_on;
static unsigned long st_count[ST_N];
static unsigned int st_seen;

static void stats_print(void)
{
	int i;

	for (i = 0; i < ST_N; i++)
		if (st_count[i])
			say("tp-shim: stats: pid %d: %lu lock calls %s\n", (int)getpid(),
			    __atomic_load_n(&st_count[i], __ATOMIC_RELAXED), st_name[i]);
}

/* A forked child counts, and reports first locks, for itself. */
static void stats_child(void)
{
	memset(st_count, 0, sizeof(st_count));
	st_seen = 0;
}

static void __attribute__((noinline)) stats_lock(const pthread_mutex_t *m, bool tp)
{
	int kind = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);
	unsigned int bit;
	int c;

	if (tp)
		c = ST_TP;
	else if (kind & KIND_PSHARED)
		c = ST_PSHARED;
	else if (kind & KIND_PRIO_INHERIT)
		c = ST_PI;
	else if (kind & KIND_PRIO_PROTECT)
		c = ST_PP;
	else if (kind & KIND_ROBUST)
		c = ST_ROBUST;
	else if ((kind & KIND_TYPE_MASK) == PTHREAD_MUTEX_RECURSIVE_NP)
		c = ST_RECURSIVE;
	else if ((kind & KIND_TYPE_MASK) == PTHREAD_MUTEX_ERRORCHECK_NP)
		c = ST_ERRORCHECK;
	else
		c = ST_NO_TP;
	__atomic_add_fetch(&st_count[c], 1, __ATOMIC_RELAXED);
	bit = 1u << c;
	if (!(__atomic_fetch_or(&st_seen, bit, __ATOMIC_RELAXED) & bit))
		say("tp-shim: stats: pid %d: first lock call %s\n", (int)getpid(),
		    st_name[c]);
}

static bool env_set(const char *name)
{
	const char *val = getenv(name);

	return val && *val && strcmp(val, "0") != 0;
}

static void resolve(void)
{
	real.mutex_lock = (int (*)(pthread_mutex_t *))must("pthread_mutex_lock");
	real.mutex_trylock = (int (*)(pthread_mutex_t *))
		must("pthread_mutex_trylock");
	real.mutex_timedlock = (int (*)(pthread_mutex_t *, const struct timespec *))
		must("pthread_mutex_timedlock");
	real.mutex_unlock = (int (*)(pthread_mutex_t *))
		must("pthread_mutex_unlock");
	real.mutex_destroy = (int (*)(pthread_mutex_t *))
		must("pthread_mutex_destroy");
	real.cond_wait = (int (*)(pthread_cond_t *, pthread_mutex_t *))
		must("pthread_cond_wait");
	real.cond_timedwait = (int (*)(pthread_cond_t *, pthread_mutex_t *,
				       const struct timespec *))
		must("pthread_cond_timedwait");
	real.cond_signal = (int (*)(pthread_cond_t *))must("pthread_cond_signal");
	real.cond_broadcast = (int (*)(pthread_cond_t *))
		must("pthread_cond_broadcast");
	/* glibc >= 2.30 only. */
	real.mutex_clocklock = (int (*)(pthread_mutex_t *, clockid_t,
					const struct timespec *))
		dlsym(RTLD_NEXT, "pthread_mutex_clocklock");
	real.cond_clockwait = (int (*)(pthread_cond_t *, pthread_mutex_t *,
				       clockid_t, const struct timespec *))
		dlsym(RTLD_NEXT, "pthread_cond_clockwait");
	if (env_set("TP_SHIM_STATS")) {
		stats_on = true;
		atexit(stats_print);
		pthread_atfork(NULL, NULL, stats_child);
	}
}

static int __attribute__((noinline)) decide(void)
{
	static __thread int resolving __attribute__((tls_model("initial-exec")));
	int want, err = 0, mode = MODE_UNDECIDED;

	if (resolving) {
		/* dlsym() called back into a pthread function. */
		say("tp-shim: recursive pthread call during start-up\n");
		abort();
	}
	resolving = 1;
	pthread_once(&resolve_once, resolve);
	resolving = 0;

	if (env_set("TP_SHIM_FORCE_FALLBACK"))
		want = MODE_GLIBC;
	else
		want = (err = tp_probe()) ? MODE_GLIBC : MODE_TP;
	if (!__atomic_compare_exchange_n(&shim_mode, &mode, want, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return mode;		/* another thread decided first */

	if (want == MODE_TP) {
		if (env_set("TP_SHIM_VERBOSE"))
			say("tp-shim: using TP futexes for normal and adaptive mutexes\n");
	} else if (!err) {
		say("tp-shim: TP_SHIM_FORCE_FALLBACK is set: using glibc mutexes\n");
	} else if (err == ENOSYS) {
		say("tp-shim: kernel has no FUTEX_LOCK (ENOSYS): using glibc mutexes\n");
	} else {
		say("tp-shim: TP futex probe failed (%s): using glibc mutexes\n",
		    strerrorname_np(err) ? strerrorname_np(err) : "?");
	}
	return want;
}

static inline int shim(void)
{
	int mode = __atomic_load_n(&shim_mode, __ATOMIC_ACQUIRE);

	return likely(mode != MODE_UNDECIDED) ? mode : decide();
}

static inline bool tp_kind(const pthread_mutex_t *m)
{
	int kind = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);

	kind &= ~KIND_ELISION_FLAGS;
	return kind == PTHREAD_MUTEX_TIMED_NP || kind == PTHREAD_MUTEX_ADAPTIVE_NP;
}

/* Does this mutex go to tp-mutex?  Also resolves real.* on first use. */
static inline bool use_tp(const pthread_mutex_t *m)
{
	return shim() == MODE_TP && tp_kind(m);
}

/* use_tp(), counted when TP_SHIM_STATS is set: for the lock calls. */
static inline bool lock_tp(const pthread_mutex_t *m)
{
	bool tp = use_tp(m);

	if (__builtin_expect(stats_on, 0))
		stats_lock(m, tp);
	return tp;
}

static inline uint32_t *word_of(pthread_mutex_t *m)
{
	return (uint32_t *)&m->__data.__lock;
}

static bool valid_abstime(const struct timespec *abs)
{
	return abs->tv_nsec >= 0 && abs->tv_nsec < 1000000000L;
}

/* ---- Mutexes --------------------------------------------------------- */

SHIM_API int pthread_mutex_lock(pthread_mutex_t *m)
{
	if (lock_tp(m))
		return tp_word_lock(word_of(m), FUTEX_PRIVATE_FLAG);
	return real.mutex_lock(m);
}

SHIM_API int pthread_mutex_trylock(pthread_mutex_t *m)
{
	if (lock_tp(m))
		return tp_word_trylock(word_of(m));
	return real.mutex_trylock(m);
}

SHIM_API int pthread_mutex_timedlock(pthread_mutex_t *m,
				     const struct timespec *abstime)
{
	if (lock_tp(m))
		return tp_word_timedlock(word_of(m), abstime, CLOCK_REALTIME,
					 FUTEX_PRIVATE_FLAG);
	return real.mutex_timedlock(m, abstime);
}

SHIM_API int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk,
				     const struct timespec *abstime)
{
	if (lock_tp(m))
		return tp_word_timedlock(word_of(m), abstime, clk,
					 FUTEX_PRIVATE_FLAG);
	return real.mutex_clocklock ? real.mutex_clocklock(m, clk, abstime) : ENOSYS;
}

SHIM_API int pthread_mutex_unlock(pthread_mutex_t *m)
{
	if (use_tp(m))
		return tp_word_unlock(word_of(m), FUTEX_PRIVATE_FLAG);
	return real.mutex_unlock(m);
}

SHIM_API int pthread_mutex_destroy(pthread_mutex_t *m)
{
	/* glibc would not see that a TP mutex is held (__nusers is 0). */
	if (use_tp(m) && __atomic_load_n(word_of(m), __ATOMIC_RELAXED) != 0)
		return EBUSY;
	return real.mutex_destroy(m);
}

/* ---- Condition variables (see the top of this file) ------------------ */

#define STRIPES		64

/* All zero is PTHREAD_MUTEX_INITIALIZER in glibc. */
static struct stripe {
	pthread_mutex_t lock;		/* a glibc mutex: only real.* touch it */
	unsigned int waiters;		/* TP waiters in tp_cond_wait() */
} __attribute__((aligned(128))) stripes[STRIPES];

static struct stripe *stripe_of(const pthread_cond_t *c)
{
	uint32_t h = (uint32_t)((uintptr_t)c >> 3) * 2654435761u;

	return &stripes[h >> 26];	/* top 6 bits: 0 .. 63 */
}

enum wait_kind { WAIT, TIMEDWAIT, CLOCKWAIT };

struct cond_waiter {
	struct stripe *stripe;
	pthread_mutex_t *mutex;
};

/* Called with the stripe locked, as glibc returns (or cancels) with it. */
static int cond_relock(struct cond_waiter *w)
{
	real.mutex_unlock(&w->stripe->lock);
	__atomic_sub_fetch(&w->stripe->waiters, 1, __ATOMIC_RELEASE);
	return tp_word_lock(word_of(w->mutex), FUTEX_PRIVATE_FLAG);
}

static void cond_cancelled(void *arg)
{
	cond_relock(arg);
}

static int tp_cond_wait(pthread_cond_t *c, pthread_mutex_t *m,
			enum wait_kind how, clockid_t clk,
			const struct timespec *abstime)
{
	struct cond_waiter w = { stripe_of(c), m };
	int ret, err;

	__atomic_add_fetch(&w.stripe->waiters, 1, __ATOMIC_SEQ_CST);
	real.mutex_lock(&w.stripe->lock);
	ret = tp_word_unlock(word_of(m), FUTEX_PRIVATE_FLAG);
	if (ret) {
		/* Not the owner: nothing was released. */
		real.mutex_unlock(&w.stripe->lock);
		__atomic_sub_fetch(&w.stripe->waiters, 1, __ATOMIC_RELEASE);
		return ret;
	}
	pthread_cleanup_push(cond_cancelled, &w);
	switch (how) {
	case WAIT:
		ret = real.cond_wait(c, &w.stripe->lock);
		break;
	case TIMEDWAIT:
		ret = real.cond_timedwait(c, &w.stripe->lock, abstime);
		break;
	case CLOCKWAIT:
		ret = real.cond_clockwait(c, &w.stripe->lock, clk, abstime);
		break;
	}
	pthread_cleanup_pop(0);
	err = cond_relock(&w);
	return err ? err : ret;
}

SHIM_API int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	if (!use_tp(m))
		return real.cond_wait(c, m);
	return tp_cond_wait(c, m, WAIT, CLOCK_REALTIME, NULL);
}

SHIM_API int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
				    const struct timespec *abstime)
{
	if (!use_tp(m))
		return real.cond_timedwait(c, m, abstime);
	if (!valid_abstime(abstime))
		return EINVAL;
	return tp_cond_wait(c, m, TIMEDWAIT, CLOCK_REALTIME, abstime);
}

SHIM_API int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m,
				    clockid_t clk, const struct timespec *abstime)
{
	if (!use_tp(m))
		return real.cond_clockwait ? real.cond_clockwait(c, m, clk, abstime)
					   : ENOSYS;
	if (!real.cond_clockwait)
		return ENOSYS;
	if ((clk != CLOCK_MONOTONIC && clk != CLOCK_REALTIME) ||
	    !valid_abstime(abstime))
		return EINVAL;
	return tp_cond_wait(c, m, CLOCKWAIT, clk, abstime);
}

static int cond_wake(pthread_cond_t *c, bool all)
{
	int (*wake)(pthread_cond_t *);
	struct stripe *s;
	int ret;

	if (shim() != MODE_TP)
		return all ? real.cond_broadcast(c) : real.cond_signal(c);
	wake = all ? real.cond_broadcast : real.cond_signal;
	s = stripe_of(c);
	if (!__atomic_load_n(&s->waiters, __ATOMIC_ACQUIRE))
		return wake(c);
	real.mutex_lock(&s->lock);
	ret = wake(c);
	real.mutex_unlock(&s->lock);
	return ret;
}

SHIM_API int pthread_cond_signal(pthread_cond_t *c)
{
	return cond_wake(c, false);
}

SHIM_API int pthread_cond_broadcast(pthread_cond_t *c)
{
	return cond_wake(c, true);
}

/* ---- fork() and start-up --------------------------------------------- */

/* No stripe may be held across fork(): a child could never take it again. */
static void stripes_prepare(void)
{
	for (int i = 0; i < STRIPES; i++)
		real.mutex_lock(&stripes[i].lock);
}

static void stripes_parent(void)
{
	for (int i = STRIPES - 1; i >= 0; i--)
		real.mutex_unlock(&stripes[i].lock);
}

static void stripes_child(void)
{
	for (int i = STRIPES - 1; i >= 0; i--) {
		stripes[i].waiters = 0;	/* the waiters stayed in the parent */
		real.mutex_unlock(&stripes[i].lock);
	}
}

static void __attribute__((constructor)) shim_init(void)
{
	if (shim() == MODE_TP)
		pthread_atfork(stripes_prepare, stripes_parent, stripes_child);
}

/* For tests and diagnostics: 1 = TP futexes, 2 = glibc (fallback). */
SHIM_API int tp_shim_mode(void)
{
	return shim();
}
