// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests of libtp-shim.so: an ordinary pthread program, run with
 * LD_PRELOAD=libtp-shim.so, or without it.
 *
 *	test-shim tp|glibc|none|auto
 *
 * The argument is the mode the shim must be in: tp (TP futexes), glibc (its
 * fallback), none (not preloaded), or auto (tp if the kernel has TP futexes
 * and TP_SHIM_FORCE_FALLBACK is not set, else glibc; none without the shim).
 * In tp mode, the normal and adaptive mutexes must hold the owner's TID in
 * __lock and leave __owner 0 (tp-mutex), the other kinds must have glibc's
 * __owner; in the other modes every mutex must be glibc's.  The behaviour
 * checked is the same in all modes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tap.h"

#ifndef FUTEX_LOCK
#define FUTEX_LOCK	14
#define FUTEX_UNLOCK	15
#endif

#define NTHREADS	4
#define NITERS		50000
/*
 * The mutual-exclusion runs stop after NITERS pairs per thread or after
 * BUDGET_MS, whichever comes first: a debug kernel under emulation is 20
 * times slower.  The check is exact either way (the counter must equal the
 * pairs the threads completed), and each thread must complete MIN_PAIRS.
 */
#define BUDGET_MS	4000
#define MIN_PAIRS	100
#define NITEMS		20000

static bool tp;				/* the shim uses TP futexes */

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

static long in_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	void *ret;

	if (pthread_create(&t, NULL, fn, arg) || pthread_join(t, &ret))
		return -1;
	return (long)ret;
}

static int init_mutex(pthread_mutex_t *m, int type, int pshared, int robust,
		      int protocol)
{
	pthread_mutexattr_t a;
	int ret;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, type);
	if (pshared)
		pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	if (robust)
		pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	if (protocol)
		pthread_mutexattr_setprotocol(&a, protocol);
	ret = pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
	return ret;
}

/* ---- mode and mutex kinds -------------------------------------------- */

static const char *mode_name(int mode)
{
	switch (mode) {
	case 0: return "none";
	case 1: return "tp";
	case 2: return "glibc";
	default: return "?";
	}
}

static int shim_mode(void)
{
	int (*fn)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "tp_shim_mode");

	return fn ? fn() : 0;
}

static int expected_mode(const char *want)
{
	uint32_t word = 0;
	const char *force = getenv("TP_SHIM_FORCE_FALLBACK");

	if (!strcmp(want, "none"))
		return 0;
	if (!strcmp(want, "tp"))
		return 1;
	if (!strcmp(want, "glibc"))
		return 2;
	/* auto */
	if (!dlsym(RTLD_DEFAULT, "tp_shim_mode"))
		return 0;
	if (force && *force && strcmp(force, "0"))
		return 2;
	/* The probe of tp_probe(): FUTEX_UNLOCK -> EPERM, FUTEX_LOCK -> EDEADLK. */
	if (syscall(SYS_futex, &word, FUTEX_UNLOCK | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0) != -1 ||
	    errno != EPERM)
		return 2;
	word = gettid_();
	if (syscall(SYS_futex, &word, FUTEX_LOCK | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0) != -1 ||
	    errno != EDEADLK)
		return 2;
	return 1;
}

/* Lock, check who implemented the lock, unlock. */
static void check_kind(const char *name, pthread_mutex_t *m, bool interposed)
{
	pid_t tid = gettid_();
	int ret = pthread_mutex_lock(m);
	int lock = m->__data.__lock, owner = m->__data.__owner;
	bool ok;

	if (tp && interposed)
		ok = lock == tid && owner == 0;
	else
		ok = owner == tid;
	ok = ok && ret == 0 && pthread_mutex_unlock(m) == 0;
	tap_ok(ok, "%s mutex: %s (ret %s, __lock %#x, __owner %d)", name,
	       tp && interposed ? "TP futex word holds the TID" : "locked by glibc",
	       err_name(ret), lock, owner);
}

static void *trylock_other(void *arg)
{
	return (void *)(long)pthread_mutex_trylock(arg);
}

static void *unlock_other(void *arg)
{
	return (void *)(long)pthread_mutex_unlock(arg);
}

