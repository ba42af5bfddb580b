/* timeout: 90 */
// SPDX-License-Identifier: GPL-2.0
/*
 * tp-badinput: table test of every invalid argument combination of the
 * TP futex ops FUTEX_LOCK (14) / FUTEX_UNLOCK (15).
 *
 * One TAP line per row: "<op> <case>: expected <errno|value> got <...>".
 * Every expected errno is one listed for that op in tests/contract/tp-futex-abi.tsv
 * (checked by tests/contract/stress-abi-check.sh, which parses the EXPECT_ERR() uses below).
 * After every error return the row also checks that the caller does not own the
 * word (ownership consistency).
 *
 * On a kernel without the series (FUTEX_LOCK -> ENOSYS) the whole test SKIPs.
 * Exit: 0 pass, 4 skip, 1 fail.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "tp-futex.h"

/* Unknown op bits: not PRIVATE(0x80) nor CLOCK_REALTIME(0x100). */
#define UNKNOWN_BIT_A	0x200
#define UNKNOWN_BIT_B	0x40000000

/*
 * Expected errno for unknown op bits.  6.12 do_futex() dispatches on
 * cmd = op & FUTEX_CMD_MASK, so FUTEX_LOCK|0x200 is an unknown command and the
 * futex syscall answers -ENOSYS (as for every unknown cmd); the same holds for
 * FUTEX_UNLOCK|FUTEX_CLOCK_REALTIME (CLOCK_REALTIME is only accepted for
 * WAIT_BITSET, WAIT_REQUEUE_PI, LOCK_PI2 and, with the series, FUTEX_LOCK).
 */
#define EXP_UNKNOWN_BITS ENOSYS

/*
 * From 7.2 (uapi FUTEX_ROBUST_UNLOCK), 0x200 on FUTEX_UNLOCK is the robust-unlock flag,
 * which the series accepts there (its futex_tp_robust selftest covers it); the unknown
 * bit for FUTEX_UNLOCK is then only UNKNOWN_BIT_B.  FUTEX_LOCK refuses both everywhere.
 */
#ifdef FUTEX_ROBUST_UNLOCK
#define UNLOCK_UNKNOWN_BIT	UNKNOWN_BIT_B
#else
#define UNLOCK_UNKNOWN_BIT	UNKNOWN_BIT_A
#endif

static volatile int row_started;	/* watchdog: seconds counter of the current row */
static pid_t mytid;

static const char *ename(long v)
{
	static char buf[4][32];
	static int i;
	char *b = buf[i++ & 3];

	if (v >= 0) {
		snprintf(b, 32, "%ld", v);
		return b;
	}
	switch (-v) {
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case EPERM: return "EPERM";
	case EDEADLK: return "EDEADLK";
	case ETIMEDOUT: return "ETIMEDOUT";
	case ENOSYS: return "ENOSYS";
	case ENOMEM: return "ENOMEM";
	case EINTR: return "EINTR";
	case EAGAIN: return "EAGAIN";
	case ESRCH: return "ESRCH";
	}
	snprintf(b, 32, "errno%ld", -v);
	return b;
}

static const char *opname(int op)
{
	static char buf[4][64];
	static int i;
	char *b = buf[i++ & 3];
	int cmd = op & 0x7f;

	snprintf(b, 64, "%s%s%s", cmd == FUTEX_LOCK ? "FUTEX_LOCK" :
		 cmd == FUTEX_UNLOCK ? "FUTEX_UNLOCK" : "FUTEX_?",
		 (op & FUTEX_PRIVATE_FLAG) ? "_PRIVATE" : "",
		 (op & FUTEX_CLOCK_REALTIME) ? "|CLOCK_REALTIME" : "");
	if (op & ~(0x7f | FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)) {
		size_t l = strlen(b);

		snprintf(b + l, 64 - l, "|0x%x", op & ~(0x7f | FUTEX_PRIVATE_FLAG |
							FUTEX_CLOCK_REALTIME));
	}
	return b;
}

