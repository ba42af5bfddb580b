// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of tp-mutex (tp-mutex.h) on the kernel's FUTEX_LOCK and
 * FUTEX_UNLOCK.  On a kernel without TP futexes they skip, saying why.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../tp-mutex.h"
#include "tap.h"

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

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

static uint32_t word(const tp_mutex_t *m)
{
	return __atomic_load_n(&m->word, __ATOMIC_RELAXED);
}

/* Run fn(arg) in a new thread and return what it returned. */
static long in_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	void *ret;

	if (pthread_create(&t, NULL, fn, arg) || pthread_join(t, &ret))
		return -1;
	return (long)ret;
}

/* ---- basic ----------------------------------------------------------- */

static tp_mutex_t m1 = TP_MUTEX_INITIALIZER;

static void *try_other(void *arg)
{
	return (void *)(long)tp_mutex_trylock(arg);
}

static void *unlock_other(void *arg)
{
	return (void *)(long)tp_mutex_unlock(arg);
}

static void test_basic(void)
{
	pid_t tid = gettid_();
	int ret;

	ret = tp_mutex_lock(&m1);
	tap_ok(ret == 0 && word(&m1) == (uint32_t)tid,
	       "lock: returns 0, word = TID (ret %s, word %#x)", err_name(ret), word(&m1));
	ret = tp_mutex_lock(&m1);
	tap_ok(ret == EDEADLK, "relock by the owner: EDEADLK (%s)", err_name(ret));
	ret = tp_mutex_trylock(&m1);
	tap_ok(ret == EBUSY, "trylock by the owner: EBUSY (%s)", err_name(ret));
	ret = in_thread(try_other, &m1);
	tap_ok(ret == EBUSY, "trylock by another thread: EBUSY (%s)", err_name(ret));
	ret = in_thread(unlock_other, &m1);
	tap_ok(ret == EPERM && word(&m1) == (uint32_t)tid,
	       "unlock by a non-owner: EPERM, word unchanged (%s)", err_name(ret));
	ret = tp_mutex_unlock(&m1);
	tap_ok(ret == 0 && word(&m1) == 0, "unlock: returns 0, word = 0 (%s)", err_name(ret));
	ret = tp_mutex_unlock(&m1);
	tap_ok(ret == EPERM, "unlock of a free mutex: EPERM (%s)", err_name(ret));
	ret = in_thread(try_other, &m1);
	tap_ok(ret == 0 && word(&m1) != 0, "trylock of a free mutex: 0 (%s)", err_name(ret));
	m1.word = 0;
}

/* ---- mutual exclusion ------------------------------------------------ */

static tp_mutex_t cm = TP_MUTEX_INITIALIZER;
static unsigned long counter;		/* protected by cm, not atomic */
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

		switch ((id + i) % 3) {
		case 0:
			ret = tp_mutex_lock(&cm);
			break;
		case 1:
			far = ts_in(CLOCK_MONOTONIC, 60000);
			ret = tp_mutex_timedlock(&cm, &far, CLOCK_MONOTONIC);
			break;
		default:
			while ((ret = tp_mutex_trylock(&cm)) == EBUSY)
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
		if (tp_mutex_unlock(&cm))
			errors++;
	}
	__atomic_add_fetch(&pairs, done, __ATOMIC_RELAXED);
	if (done < MIN_PAIRS)
		errors++;
	return (void *)errors;
}

static unsigned long run_counter(int nthreads)
{
	pthread_t t[NTHREADS];
	long errors = 0;
	void *ret;

	counter = 0;
	pairs = 0;
	stop_at = ts_in(CLOCK_MONOTONIC, BUDGET_MS);
	for (long i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, count_thread, (void *)i);
	for (int i = 0; i < nthreads; i++) {
		pthread_join(t[i], &ret);
		errors += (long)ret;
	}
	return errors ? 0 : counter;
}

static void test_counter(void)
{
	unsigned long got = run_counter(NTHREADS);

	tap_ok(got && got == pairs && word(&cm) == 0,
	       "mutual exclusion: %d threads x up to %d lock/timedlock/trylock (or %d ms): counter %lu = pairs %lu",
	       NTHREADS, NITERS, BUDGET_MS, got, pairs);
}

/* ---- timed locking --------------------------------------------------- */

struct timed {
	tp_mutex_t *m;
	clockid_t clk;
	struct timespec abs;
	long ms;			/* out: time spent */
	bool early;			/* out: returned before abs */
	long late_ms;			/* out: returned this long after abs */
};