static void test_kinds(void)
{
	pthread_mutex_t def = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_t adaptive = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
	pthread_mutex_t m;
	int ret;

	check_kind("PTHREAD_MUTEX_INITIALIZER", &def, true);
	init_mutex(&m, PTHREAD_MUTEX_NORMAL, 0, 0, 0);
	check_kind("NORMAL", &m, true);
	pthread_mutex_destroy(&m);
	init_mutex(&m, PTHREAD_MUTEX_DEFAULT, 0, 0, 0);
	check_kind("DEFAULT", &m, true);
	pthread_mutex_destroy(&m);
	check_kind("ADAPTIVE", &adaptive, true);

	init_mutex(&m, PTHREAD_MUTEX_RECURSIVE, 0, 0, 0);
	check_kind("RECURSIVE", &m, false);
	ret = pthread_mutex_lock(&m) | pthread_mutex_lock(&m);
	tap_ok(ret == 0 && m.__data.__count == 2 && in_thread(trylock_other, &m) == EBUSY &&
	       pthread_mutex_unlock(&m) == 0 && pthread_mutex_unlock(&m) == 0 &&
	       pthread_mutex_unlock(&m) == EPERM,
	       "RECURSIVE mutex keeps glibc semantics (count 2, EBUSY, EPERM)");
	pthread_mutex_destroy(&m);

	init_mutex(&m, PTHREAD_MUTEX_ERRORCHECK, 0, 0, 0);
	check_kind("ERRORCHECK", &m, false);
	pthread_mutex_lock(&m);
	tap_ok(pthread_mutex_lock(&m) == EDEADLK && in_thread(unlock_other, &m) == EPERM &&
	       pthread_mutex_unlock(&m) == 0,
	       "ERRORCHECK mutex keeps glibc semantics (EDEADLK, EPERM)");
	pthread_mutex_destroy(&m);

	init_mutex(&m, PTHREAD_MUTEX_NORMAL, 0, 1, 0);
	check_kind("ROBUST", &m, false);
	pthread_mutex_destroy(&m);
	if (init_mutex(&m, PTHREAD_MUTEX_NORMAL, 0, 0, PTHREAD_PRIO_INHERIT) == 0) {
		check_kind("PRIO_INHERIT", &m, false);
		pthread_mutex_destroy(&m);
	} else {
		tap_skip("PRIO_INHERIT mutex", "pthread_mutex_init failed");
	}
	init_mutex(&m, PTHREAD_MUTEX_NORMAL, 1, 0, 0);
	check_kind("PROCESS_SHARED", &m, false);
	pthread_mutex_destroy(&m);

	pthread_mutex_lock(&def);
	ret = pthread_mutex_destroy(&def);
	tap_ok(ret == EBUSY, "destroy of a locked mutex: EBUSY (%s)", err_name(ret));
	pthread_mutex_unlock(&def);
	ret = pthread_mutex_destroy(&def);
	tap_ok(ret == 0, "destroy of an unlocked mutex: 0 (%s)", err_name(ret));
}

/* ---- mutual exclusion, trylock, timedlock ---------------------------- */

static pthread_mutex_t cm = PTHREAD_MUTEX_INITIALIZER;
static unsigned long counter;
static int inside;

static struct timespec stop_at;
static unsigned long pairs;		/* completed lock/unlock pairs */

static void *count_thread(void *arg)
{
	long id = (long)arg, errors = 0, done = 0;
	struct timespec far;

	for (int i = 0; i < NITERS; i++) {
		int ret;

		if (!(i & 255) && ts_passed(&stop_at))
			break;

		switch ((id + i) % 4) {
		case 0:
			ret = pthread_mutex_lock(&cm);
			break;
		case 1:
			far = ts_in(CLOCK_REALTIME, 60000);
			ret = pthread_mutex_timedlock(&cm, &far);
			break;
		case 2:
			far = ts_in(CLOCK_MONOTONIC, 60000);
			ret = pthread_mutex_clocklock(&cm, CLOCK_MONOTONIC, &far);
			break;
		default:
			while ((ret = pthread_mutex_trylock(&cm)) == EBUSY)
				;
			break;
		}
		if (ret) {
			errors++;
			continue;
		}
		if (__atomic_add_fetch(&inside, 1, __ATOMIC_RELAXED) != 1)
			errors++;
		counter++;
		done++;
		__atomic_sub_fetch(&inside, 1, __ATOMIC_RELAXED);
		if (pthread_mutex_unlock(&cm))
			errors++;
	}
	__atomic_add_fetch(&pairs, done, __ATOMIC_RELAXED);
	if (done < MIN_PAIRS)
		errors++;
	return (void *)errors;
}