/* One TAP line per row (kselftest.h has no va_list variant: format it here). */
static void __printf(2, 3) report(int ok, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ksft_test_result(ok, "%s\n", line);
	row_started = 0;
}

/*
 * A row expecting an errno.  "word" (may be NULL when unreadable) must not be
 * owned by the caller after the error.
 */
#define EXPECT_ERR(op, desc, got, err, word) \
	expect_err(op, desc, got, err, word)

static void expect_err(int op, const char *desc, long got, int err, volatile uint32_t *word)
{
	int own = word && (*word & FUTEX_TID_MASK) == (uint32_t)mytid;

	report(got == -err && !own, "%s %s: expected %s got %s%s", opname(op), desc,
	       ename(-err), ename(got), own ? " (but caller owns the word)" : "");
}

/* ---------- memory helpers ---------- */

static long pagesz;

static uint32_t *map_page(int prot)
{
	void *p = mmap(NULL, pagesz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		ksft_exit_fail_perror("mmap");
	memset(p, 0, pagesz);
	if (prot != (PROT_READ | PROT_WRITE) && mprotect(p, pagesz, prot))
		ksft_exit_fail_perror("mprotect");
	return p;
}

static void *unmapped_addr(void)
{
	void *p = map_page(PROT_READ | PROT_WRITE);

	munmap(p, pagesz);
	return p;
}

/* user-space unlock per the ABI: cmpxchg TID -> 0, else FUTEX_UNLOCK */
static long tp_unlock(uint32_t *w, int priv)
{
	uint32_t tid = (uint32_t)tp_gettid();

	if (__sync_bool_compare_and_swap(w, tid, 0))
		return 0;
	return tp_futex_unlock(w, priv);
}

/* ---------- holder thread: owns a word until told to release ---------- */

struct holder {
	pthread_t th;
	uint32_t *word;
	int priv;
	int pi;			/* 1: release with FUTEX_UNLOCK_PI */
	volatile pid_t tid;
	volatile int release;
	volatile long unlock_ret;
};

static void *holder_fn(void *arg)
{
	struct holder *h = arg;

	h->tid = tp_gettid();
	while (!__sync_bool_compare_and_swap(h->word, 0, (uint32_t)h->tid))
		sched_yield();
	__sync_synchronize();
	while (!h->release)
		usleep(1000);
	if (h->pi) {
		if (__sync_bool_compare_and_swap(h->word, (uint32_t)h->tid, 0))
			h->unlock_ret = 0;
		else
			h->unlock_ret = tp_futex(h->word, FUTEX_UNLOCK_PI | h->priv, 0, NULL);
	} else {
		h->unlock_ret = tp_unlock(h->word, h->priv);
	}
	return NULL;
}

static void holder_start(struct holder *h, uint32_t *w, int priv, int pi)
{
	memset(h, 0, sizeof(*h));
	h->word = w;
	h->priv = priv;
	h->pi = pi;
	if (pthread_create(&h->th, NULL, holder_fn, h))
		ksft_exit_fail_msg("pthread_create failed\n");
	while (!h->tid || (*w & FUTEX_TID_MASK) != (uint32_t)h->tid)
		usleep(1000);
}

static long holder_stop(struct holder *h)
{
	h->release = 1;
	pthread_join(h->th, NULL);
	return h->unlock_ret;
}

/* ---------- PI waiter thread: blocks in FUTEX_LOCK_PI on a word ---------- */

struct piwaiter {
	pthread_t th;
	uint32_t *word;
	int priv;
	volatile pid_t tid;
	volatile long lock_ret, unlock_ret;
};

static void *piwaiter_fn(void *arg)
{
	struct piwaiter *p = arg;

	p->tid = tp_gettid();
	p->lock_ret = tp_futex(p->word, FUTEX_LOCK_PI | p->priv, 0, NULL);
	if (p->lock_ret == 0 &&
	    !__sync_bool_compare_and_swap(p->word, (uint32_t)p->tid, 0))
		p->unlock_ret = tp_futex(p->word, FUTEX_UNLOCK_PI | p->priv, 0, NULL);
	return NULL;
}

static void piwaiter_start(struct piwaiter *p, uint32_t *w, int priv)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->word = w;
	p->priv = priv;
	p->lock_ret = 1;
	if (pthread_create(&p->th, NULL, piwaiter_fn, p))
		ksft_exit_fail_msg("pthread_create failed\n");
	/* FUTEX_WAITERS is set by the kernel once the PI state is attached */
	for (i = 0; i < 5000 && !(*w & FUTEX_WAITERS); i++)
		usleep(1000);
	usleep(20000);
}