static void *timed_thread(void *arg)
{
	struct timed *t = arg;
	struct timespec start, now;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &start);
	ret = tp_mutex_timedlock(t->m, &t->abs, t->clk);
	t->ms = ms_since(&start);
	clock_gettime(t->clk, &now);
	t->early = now.tv_sec < t->abs.tv_sec ||
		   (now.tv_sec == t->abs.tv_sec && now.tv_nsec < t->abs.tv_nsec);
	t->late_ms = (now.tv_sec - t->abs.tv_sec) * 1000 +
		     (now.tv_nsec - t->abs.tv_nsec) / 1000000;
	if (ret == 0)
		tp_mutex_unlock(t->m);
	return (void *)(long)ret;
}

static int timed_other(tp_mutex_t *m, clockid_t clk, struct timespec abs,
		       long *late_ms, bool *early)
{
	struct timed t = { m, clk, abs, 0, false, 0 };
	int ret = in_thread(timed_thread, &t);

	if (late_ms)
		*late_ms = t.late_ms;
	if (early)
		*early = t.early;
	return ret;
}

static void test_timed(void)
{
	tp_mutex_t m = TP_MUTEX_INITIALIZER;
	struct timed tw;
	struct timespec ts;
	bool early;
	pthread_t t;
	void *res;
	long ms;
	int ret;

	ret = tp_mutex_timedlock(&m, &(struct timespec){ 0, 0 }, CLOCK_MONOTONIC);
	tap_ok(ret == 0, "timedlock of a free mutex with an expired deadline: 0 (%s)",
	       err_name(ret));
	tp_mutex_unlock(&m);
	ret = tp_mutex_timedlock(&m, &(struct timespec){ 0, 1000000000L }, CLOCK_REALTIME);
	tap_ok(ret == 0, "timedlock of a free mutex with tv_nsec = 1e9: 0 (%s)",
	       err_name(ret));
	tp_mutex_unlock(&m);
	ts = ts_in(CLOCK_MONOTONIC, 1000);
	ret = tp_mutex_timedlock(&m, &ts, CLOCK_PROCESS_CPUTIME_ID);
	tap_ok(ret == EINVAL, "timedlock with CLOCK_PROCESS_CPUTIME_ID: EINVAL (%s)",
	       err_name(ret));

	tp_mutex_lock(&m);
	ret = timed_other(&m, CLOCK_MONOTONIC, (struct timespec){ 1, 0 }, NULL, NULL);
	tap_ok(ret == ETIMEDOUT, "contended timedlock, deadline in the past: ETIMEDOUT (%s)",
	       err_name(ret));
	ret = timed_other(&m, CLOCK_MONOTONIC, ts_in(CLOCK_MONOTONIC, 50), &ms, &early);
	tap_ok(ret == ETIMEDOUT && !early,
	       "contended timedlock, CLOCK_MONOTONIC +50 ms: ETIMEDOUT, not early, %ld ms after the deadline (%s)",
	       ms, err_name(ret));
	ret = timed_other(&m, CLOCK_REALTIME, ts_in(CLOCK_REALTIME, 50), &ms, &early);
	tap_ok(ret == ETIMEDOUT && !early,
	       "contended timedlock, CLOCK_REALTIME +50 ms: ETIMEDOUT, not early, %ld ms after the deadline (%s)",
	       ms, err_name(ret));
	ts = ts_in(CLOCK_MONOTONIC, 1000);
	ts.tv_nsec = 1000000000L;
	ret = timed_other(&m, CLOCK_MONOTONIC, ts, NULL, NULL);
	tap_ok(ret == EINVAL, "contended timedlock, tv_nsec = 1e9: EINVAL (%s)",
	       err_name(ret));
	ts.tv_nsec = -1;
	ret = timed_other(&m, CLOCK_MONOTONIC, ts, NULL, NULL);
	tap_ok(ret == EINVAL, "contended timedlock, tv_nsec = -1: EINVAL (%s)",
	       err_name(ret));
	ret = timed_other(&m, CLOCK_REALTIME, (struct timespec){ -1, 0 }, NULL, NULL);
	tap_ok(ret == ETIMEDOUT, "contended timedlock, tv_sec = -1: ETIMEDOUT (%s)",
	       err_name(ret));

	/* A waiter with a distant deadline gets the lock when it is released. */
	tw = (struct timed){ &m, CLOCK_MONOTONIC, ts_in(CLOCK_MONOTONIC, 10000), 0, false, 0 };
	pthread_create(&t, NULL, timed_thread, &tw);
	usleep(30000);
	tp_mutex_unlock(&m);
	pthread_join(t, &res);
	tap_ok(res == NULL, "contended timedlock, released after 30 ms: 0 after %ld ms (%s)",
	       tw.ms, err_name((long)res));
	tap_ok(word(&m) == 0, "word is 0 after all that (%#x)", word(&m));
}

/* ---- fork() ---------------------------------------------------------- */

static tp_mutex_t fm = TP_MUTEX_INITIALIZER;
static int fm_taken;