static unsigned long run_counter(void)
{
	pthread_t t[NTHREADS];
	long errors = 0;
	void *ret;

	counter = 0;
	pairs = 0;
	stop_at = ts_in(CLOCK_MONOTONIC, BUDGET_MS);
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, count_thread, (void *)i);
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], &ret);
		errors += (long)ret;
	}
	return errors ? 0 : counter;
}

struct timed {
	pthread_mutex_t *m;
	clockid_t clk;			/* -1: pthread_mutex_timedlock */
	struct timespec abs;
	bool early;
};

static void *timed_thread(void *arg)
{
	struct timed *t = arg;
	clockid_t clk = t->clk == -1 ? CLOCK_REALTIME : t->clk;
	struct timespec now;
	int ret;

	if (t->clk == -1)
		ret = pthread_mutex_timedlock(t->m, &t->abs);
	else
		ret = pthread_mutex_clocklock(t->m, t->clk, &t->abs);
	clock_gettime(clk, &now);
	t->early = now.tv_sec < t->abs.tv_sec ||
		   (now.tv_sec == t->abs.tv_sec && now.tv_nsec < t->abs.tv_nsec);
	if (ret == 0)
		pthread_mutex_unlock(t->m);
	return (void *)(long)ret;
}

static int timed_other(pthread_mutex_t *m, clockid_t clk, struct timespec abs,
		       bool *early)
{
	struct timed t = { m, clk, abs, false };
	int ret = in_thread(timed_thread, &t);

	if (early)
		*early = t.early;
	return ret;
}

static int hold_state;

/* Hold the mutex until hold_state becomes 2. */
static void *hold_thread(void *arg)
{
	pthread_mutex_lock(arg);
	__atomic_store_n(&hold_state, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&hold_state, __ATOMIC_ACQUIRE) != 2)
		usleep(1000);
	pthread_mutex_unlock(arg);
	return NULL;
}