/* ---------- watchdog: a hung row must not hang the suite ---------- */

static void *watchdog_fn(void *arg)
{
	(void)arg;
	for (;;) {
		sleep(1);
		if (++row_started > 20) {
			/* not ksft_exit_fail_msg(): exit() from here would race the hung row */
			printf("Bail out! row %u hung for 20s (a FUTEX_LOCK/UNLOCK call did not return)\n",
			       ksft_test_num() + 1);
			ksft_print_cnts();
			fflush(stdout);
			_exit(KSFT_FAIL);
		}
	}
	return NULL;
}

/* ---------- the table ---------- */

static void kernel_addrs(void **a, int *n)
{
	int i = 0;
#if defined(__x86_64__)
	a[i++] = (void *)0xffff888000000000UL;	/* direct map */
	a[i++] = (void *)0xffffffff81000000UL;	/* kernel text */
	a[i++] = (void *)0x0000800000000000UL;	/* first non-canonical above TASK_SIZE */
#elif defined(__aarch64__)
	a[i++] = (void *)0xffff800000000000UL;	/* start of kernel VA (48-bit) */
	a[i++] = (void *)0xffff000000000000UL;	/* linear map */
	a[i++] = (void *)0x0001000000000000UL;	/* above TASK_SIZE for 48-bit VA */
#else
	a[i++] = (void *)(~0UL - 3);
#endif
	a[i++] = (void *)(~0UL & ~3UL);	/* top of the address space */
	*n = i;
}