static void *lock_stale(void *arg)
{
	int ret = tp_mutex_lock(arg);

	if (ret == 0) {
		__atomic_store_n(&fm_taken, 1, __ATOMIC_RELAXED);
		ret = tp_mutex_unlock(arg);
	}
	return (void *)(long)ret;
}

/* In the child; returns 0 or the number of the failed check. */
static int child_checks(void)
{
	pthread_t t;
	void *ret;

	if (tp_self() != gettid_())
		return 1;
	if (tp_mutex_trylock(&fm) != EBUSY)
		return 2;
	if (tp_mutex_lock(&fm) != EDEADLK)
		return 3;
	/* Another thread of the child contends for the inherited lock. */
	if (pthread_create(&t, NULL, lock_stale, &fm))
		return 4;
	usleep(50000);
	if (__atomic_load_n(&fm_taken, __ATOMIC_RELAXED))
		return 5;
	if (tp_mutex_unlock(&fm) != 0)
		return 6;
	if (pthread_join(t, &ret) || ret != NULL || !fm_taken)
		return 7;
	if (tp_mutex_lock(&fm) || word(&fm) != (uint32_t)gettid_() ||
	    tp_mutex_unlock(&fm) || word(&fm) != 0)
		return 8;
	if (!run_counter(NTHREADS) || counter != pairs)
		return 9;
	return 0;
}

static void test_fork(void)
{
	int status = -1, code;
	pid_t pid;

	tp_mutex_lock(&fm);
	pid = fork();
	if (pid == 0)
		_exit(child_checks());
	waitpid(pid, &status, 0);
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
	tap_ok(code == 0,
	       "fork with a held mutex: the child's TID, EDEADLK/EBUSY on relock, a "
	       "second thread waits, the forking thread unlocks, counter (failed check %d)",
	       code);
	tap_ok(tp_mutex_unlock(&fm) == 0 && word(&fm) == 0,
	       "the parent still owns and unlocks its copy");
}

/* ---- owner died ------------------------------------------------------ */

static tp_mutex_t dm = TP_MUTEX_INITIALIZER;
static pid_t dm_owner;

static void *die_holding(void *arg)
{
	int *ready = arg;

	tp_mutex_lock(&dm);
	dm_owner = gettid_();
	__atomic_store_n(ready, 1, __ATOMIC_RELEASE);
	/* Exit once the main thread sleeps in FUTEX_LOCK on us. */
	for (int i = 0; i < 10000 && !(word(&dm) & FUTEX_WAITERS); i++)
		usleep(1000);
	return NULL;
}

/*
 * The owner exits holding the lock, which is on no robust list (the
 * library has none), so the kernel never makes another thread the owner:
 * the waiter gets ESRCH once the owner has exited, and so does a later
 * caller.  The word keeps the dead owner's TID, plus the FUTEX_WAITERS bit
 * of the waiter, and never gets FUTEX_OWNER_DIED.  Initialising the mutex
 * again is the recovery.
 */
static void test_owner_died(void)
{
	int ready = 0, ret;
	uint32_t w, dead;
	pthread_t t;

	pthread_create(&t, NULL, die_holding, &ready);
	while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
		usleep(1000);
	dead = (uint32_t)dm_owner;
	ret = tp_mutex_lock(&dm);
	w = word(&dm);
	tap_ok(ret == ESRCH && (w & ~FUTEX_WAITERS) == dead,
	       "owner exits holding the lock: the waiter gets ESRCH, the word keeps "
	       "the dead owner's TID %u (%s, word %#x)", dead, err_name(ret), w);
	pthread_join(t, NULL);
	ret = tp_mutex_lock(&dm);
	tap_ok(ret == ESRCH && word(&dm) == w,
	       "a later lock: ESRCH, word unchanged (%s, word %#x)", err_name(ret),
	       word(&dm));
	dm = (tp_mutex_t)TP_MUTEX_INITIALIZER;
	ret = tp_mutex_lock(&dm);
	w = word(&dm);
	if (ret == 0)
		ret = tp_mutex_unlock(&dm);
	tap_ok(ret == 0 && w == (uint32_t)gettid_() && word(&dm) == 0,
	       "initialised again, it locks and unlocks: word 0 (%s, word %#x while held)",
	       err_name(ret), w);
}

int main(void)
{
	int err = tp_probe();
	char reason[96];

	if (err) {
		snprintf(reason, sizeof(reason),
			 "kernel has no FUTEX_LOCK/FUTEX_UNLOCK (probe: %s)",
			 err_name(err));
		tap_skip_all(reason);
	}
	tap_plan(26, 300);
	tap_ok(tp_supported(), "tp_supported()");
	test_basic();
	test_counter();
	test_timed();
	test_fork();
	test_owner_died();
	return tap_exit();
}