static void test_locking(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	unsigned long got = run_counter();
	struct timespec ts;
	pthread_t t;
	bool early;
	int ret;

	tap_ok(got && got == pairs,
	       "mutual exclusion: %d threads x up to %d lock/timedlock/clocklock/trylock (or %d ms): counter %lu = pairs %lu",
	       NTHREADS, NITERS, BUDGET_MS, got, pairs);

	pthread_mutex_lock(&m);
	tap_ok(pthread_mutex_trylock(&m) == EBUSY && in_thread(trylock_other, &m) == EBUSY,
	       "trylock of a held mutex: EBUSY (owner and other thread)");
	ret = timed_other(&m, -1, (struct timespec){ 1, 0 }, NULL);
	tap_ok(ret == ETIMEDOUT, "timedlock, deadline in the past: ETIMEDOUT (%s)",
	       err_name(ret));
	ret = timed_other(&m, -1, ts_in(CLOCK_REALTIME, 50), &early);
	tap_ok(ret == ETIMEDOUT && !early, "timedlock +50 ms: ETIMEDOUT, not early (%s)",
	       err_name(ret));
	ret = timed_other(&m, CLOCK_MONOTONIC, ts_in(CLOCK_MONOTONIC, 50), &early);
	tap_ok(ret == ETIMEDOUT && !early,
	       "clocklock CLOCK_MONOTONIC +50 ms: ETIMEDOUT, not early (%s)", err_name(ret));
	ts = ts_in(CLOCK_REALTIME, 1000);
	ts.tv_nsec = 1000000000L;
	ret = timed_other(&m, -1, ts, NULL);
	tap_ok(ret == EINVAL, "timedlock, tv_nsec = 1e9: EINVAL (%s)", err_name(ret));
	ret = timed_other(&m, CLOCK_PROCESS_CPUTIME_ID, ts_in(CLOCK_MONOTONIC, 10), NULL);
	tap_ok(ret == EINVAL, "clocklock, CLOCK_PROCESS_CPUTIME_ID: EINVAL (%s)",
	       err_name(ret));
	pthread_mutex_unlock(&m);

	/* The shim must not clobber errno (glibc does not), even on a slow path. */
	pthread_create(&t, NULL, hold_thread, &m);
	while (__atomic_load_n(&hold_state, __ATOMIC_ACQUIRE) != 1)
		usleep(1000);
	errno = 4242;
	ts = ts_in(CLOCK_MONOTONIC, 10);
	ret = pthread_mutex_clocklock(&m, CLOCK_MONOTONIC, &ts);
	tap_ok(ret == ETIMEDOUT && errno == 4242,
	       "contended clocklock times out and leaves errno alone (%s, errno %d)",
	       err_name(ret), errno);
	__atomic_store_n(&hold_state, 2, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
}

/* ---- condition variables --------------------------------------------- */

#define QSIZE	4
static pthread_mutex_t qm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static long queue[QSIZE];
static int qhead, qlen;
static long consumed_sum, consumed_n;

static void *producer(void *arg)
{
	long base = (long)arg;

	for (long i = 1; i <= NITEMS; i++) {
		pthread_mutex_lock(&qm);
		while (qlen == QSIZE)
			pthread_cond_wait(&not_full, &qm);
		queue[(qhead + qlen++) % QSIZE] = base + i;
		pthread_cond_signal(&not_empty);
		pthread_mutex_unlock(&qm);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	long n = (long)arg, sum = 0;

	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&qm);
		while (qlen == 0)
			pthread_cond_wait(&not_empty, &qm);
		sum += queue[qhead];
		qhead = (qhead + 1) % QSIZE;
		qlen--;
		consumed_n++;
		pthread_mutex_unlock(&qm);
		/* Signal after the unlock: the other allowed pattern. */
		pthread_cond_signal(&not_full);
	}
	__atomic_add_fetch(&consumed_sum, sum, __ATOMIC_RELAXED);
	return NULL;
}

/* 2 producers, 2 consumers on a 4-slot queue; returns true if all arrived. */
static bool producer_consumer(void)
{
	pthread_t p[2], c[2];
	long want = 0;

	consumed_sum = consumed_n = 0;
	qhead = qlen = 0;
	for (long i = 0; i < 2; i++) {
		pthread_create(&p[i], NULL, producer, (void *)(i * 1000000));
		pthread_create(&c[i], NULL, consumer, (void *)(long)NITEMS);
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(p[i], NULL);
		pthread_join(c[i], NULL);
	}
	for (long i = 0; i < 2; i++)
		want += i * 1000000 * NITEMS + (long)NITEMS * (NITEMS + 1) / 2;
	return consumed_n == 2L * NITEMS && consumed_sum == want;
}

static pthread_mutex_t bm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t bc = PTHREAD_COND_INITIALIZER;
static int go, waiting, woken;

static void *broadcast_waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&bm);
	waiting++;
	while (!go)
		pthread_cond_wait(&bc, &bm);
	woken++;
	pthread_mutex_unlock(&bm);
	return NULL;
}

static bool held_by_me(pthread_mutex_t *m)
{
	if (tp)
		return m->__data.__lock == gettid_();
	return m->__data.__owner == gettid_();
}

static void cancel_unlock(void *arg)
{
	pthread_mutex_unlock(arg);
}

static void *cancel_waiter(void *arg)
{
	pthread_mutex_lock(&bm);
	pthread_cleanup_push(cancel_unlock, &bm);
	__atomic_store_n((int *)arg, 1, __ATOMIC_RELEASE);
	for (;;)
		pthread_cond_wait(&bc, &bm);
	pthread_cleanup_pop(1);
	return NULL;
}

static pthread_mutex_t rm = PTHREAD_MUTEX_INITIALIZER;	/* made recursive */
static pthread_cond_t rc = PTHREAD_COND_INITIALIZER;
static int rflag;