static void rows_for(int priv)
{
	const int L = FUTEX_LOCK | priv, U = FUTEX_UNLOCK | priv;
	uint32_t *w = map_page(PROT_READ | PROT_WRITE);
	uint32_t *ro = map_page(PROT_READ);
	struct holder h;
	struct piwaiter pw;
	struct timespec ts, *bad_ts = unmapped_addr();
	void *kaddr[8];
	char d[96];
	long r, r2;
	int i, nk, off;

	/* --- address checks --- */
	for (off = 1; off < 4; off++) {
		snprintf(d, sizeof(d), "unaligned uaddr (+%d)", off);
		w[0] = 0;
		EXPECT_ERR(L, d, tp_futex((char *)w + off, L, 0, NULL), EINVAL, w);
		w[0] = (uint32_t)mytid;	/* would be "ours" if the alignment were ignored */
		EXPECT_ERR(U, d, tp_futex((char *)w + off, U, 0, NULL), EINVAL, NULL);
		w[0] = 0;
	}
	EXPECT_ERR(L, "NULL uaddr", tp_futex(NULL, L, 0, NULL), EFAULT, NULL);
	EXPECT_ERR(U, "NULL uaddr", tp_futex(NULL, U, 0, NULL), EFAULT, NULL);
	EXPECT_ERR(L, "unmapped uaddr", tp_futex(unmapped_addr(), L, 0, NULL), EFAULT, NULL);
	EXPECT_ERR(U, "unmapped uaddr", tp_futex(unmapped_addr(), U, 0, NULL), EFAULT, NULL);
	kernel_addrs(kaddr, &nk);
	for (i = 0; i < nk; i++) {
		snprintf(d, sizeof(d), "kernel/high uaddr %p", kaddr[i]);
		EXPECT_ERR(L, d, tp_futex(kaddr[i], L, 0, NULL), EFAULT, NULL);
		EXPECT_ERR(U, d, tp_futex(kaddr[i], U, 0, NULL), EFAULT, NULL);
	}

	/* read-only mapping (PROT_READ): the kernel cannot write the word */
	EXPECT_ERR(L, "read-only uaddr, word 0", tp_futex(ro, L, 0, NULL), EFAULT, ro);
	{
		uint32_t *rw = map_page(PROT_READ | PROT_WRITE);

		holder_start(&h, rw, priv, 0);
		mprotect(rw, pagesz, PROT_READ);
		ts = tp_abs_timeout_ms(CLOCK_MONOTONIC, 1000);
		EXPECT_ERR(L, "read-only uaddr, held by other thread",
			   tp_futex(rw, L, 0, &ts), EFAULT, rw);
		mprotect(rw, pagesz, PROT_READ | PROT_WRITE);
		holder_stop(&h);

		rw[0] = (uint32_t)mytid;
		mprotect(rw, pagesz, PROT_READ);
		EXPECT_ERR(U, "read-only uaddr, word = own TID", tp_futex(rw, U, 0, NULL), EFAULT, NULL);
		mprotect(rw, pagesz, PROT_READ | PROT_WRITE);
		rw[0] = (uint32_t)mytid | FUTEX_WAITERS;
		mprotect(rw, pagesz, PROT_READ);
		EXPECT_ERR(U, "read-only uaddr, word = own TID|WAITERS",
			   tp_futex(rw, U, 0, NULL), EFAULT, NULL);
		munmap(rw, pagesz);
	}

	/* use after munmap: the lock word's mapping disappears while held */
	{
		uint32_t *m = map_page(PROT_READ | PROT_WRITE);

		m[0] = (uint32_t)mytid;
		munmap(m, pagesz);
		EXPECT_ERR(U, "after munmap of the held word", tp_futex(m, U, 0, NULL), EFAULT, NULL);
		EXPECT_ERR(L, "after munmap of the held word", tp_futex(m, L, 0, NULL), EFAULT, NULL);
	}

	/* --- timeouts --- */
	{
		static const struct { long sec, nsec; const char *what; } bad[] = {
			{ 0, -1, "tv_nsec = -1" },
			{ 0, 1000000000L, "tv_nsec = 1e9" },
			{ 0, 0x7fffffffffffffffL, "tv_nsec = LONG_MAX" },
			{ -1, 0, "tv_sec = -1" },
			{ -1, -1, "tv_sec = -1, tv_nsec = -1" },
		};
		for (i = 0; i < (int)ARRAY_SIZE(bad); i++) {
			ts.tv_sec = bad[i].sec;
			ts.tv_nsec = bad[i].nsec;
			w[0] = 0;
			snprintf(d, sizeof(d), "bad timespec %s, word free", bad[i].what);
			EXPECT_ERR(L, d, tp_futex(w, L, 0, &ts), EINVAL, w);
			w[0] = 0;
			holder_start(&h, w, priv, 0);
			snprintf(d, sizeof(d), "bad timespec %s, word held", bad[i].what);
			EXPECT_ERR(L, d, tp_futex(w, L, 0, &ts), EINVAL, w);
			holder_stop(&h);
			w[0] = 0;
		}
		/* unreadable timeout pointer */
		holder_start(&h, w, priv, 0);
		EXPECT_ERR(L, "unmapped timeout pointer", tp_futex(w, L, 0, bad_ts), EFAULT, w);
		EXPECT_ERR(L, "kernel timeout pointer", tp_futex(w, L, 0, kaddr[0]), EFAULT, w);

		/* expired / short absolute timeouts on a held word */
		ts.tv_sec = 0;
		ts.tv_nsec = 1;
		EXPECT_ERR(L, "absolute timeout in the past (monotonic)", tp_futex(w, L, 0, &ts),
			   ETIMEDOUT, w);
		EXPECT_ERR(L | FUTEX_CLOCK_REALTIME, "absolute timeout in the past (realtime)",
			   tp_futex(w, L | FUTEX_CLOCK_REALTIME, 0, &ts), ETIMEDOUT, w);
		{
			struct timespec t0, t1;
			long ms;

			clock_gettime(CLOCK_MONOTONIC, &t0);
			ts = tp_abs_timeout_ms(CLOCK_MONOTONIC, 100);
			r = tp_futex(w, L, 0, &ts);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
			report(r == -ETIMEDOUT && ms >= 99 && ms < 5000 &&
			       (w[0] & FUTEX_TID_MASK) == (uint32_t)h.tid,
			       "%s held word, timeout now+100ms (monotonic): expected ETIMEDOUT after >=100ms got %s after %ldms, owner %s",
			       opname(L), ename(r), ms,
			       (w[0] & FUTEX_TID_MASK) == (uint32_t)h.tid ? "unchanged" : "CHANGED");
			clock_gettime(CLOCK_MONOTONIC, &t0);
			ts = tp_abs_timeout_ms(CLOCK_REALTIME, 100);
			r = tp_futex(w, L | FUTEX_CLOCK_REALTIME, 0, &ts);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
			report(r == -ETIMEDOUT && ms >= 99 && ms < 5000,
			       "%s held word, timeout now+100ms (realtime): expected ETIMEDOUT after >=100ms got %s after %ldms",
			       opname(L | FUTEX_CLOCK_REALTIME), ename(r), ms);
		}
		/* The waiter timed out (and may have left FUTEX_WAITERS behind): the owner's
		 * unlock must still succeed and release the word. */
		r = holder_stop(&h);
		report(r >= 0 && r <= 1 && (w[0] & FUTEX_TID_MASK) == 0,
		       "%s by owner after its waiters timed out: expected 0|1 and word released got %s, word 0x%x",
		       opname(U), ename(r), w[0]);
		w[0] = 0;
	}

	/* --- unknown op bits --- */
	w[0] = 0;
	EXPECT_ERR(L | UNKNOWN_BIT_A, "unknown op bit", tp_futex(w, L | UNKNOWN_BIT_A, 0, NULL),
		   EXP_UNKNOWN_BITS, w);
	w[0] = 0;
	EXPECT_ERR(L | UNKNOWN_BIT_B, "unknown op bit", tp_futex(w, L | UNKNOWN_BIT_B, 0, NULL),
		   EXP_UNKNOWN_BITS, w);
	/*
	 * The robust-unlock flags (7.2: FUTEX_ROBUST_UNLOCK 0x200, FUTEX_ROBUST_LIST32 0x400):
	 * FUTEX_LOCK takes no robust list pointer, and LIST32 alone qualifies nothing.  6.12
	 * answers ENOSYS for an unknown command, 7.2's series refuses them with ENOSYS: the
	 * same errno on every base.
	 */
	w[0] = 0;
	EXPECT_ERR(L | 0x400, "robust LIST32 flag on lock", tp_futex(w, L | 0x400, 0, NULL),
		   EXP_UNKNOWN_BITS, w);
	w[0] = 0;
	EXPECT_ERR(L | 0x600, "robust UNLOCK|LIST32 flags on lock",
		   tp_futex(w, L | 0x600, 0, NULL), EXP_UNKNOWN_BITS, w);
	w[0] = (uint32_t)mytid;
	r = tp_futex(w, U | 0x400, 0, NULL);
	report(r == -EXP_UNKNOWN_BITS && w[0] == (uint32_t)mytid,
	       "%s robust LIST32 flag without ROBUST_UNLOCK: expected %s and the lock kept got %s, word 0x%x",
	       opname(U | 0x400), ename(-EXP_UNKNOWN_BITS), ename(r), w[0]);
	w[0] = (uint32_t)mytid | FUTEX_WAITERS;
	EXPECT_ERR(U | UNLOCK_UNKNOWN_BIT, "unknown op bit",
		   tp_futex(w, U | UNLOCK_UNKNOWN_BIT, 0, NULL), EXP_UNKNOWN_BITS, NULL);
	EXPECT_ERR(U | FUTEX_CLOCK_REALTIME, "CLOCK_REALTIME is not valid for unlock",
		   tp_futex(w, U | FUTEX_CLOCK_REALTIME, 0, NULL), EXP_UNKNOWN_BITS, NULL);
	w[0] = 0;

	/* --- ownership errors --- */
	w[0] = (uint32_t)mytid;
	EXPECT_ERR(L, "double lock (word = own TID)", tp_futex(w, L, 0, NULL), EDEADLK, NULL);
	w[0] = (uint32_t)mytid | FUTEX_WAITERS;
	EXPECT_ERR(L, "double lock (word = own TID|WAITERS)", tp_futex(w, L, 0, NULL), EDEADLK, NULL);
	ts = tp_abs_timeout_ms(CLOCK_MONOTONIC, 1000);
	w[0] = (uint32_t)mytid;
	EXPECT_ERR(L, "double lock with timeout", tp_futex(w, L, 0, &ts), EDEADLK, NULL);
	w[0] = 0;
	EXPECT_ERR(U, "non-owner unlock, word 0", tp_futex(w, U, 0, NULL), EPERM, w);
	w[0] = FUTEX_WAITERS;
	EXPECT_ERR(U, "non-owner unlock, word WAITERS only", tp_futex(w, U, 0, NULL), EPERM, w);
	w[0] = FUTEX_OWNER_DIED;
	EXPECT_ERR(U, "non-owner unlock, word OWNER_DIED only", tp_futex(w, U, 0, NULL), EPERM, w);
	w[0] = 0;
	holder_start(&h, w, priv, 0);
	EXPECT_ERR(U, "non-owner unlock, held by other thread", tp_futex(w, U, 0, NULL), EPERM, w);
	r = w[0];
	report((r & FUTEX_TID_MASK) == (uint32_t)h.tid,
	       "%s non-owner unlock left the owner's word intact: word 0x%lx owner tid %d",
	       opname(U), (unsigned long)r, h.tid);
	holder_stop(&h);
	w[0] = 0;
	holder_start(&h, w, priv, 0);
	__sync_fetch_and_or(w, FUTEX_WAITERS);
	EXPECT_ERR(U, "non-owner unlock, held by other thread with WAITERS",
		   tp_futex(w, U, 0, NULL), EPERM, w);
	holder_stop(&h);
	w[0] = 0;

	/* --- owner unlocks without waiters: 0 and word released --- */
	w[0] = (uint32_t)mytid;
	r = tp_futex(w, U, 0, NULL);
	report(r == 0 && w[0] == 0, "%s owner, no waiters: expected 0 and word 0 got %s, word 0x%x",
	       opname(U), ename(r), w[0]);
	w[0] = (uint32_t)mytid | FUTEX_WAITERS;
	r = tp_futex(w, U, 0, NULL);
	report(r == 0 && (w[0] & FUTEX_TID_MASK) == 0,
	       "%s owner, stale WAITERS bit and no waiter: expected 0 and word released got %s, word 0x%x",
	       opname(U), ename(r), w[0]);
	w[0] = (uint32_t)mytid | FUTEX_OWNER_DIED;
	r = tp_futex(w, U, 0, NULL);
	report(r == 0 && (w[0] & FUTEX_TID_MASK) == 0,
	       "%s owner, word OWNER_DIED|TID: expected 0 and word released got %s, word 0x%x",
	       opname(U), ename(r), w[0]);

	/* --- valid calls on a free word: acquire with a return value in 0..2 --- */
	w[0] = 0;
	r = tp_futex(w, L, 0, NULL);
	report(r >= 0 && r <= 2 && (w[0] & FUTEX_TID_MASK) == (uint32_t)mytid,
	       "%s free word: expected 0..2 and owner = caller got %s, word 0x%x",
	       opname(L), ename(r), w[0]);
	r = tp_unlock(w, priv);
	w[0] = FUTEX_OWNER_DIED;
	ts = tp_abs_timeout_ms(CLOCK_MONOTONIC, 1000);
	r = tp_futex(w, L, 0, &ts);
	report(r >= 0 && r <= 2 && (w[0] & FUTEX_TID_MASK) == (uint32_t)mytid,
	       "%s word OWNER_DIED with no owner: expected 0..2 and owner = caller got %s, word 0x%x",
	       opname(L), ename(r), w[0]);
	w[0] = 0;

	/* --- wrong futex type: the word has PI state attached --- */
	w[0] = 0;
	holder_start(&h, w, priv, 1);
	piwaiter_start(&pw, w, priv);
	ts = tp_abs_timeout_ms(CLOCK_MONOTONIC, 1000);
	r = tp_futex(w, L, 0, &ts);
	EXPECT_ERR(L, "word with a PI waiter attached", r, EINVAL, w);
	r = holder_stop(&h);
	pthread_join(pw.th, NULL);
	report(r == 0 && pw.lock_ret == 0 && pw.unlock_ret == 0 && w[0] == 0,
	       "FUTEX_UNLOCK_PI%s after the TP attempt: PI chain intact (unlock %s, lock_pi %s, unlock_pi %s, word 0x%x)",
	       priv ? "_PRIVATE" : "", ename(r), ename(pw.lock_ret), ename(pw.unlock_ret), w[0]);

	/* we own a PI word that has a PI waiter: FUTEX_UNLOCK must refuse it */
	w[0] = (uint32_t)mytid;
	piwaiter_start(&pw, w, priv);
	r = tp_futex(w, U, 0, NULL);
	r2 = w[0];
	EXPECT_ERR(U, "own word with a PI waiter attached", r, EINVAL, NULL);
	if (r < 0)	/* still ours: hand it over the PI way */
		r = tp_futex(w, FUTEX_UNLOCK_PI | priv, 0, NULL);
	pthread_join(pw.th, NULL);
	report(pw.lock_ret == 0 && w[0] == 0,
	       "FUTEX_UNLOCK_PI%s after the TP unlock attempt: PI waiter got the lock (word before 0x%lx, lock_pi %s, word 0x%x)",
	       priv ? "_PRIVATE" : "", (unsigned long)r2, ename(pw.lock_ret), w[0]);

	munmap(w, pagesz);
	munmap(ro, pagesz);
}

