// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tp-mutex: a user space mutex on TP futexes (FUTEX_LOCK / FUTEX_UNLOCK).
 * See tp-mutex.h for the interface and README.md for the design.
 *
 * TIDs and fork()
 * ---------------
 * The fast paths need the caller's TID, and gettid() is a system call, so
 * each thread caches it.  A child of fork() inherits the cache of the
 * forking thread, but has a new TID.  To notice that without depending on
 * the order of pthread_atfork() handlers (another library's child handler
 * may lock a mutex before ours runs), the cache is tagged with a fork
 * generation number that lives on a MADV_WIPEONFORK page: the child sees
 * the page zeroed, and the first of its threads to look starts a new
 * generation.  Every thread then refreshes its TID on its next operation.
 * (If madvise(MADV_WIPEONFORK) fails, a pthread_atfork() child handler
 * zeroes the generation instead.)
 *
 * A mutex that the forking thread held across fork() holds its old TID in
 * the child.  That thread can still unlock it: tp_word_unlock() recognises
 * its pre-fork TID, rewrites the owner to its new TID (the kernel allows
 * the owner TID of a TP futex to change under a waiter) and unlocks
 * normally.  Other threads of the child that try to lock such a mutex get
 * EPERM or ESRCH from FUTEX_LOCK (the TID names a thread of the parent, or
 * nobody); they poll until the forking thread has released it.  Mutexes
 * that other threads of the parent held at fork() time stay locked for
 * ever in the child, as with any pthread mutex (POSIX leaves them
 * undefined); locking one returns EPERM or ESRCH instead of hanging.
 */
#define _GNU_SOURCE
#include "tp-mutex.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The TP futex operations; the installed <linux/futex.h> may lack them. */
#ifndef FUTEX_LOCK
#define FUTEX_LOCK		14
#endif
#ifndef FUTEX_UNLOCK
#define FUTEX_UNLOCK		15
#endif
#ifndef FUTEX_TID_MASK
#define FUTEX_TID_MASK		0x3fffffff
#endif
#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK		18
#endif

#define NSEC_PER_SEC		1000000000L
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
/* initial-exec: no __tls_get_addr() call, also in libtp-shim.so. */
#define TP_TLS			__thread __attribute__((tls_model("initial-exec")))

/* futex(2) for the TP operations: the result, or -errno; errno is kept. */
static long tp_futex(uint32_t *word, int op, const struct timespec *timeout)
{
	int saved = errno;
	long ret = syscall(SYS_futex, word, op, 0, timeout, NULL, 0);

	if (ret < 0)
		ret = -errno;
	errno = saved;
	return ret;
}

/* Sleep 1 ms without being a cancellation point (pthread_mutex_lock is none). */
static void tp_pause(void)
{
	const struct timespec ms = { 0, 1000000 };
	int saved = errno;

	syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ms, NULL);
	errno = saved;
}

/* ---- TID cache and fork generations ---------------------------------- */

static TP_TLS pid_t self_tid;		/* cached gettid(), 0 = none yet */
static TP_TLS unsigned int self_gen;	/* generation self_tid belongs to */
static TP_TLS pid_t self_old_tid;	/* TID before the last fork(), or 0 */

static unsigned int boot_gen;		/* 0: forces the slow path until init */
static unsigned int nowipe_gen;		/* used if MADV_WIPEONFORK fails */
static unsigned int *fork_gen = &boot_gen;
static unsigned int gen_counter;
static pid_t forker_tid;		/* TID of the thread calling fork() */
static pid_t stale_tid;			/* in a child: forker_tid of its parent */
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void tp_fork_prepare(void)
{
	__atomic_store_n(&forker_tid, tp_self(), __ATOMIC_RELAXED);
}

static void tp_fork_child(void)
{
	__atomic_store_n(&nowipe_gen, 0, __ATOMIC_RELAXED);
}