static void *recursive_waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&rm);
	while (!rflag)
		pthread_cond_wait(&rc, &rm);
	pthread_mutex_unlock(&rm);
	return NULL;
}

static void test_cond(void)
{
	pthread_condattr_t ca;
	pthread_cond_t mc;
	struct timespec ts, now;
	pthread_t t[4];
	int ret, started = 0;
	void *res;

	tap_ok(producer_consumer(), "producer/consumer: 2 x %d items through a %d-slot "
	       "queue, signal inside and outside the mutex", NITEMS, QSIZE);

	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, broadcast_waiter, NULL);
	for (;;) {
		pthread_mutex_lock(&bm);
		if (waiting == 4)
			break;
		pthread_mutex_unlock(&bm);
		usleep(1000);
	}
	go = 1;
	pthread_cond_broadcast(&bc);
	pthread_mutex_unlock(&bm);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	tap_ok(woken == 4, "broadcast wakes all 4 waiters (%d)", woken);

	pthread_mutex_lock(&bm);
	ts = ts_in(CLOCK_REALTIME, 50);
	ret = pthread_cond_timedwait(&bc, &bm, &ts);
	clock_gettime(CLOCK_REALTIME, &now);
	tap_ok(ret == ETIMEDOUT && held_by_me(&bm) &&
	       (now.tv_sec > ts.tv_sec || (now.tv_sec == ts.tv_sec && now.tv_nsec >= ts.tv_nsec)),
	       "cond_timedwait +50 ms: ETIMEDOUT, not early, mutex held again (%s)",
	       err_name(ret));
	ts.tv_nsec = 1000000000L;
	ret = pthread_cond_timedwait(&bc, &bm, &ts);
	tap_ok(ret == EINVAL && held_by_me(&bm),
	       "cond_timedwait, tv_nsec = 1e9: EINVAL, mutex still held (%s)", err_name(ret));
	ts = ts_in(CLOCK_MONOTONIC, 30);
	ret = pthread_cond_clockwait(&bc, &bm, CLOCK_MONOTONIC, &ts);
	clock_gettime(CLOCK_MONOTONIC, &now);
	tap_ok(ret == ETIMEDOUT && held_by_me(&bm) &&
	       (now.tv_sec > ts.tv_sec || (now.tv_sec == ts.tv_sec && now.tv_nsec >= ts.tv_nsec)),
	       "cond_clockwait CLOCK_MONOTONIC +30 ms: ETIMEDOUT, mutex held (%s)",
	       err_name(ret));
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&mc, &ca);
	ts = ts_in(CLOCK_MONOTONIC, 30);
	ret = pthread_cond_timedwait(&mc, &bm, &ts);
	clock_gettime(CLOCK_MONOTONIC, &now);
	tap_ok(ret == ETIMEDOUT && held_by_me(&bm) &&
	       (now.tv_sec > ts.tv_sec || (now.tv_sec == ts.tv_sec && now.tv_nsec >= ts.tv_nsec)),
	       "cond_timedwait on a CLOCK_MONOTONIC condvar: ETIMEDOUT, mutex held (%s)",
	       err_name(ret));
	pthread_cond_destroy(&mc);
	pthread_condattr_destroy(&ca);
	pthread_mutex_unlock(&bm);

	/* Cancellation in pthread_cond_wait: the cleanup handler owns the mutex. */
	pthread_create(&t[0], NULL, cancel_waiter, &started);
	while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
		usleep(1000);
	pthread_mutex_lock(&bm);	/* the waiter is in pthread_cond_wait */
	pthread_mutex_unlock(&bm);
	pthread_cancel(t[0]);
	pthread_join(t[0], &res);
	ret = pthread_mutex_trylock(&bm);
	tap_ok(res == PTHREAD_CANCELED && ret == 0,
	       "cancelled in cond_wait: the cleanup handler unlocked the mutex (trylock %s)",
	       err_name(ret));
	if (ret == 0)
		pthread_mutex_unlock(&bm);

	/* A condvar with a mutex the shim does not interpose. */
	init_mutex(&rm, PTHREAD_MUTEX_RECURSIVE, 0, 0, 0);
	pthread_create(&t[0], NULL, recursive_waiter, NULL);
	usleep(10000);
	pthread_mutex_lock(&rm);
	rflag = 1;
	pthread_cond_signal(&rc);
	pthread_mutex_unlock(&rm);
	tap_ok(pthread_join(t[0], NULL) == 0, "condvar with a RECURSIVE (glibc) mutex");
}