int main(void)
{
	pthread_t wd;
	uint32_t *w;
	struct timespec ts;
	long r;

	ksft_print_header();
	pagesz = sysconf(_SC_PAGESIZE);
	mytid = tp_gettid();

	/* probe: FUTEX_LOCK on a word we own answers EDEADLK with the series, ENOSYS without */
	w = map_page(PROT_READ | PROT_WRITE);
	w[0] = (uint32_t)mytid;
	ts = tp_abs_timeout_ms(CLOCK_MONOTONIC, 2000);
	r = tp_futex_lock(w, FUTEX_PRIVATE_FLAG, &ts);
	if (r == -ENOSYS && !getenv("TP_BADINPUT_NOPROBE"))
		ksft_exit_skip("FUTEX_LOCK (%d) returned ENOSYS: kernel without TP futexes\n",
			       FUTEX_LOCK);
	munmap(w, pagesz);

	if (pthread_create(&wd, NULL, watchdog_fn, NULL))
		ksft_exit_fail_msg("pthread_create failed\n");
	ksft_print_msg("probe: FUTEX_LOCK_PRIVATE on own word returned %s\n", ename(r));
	rows_for(FUTEX_PRIVATE_FLAG);
	rows_for(0);
	/* The row count depends on the arch (kernel_addrs()): the plan comes last. */
	ksft_set_plan(ksft_test_num());
	ksft_print_msg("tp-badinput: %u rows, %d failed\n", ksft_test_num(),
		       ksft_get_fail_cnt());
	ksft_finished();
}