static void tp_init(void)
{
	long pagesz = sysconf(_SC_PAGESIZE);
	unsigned int *gen = &nowipe_gen;
	int saved = errno;
	void *page;

	page = mmap(NULL, pagesz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page != MAP_FAILED) {
		if (madvise(page, pagesz, MADV_WIPEONFORK) == 0)
			gen = page;
		else
			munmap(page, pagesz);
	}
	__atomic_store_n(gen, __atomic_add_fetch(&gen_counter, 1, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&fork_gen, gen, __ATOMIC_RELEASE);
	pthread_atfork(tp_fork_prepare, NULL,
		       gen == &nowipe_gen ? tp_fork_child : NULL);
	errno = saved;
}

/* Set up early, so that pthread_atfork() is never called from a fork handler. */
static void __attribute__((constructor)) tp_ctor(void)
{
	pthread_once(&init_once, tp_init);
}

static pid_t __attribute__((noinline)) tp_self_slow(void)
{
	unsigned int *genp, gen, next;
	int saved = errno;
	pid_t tid;

	pthread_once(&init_once, tp_init);
	genp = __atomic_load_n(&fork_gen, __ATOMIC_ACQUIRE);
	gen = __atomic_load_n(genp, __ATOMIC_ACQUIRE);
	if (gen == 0) {
		/* The first look in a child of fork(): start a new generation. */
		__atomic_store_n(&stale_tid,
				 __atomic_load_n(&forker_tid, __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
		do
			next = __atomic_add_fetch(&gen_counter, 1, __ATOMIC_RELAXED);
		while (next == 0);
		if (__atomic_compare_exchange_n(genp, &gen, next, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			gen = next;
	}
	tid = syscall(SYS_gettid);
	if (self_tid && self_tid != tid)
		self_old_tid = self_tid;
	self_tid = tid;
	self_gen = gen;
	errno = saved;
	return tid;
}

static inline pid_t tp_self_fast(void)
{
	unsigned int gen;

	gen = __atomic_load_n(__atomic_load_n(&fork_gen, __ATOMIC_ACQUIRE),
			      __ATOMIC_RELAXED);
	if (likely(gen == self_gen && gen != 0))
		return self_tid;
	return tp_self_slow();
}

pid_t tp_self(void)
{
	return tp_self_fast();
}

/* ---- Lock and unlock ------------------------------------------------- */

static inline bool tp_cas(uint32_t *word, uint32_t *old, uint32_t new, int order)
{
	return __atomic_compare_exchange_n(word, old, new, false, order,
					   __ATOMIC_RELAXED);
}

static bool tp_expired(const struct timespec *abs, clockid_t clk)
{
	struct timespec now;

	clock_gettime(clk, &now);
	return now.tv_sec > abs->tv_sec ||
	       (now.tv_sec == abs->tv_sec && now.tv_nsec >= abs->tv_nsec);
}

/*
 * The word is held, under its pre-fork TID, by the thread that forked this
 * process: wait until that thread releases it (see the top of this file).
 */
static int tp_wait_stale(uint32_t *word, uint32_t owner,
			 const struct timespec *abs, clockid_t clk)
{
	while ((__atomic_load_n(word, __ATOMIC_RELAXED) & FUTEX_TID_MASK) == owner) {
		if (abs && tp_expired(abs, clk))
			return ETIMEDOUT;
		tp_pause();
	}
	return 0;
}

static int __attribute__((noinline))
tp_lock_slow(uint32_t *word, const struct timespec *abs, clockid_t clk, int flags)
{
	int op = FUTEX_LOCK | flags;
	uint32_t owner, before;
	long ret;
	int err;

	if (abs) {
		if (abs->tv_nsec < 0 || abs->tv_nsec >= NSEC_PER_SEC)
			return EINVAL;
		if (abs->tv_sec < 0)
			return ETIMEDOUT;
		if (clk == CLOCK_REALTIME)
			op |= FUTEX_CLOCK_REALTIME;
	}
	for (;;) {
		/* 0 stolen, 1 as top waiter, 2 handed off: we own it.  With
		 * FUTEX_OWNER_DIED set in the word too: see README.md. */
		before = __atomic_load_n(word, __ATOMIC_RELAXED) & FUTEX_TID_MASK;
		ret = tp_futex(word, op, abs);
		if (ret >= 0)
			return 0;
		switch (-ret) {
		case EINTR:		/* not expected: FUTEX_LOCK restarts */
			continue;
		case ENOMEM:
			tp_pause();
			continue;
		case EPERM:		/* owner TID names another process */
		case ESRCH:		/* or nobody, or a thread that exited */
			/* About an owner that has gone since?  Try again. */
			owner = __atomic_load_n(word, __ATOMIC_RELAXED) & FUTEX_TID_MASK;
			if (owner == 0 || owner != before)
				continue;
			if (owner == (uint32_t)self_old_tid)
				return EDEADLK;
			if (owner == (uint32_t)__atomic_load_n(&stale_tid, __ATOMIC_RELAXED)) {
				err = tp_wait_stale(word, owner, abs, clk);
				if (err)
					return err;
				continue;
			}
			return -ret;
		default:
			return -ret;
		}
	}
}

int tp_word_lock(uint32_t *word, int flags)
{
	uint32_t zero = 0;

	if (likely(tp_cas(word, &zero, tp_self_fast(), __ATOMIC_ACQUIRE)))
		return 0;
	return tp_lock_slow(word, NULL, CLOCK_MONOTONIC, flags);
}

int tp_word_timedlock(uint32_t *word, const struct timespec *abstime,
		      clockid_t clk, int flags)
{
	uint32_t zero = 0;

	if (clk != CLOCK_MONOTONIC && clk != CLOCK_REALTIME)
		return EINVAL;
	if (likely(tp_cas(word, &zero, tp_self_fast(), __ATOMIC_ACQUIRE)))
		return 0;
	return tp_lock_slow(word, abstime, clk, flags);
}

int tp_word_trylock(uint32_t *word)
{
	uint32_t tid = tp_self_fast(), val = 0;

	if (likely(tp_cas(word, &val, tid, __ATOMIC_ACQUIRE)))
		return 0;
	/* A free word may keep flag bits (a robust list released it). */
	while (!(val & FUTEX_TID_MASK))
		if (tp_cas(word, &val, val | tid, __ATOMIC_ACQUIRE))
			return 0;
	return EBUSY;
}

static int __attribute__((noinline))
tp_unlock_slow(uint32_t *word, uint32_t tid, uint32_t val, int flags)
{
	uint32_t old = self_old_tid;
	long ret;

	if ((val & FUTEX_TID_MASK) != tid) {
		/* Held across fork() by this thread, under its old TID? */
		if (old == 0 || (val & FUTEX_TID_MASK) != old)
			return EPERM;
		while (!tp_cas(word, &val, (val & ~FUTEX_TID_MASK) | tid,
			       __ATOMIC_RELAXED))
			if ((val & FUTEX_TID_MASK) != old)
				return EPERM;
		val = (val & ~FUTEX_TID_MASK) | tid;
		if (val == tid && tp_cas(word, &val, 0, __ATOMIC_RELEASE))
			return 0;
	}
	/* FUTEX_WAITERS or FUTEX_OWNER_DIED is set: let the kernel release it. */
	ret = tp_futex(word, FUTEX_UNLOCK | flags, NULL);
	return ret < 0 ? (int)-ret : 0;
}

int tp_word_unlock(uint32_t *word, int flags)
{
	uint32_t tid = tp_self_fast(), val = tid;

	if (likely(tp_cas(word, &val, 0, __ATOMIC_RELEASE)))
		return 0;
	return tp_unlock_slow(word, tid, val, flags);
}

/* ---- tp_mutex_t and the probe ---------------------------------------- */

int tp_mutex_lock(tp_mutex_t *m)
{
	return tp_word_lock(&m->word, FUTEX_PRIVATE_FLAG);
}

int tp_mutex_trylock(tp_mutex_t *m)
{
	return tp_word_trylock(&m->word);
}

int tp_mutex_timedlock(tp_mutex_t *m, const struct timespec *abstime,
		       clockid_t clk)
{
	return tp_word_timedlock(&m->word, abstime, clk, FUTEX_PRIVATE_FLAG);
}

int tp_mutex_unlock(tp_mutex_t *m)
{
	return tp_word_unlock(&m->word, FUTEX_PRIVATE_FLAG);
}

int tp_probe(void)
{
	static int result = -1;
	int res = __atomic_load_n(&result, __ATOMIC_RELAXED);
	uint32_t word = 0;
	long ret;

	if (res >= 0)
		return res;
	/* FUTEX_UNLOCK(2const): EPERM, "the caller does not own the lock". */
	ret = tp_futex(&word, FUTEX_UNLOCK | FUTEX_PRIVATE_FLAG, NULL);
	if (ret == -EPERM) {
		/*
		 * A seccomp filter may fail unknown operations with EPERM too:
		 * also check that FUTEX_LOCK of a word we own says EDEADLK
		 * (FUTEX_LOCK(2const)), which it does before it could block.
		 */
		word = tp_self_fast();
		ret = tp_futex(&word, FUTEX_LOCK | FUTEX_PRIVATE_FLAG, NULL);
		ret = ret == -EDEADLK ? 0 : ret;
	}
	res = ret < 0 ? (int)-ret : ret > 0 ? EPROTO : 0;
	__atomic_store_n(&result, res, __ATOMIC_RELAXED);
	return res;
}

bool tp_supported(void)
{
	return tp_probe() == 0;
}