/* ---- fork() ---------------------------------------------------------- */

static pthread_mutex_t fm = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t am = PTHREAD_MUTEX_INITIALIZER;	/* atfork-protected */
static int fm_taken, hammer_stop;

static void *lock_inherited(void *arg)
{
	int ret = pthread_mutex_lock(arg);

	if (ret == 0) {
		__atomic_store_n(&fm_taken, 1, __ATOMIC_RELAXED);
		ret = pthread_mutex_unlock(arg);
	}
	return (void *)(long)ret;
}

static int child_checks(void)
{
	pthread_t t;
	void *ret;

	if (pthread_mutex_trylock(&fm) != EBUSY)
		return 1;
	if (pthread_create(&t, NULL, lock_inherited, &fm))
		return 2;
	usleep(50000);
	if (__atomic_load_n(&fm_taken, __ATOMIC_RELAXED))
		return 3;
	if (pthread_mutex_unlock(&fm) != 0)
		return 4;
	if (pthread_join(t, &ret) || ret != NULL || !fm_taken)
		return 5;
	if (pthread_mutex_lock(&fm) || !held_by_me(&fm) || pthread_mutex_unlock(&fm))
		return 6;
	if (pthread_mutex_lock(&am) || !held_by_me(&am) || pthread_mutex_unlock(&am))
		return 7;
	if (!run_counter() || counter != pairs)
		return 8;
	if (!producer_consumer())
		return 9;
	return 0;
}

static void atfork_prepare(void)
{
	pthread_mutex_lock(&am);
}

static void atfork_release(void)
{
	pthread_mutex_unlock(&am);
}

static void *hammer(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&hammer_stop, __ATOMIC_RELAXED)) {
		pthread_mutex_lock(&am);
		pthread_mutex_unlock(&am);
	}
	return NULL;
}

static void test_fork(void)
{
	int status = -1, code, bad = 0;
	pthread_t t;
	pid_t pid;

	pthread_atfork(atfork_prepare, atfork_release, atfork_release);
	pthread_create(&t, NULL, hammer, NULL);
	pthread_mutex_lock(&fm);
	pid = fork();
	if (pid == 0)
		_exit(child_checks());
	waitpid(pid, &status, 0);
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
	tap_ok(code == 0,
	       "fork with a held mutex and pthread_atfork handlers: the child unlocks it, "
	       "its threads wait for it, counter and condvars work (failed check %d)", code);
	tap_ok(pthread_mutex_unlock(&fm) == 0, "the parent unlocks its copy");

	/* Fork repeatedly while another thread uses the atfork-protected mutex. */
	for (int i = 0; i < 20 && !bad; i++) {
		pid = fork();
		if (pid == 0)
			_exit(pthread_mutex_lock(&am) || pthread_mutex_unlock(&am) ||
			      pthread_mutex_lock(&fm) || pthread_mutex_unlock(&fm));
		waitpid(pid, &status, 0);
		bad = !WIFEXITED(status) || WEXITSTATUS(status);
	}
	__atomic_store_n(&hammer_stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	tap_ok(!bad, "20 forks while another thread hammers an atfork-protected mutex");
}

int main(int argc, char **argv)
{
	int want, mode;

	if (argc != 2) {
		fprintf(stderr, "usage: %s tp|glibc|none|auto\n", argv[0]);
		return 2;
	}
	tap_plan(33, 300);
	mode = shim_mode();
	want = expected_mode(argv[1]);
	tp = mode == 1;
	tap_ok(mode == want, "shim mode: %s (expected %s)", mode_name(mode),
	       mode_name(want));
	test_kinds();
	test_locking();
	test_cond();
	test_fork();
	return tap_exit();
}
