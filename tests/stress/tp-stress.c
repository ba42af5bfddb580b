// SPDX-License-Identifier: GPL-2.0
/*
 * tp-stress: randomized stress test for TP futexes (FUTEX_LOCK=14 / FUTEX_UNLOCK=15).
 *
 *   tp-stress [-s SEED] [-d SECONDS] [-p PROCS] [-t THREADS] [-w WATCHDOG_S]
 *             [-k KILL_INTERVAL_MS] [-K] [-q] [-F PERCENT] [-L] [-E] [-R]
 *
 *   -F PERCENT  fault injection: mounts debugfs, sets fail_futex probability=PERCENT,
 *               and accepts the injected errors (counted) while still checking
 *               mutual exclusion and ownership; unlock/wake calls are retried.
 *   -L          kmemleak: "clear" before the run, "scan" twice after it; any
 *               unreferenced object reported fails the run (needs DEBUG_KMEMLEAK).
 *   -E          harness self-test: emulate FUTEX_LOCK/UNLOCK with LOCK_PI2/UNLOCK_PI.
 *   -R          mark robust-list entries with the PI bit.
 *   -U          no munmap-under-waiter thread.
 *   -r PRIO     one SCHED_FIFO worker thread (priority PRIO) per process.
 *   -K          also disables the SIGSTOP/SIGCONT thread.
 *   -C          no TP/PI type-confusion thread (TP and PI ops mixed on one word).
 *   -X          checker self-test: sometimes enter the CS without the lock (must FAIL).
 * Without arguments the options compiled in with -DTPS_ARGS="..." are used (the guest
 * runner "make run CMD=" cannot pass arguments).
 *
 * Several worker processes, each with many threads, hammer
 *   - process-private TP locks (FUTEX_*_PRIVATE; one robust),
 *   - MAP_SHARED TP locks (shared keys; one robust),
 *   - "death" locks (MAP_SHARED, one robust, one not) whose owners get SIGKILLed,
 *   - a PI lock (FUTEX_LOCK_PI/UNLOCK_PI) and a wait/wake mutex (FUTEX_WAIT/WAKE)
 * with and without absolute timeouts (CLOCK_MONOTONIC and FUTEX_CLOCK_REALTIME),
 * while signals are thrown at waiters (handlers without SA_RESTART: the TP calls must
 * never return EINTR), threads exit while blocked in FUTEX_LOCK, threads exit holding a
 * robust lock, and victim processes are SIGKILLed while holding a death lock (robust
 * list registered with the lock in it, or not) or while waiting for it.
 *
 * Checks (TAP):
 *   1 mutual exclusion: per lock a plain counter incremented in the critical section
 *     equals the atomic acquisition count, and no thread ever finds another live
 *     holder in the critical section;
 *   2 progress: the watchdog sees acquisitions at least every WATCHDOG_S seconds;
 *   3 ownership consistency: after every error return the caller does not own the word,
 *     after every success it does; FUTEX_UNLOCK never fails for the owner;
 *   4 errno set: only ETIMEDOUT (timed calls), and ESRCH on a death lock whose
 *     non-robust owner was killed, are seen, never EINTR or anything else;
 *   5 owner death: the kernel clears a dead robust owner (OWNER_DIED, TID 0), and
 *     leaves a dead non-robust owner's TID in the word (never a new owner; the
 *     killer resets the word after 300 ms);
 *   6 all workers finished in time (no hung task) and the words are free at the end.
 *
 * The seed (-s, default: time) is printed; every thread's PRNG derives from it, so a
 * failing seed reproduces the same operation mix (not the same interleaving).
 * Exit: 0 pass, 1 fail, 4 skip (kernel without TP futexes).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tp-futex.h"

#define MAXT		64
#define NPRIV		2	/* per process: [0] plain, [1] robust */
#define NSHARED		3	/* [0],[1] plain, [2] robust */
#define NDEATH		2	/* [0] robust, [1] non-robust */

/* ---------------- shared state ---------------- */

struct tplock {
	struct robust_list list;	/* robust node; futex_offset = 8 */
	uint32_t word;
	uint32_t robust;
	volatile uint64_t counter;	/* plain, non-atomic, incremented in the CS */
	uint64_t acq;			/* atomic */
	volatile int32_t holder;	/* TID in CS (plain) */
	volatile int32_t holder_dead;	/* holder is a victim that will die holding */
	uint64_t died_seen;		/* acquisitions that found OWNER_DIED */
	uint64_t recovered;		/* acquisitions that found a dead holder */
	char pad[64];
};

#define FUTEX_OFFSET ((long)offsetof(struct tplock, word) - (long)offsetof(struct tplock, list))

enum { S_ACQ, S_OPS, S_FAST, S_STEAL, S_TOP, S_HANDOFF, S_TIMEDOUT, S_TIMED, S_RT, S_UNLOCK_SYS,
	S_UNLOCK_WOKE, S_SIGNALS, S_EXIT_WAITING, S_EXIT_HOLDING, S_VICTIMS, S_DEATH_HOLD_R,
	S_DEATH_HOLD_NR, S_DEATH_WAITING, S_NR_RECOVERED, S_NR_RESET, S_PI_OPS, S_WW_OPS,
	S_SLEEP_CS, S_DIED_SEEN, S_STOPS, S_RT_THREADS, S_UNMAP, S_UNMAP_EFAULT, S_CONF_OPS, S_CONF_ERR, S_CONF_FORCED,
	S_CONF_ODD, S_INJ_LOCK, S_INJ_UNLOCK, S_INJ_OTHER, S_ERR_MUTEX, S_ERR_OWN, S_ERR_ERRNO, S_ERR_UNLOCK,
	S_ERR_OWNER_DEATH, S_NSTATS };
static const char *const stat_name[S_NSTATS] = {
	"acquisitions", "tp_lock_ops", "fast_path", "steal(ret0)", "top_waiter(ret1)", "handoff(ret2)",
	"timeouts", "timed_calls", "realtime_calls", "unlock_syscalls", "unlock_woke",
	"signals", "thread_exit_while_waiting", "thread_exit_holding_robust", "victims",
	"owner_death_robust", "owner_death_nonrobust", "killed_while_waiting",
	"nonrobust_recovered_by_kernel", "nonrobust_reset_by_test", "pi_ops", "waitwake_ops",
	"sleeping_cs", "owner_died_seen", "sigstop_cont", "sched_fifo_threads", "unmapped_under_waiter", "unmap_efault",
	"confusion_ops", "confusion_errors", "confusion_forced_unlock", "confusion_oddities", "injected_lock_err", "injected_unlock_err",
	"injected_other_err", "ERR_mutual_exclusion", "ERR_ownership",
	"ERR_errno", "ERR_unlock", "ERR_owner_death",
};

struct shm {
	struct tplock shared[NSHARED];
	struct tplock death[NDEATH];
	uint32_t piword, wwword, confword;
	volatile uint64_t pi_counter, ww_counter;
	uint64_t pi_acq, ww_acq;
	volatile int stop;
	volatile int victim_ready;
	volatile pid_t victim_tid;	/* the victim thread that holds the death lock */
	int victim_state;	/* 0 waiting, 1 a victim thread entered the CS, 2 aborted */
	uint64_t stats[S_NSTATS];
	char lasterr[8][160];
	int nlasterr;
};

static struct shm *shm;
static uint64_t seed;
static int nprocs = 3, nthreads = 6, duration = 30, wd_secs = 30, kill_ms = 150;
static int no_kill, quiet, emulate, fail_pct, kmemleak, broken, no_unmap, no_confuse, rt_prio;

static void stat_add(int i, uint64_t v) { __atomic_fetch_add(&shm->stats[i], v, __ATOMIC_RELAXED); }

static void err_note(int stat, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void err_note(int stat, const char *fmt, ...)
{
	va_list ap;
	int n = __atomic_fetch_add(&shm->nlasterr, 1, __ATOMIC_RELAXED);

	stat_add(stat, 1);
	if (n < 8) {
		va_start(ap, fmt);
		vsnprintf(shm->lasterr[n], sizeof(shm->lasterr[n]), fmt, ap);
		va_end(ap);
	}
}

/* ---------------- helpers ---------------- */

/*
 * -E (harness self-test on a kernel without TP futexes): FUTEX_LOCK/UNLOCK are mapped
 * to FUTEX_LOCK_PI2/FUTEX_UNLOCK_PI, which share the word protocol, the absolute
 * monotonic/realtime timeout and the robust-list handling.
 */
static long sys_futex(uint32_t *uaddr, int op, uint32_t val, const struct timespec *ts)
{
	if (emulate && (op & FUTEX_CMD_MASK) == FUTEX_LOCK)
		op = (op & ~FUTEX_CMD_MASK) | FUTEX_LOCK_PI2;
	else if (emulate && (op & FUTEX_CMD_MASK) == FUTEX_UNLOCK)
		op = (op & ~FUTEX_CMD_MASK) | FUTEX_UNLOCK_PI;
	return tp_futex(uaddr, op, val, ts);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

struct rng { uint64_t s; };
static uint64_t rnd(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 2685821657736338717ULL;
}
static unsigned rn(struct rng *r, unsigned n) { return (unsigned)((rnd(r) >> 33) % n); }
static void rng_init(struct rng *r, uint64_t a, uint64_t b, uint64_t c)
{
	r->s = seed ^ (a * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL) ^
	       (c * 0x165667B19E3779F9ULL);
	if (!r->s)
		r->s = 1;
	rnd(r);
}

static void cpu_relax_n(unsigned n)
{
	while (n--)
		__asm__ __volatile__("" ::: "memory");
}

/* ---------------- per-thread robust list ---------------- */

static __thread struct robust_list_head rhead;
static __thread pid_t my_tid;
static __thread struct tplock *volatile cur_wait;	/* TP lock this thread waits for */
static __thread volatile int exit_requested;
static __thread int *exited_flag;

/*
 * fail_futex runs with task-filter=Y: only threads that set make-it-fail see injected
 * errors.  glibc aborts on unexpected futex errors (pthread_join, internal locks) and the
 * kernel's CLONE_CHILD_CLEARTID wake at thread exit must not be dropped, so only the
 * worker/confuser loops enable it, and they turn it off before exiting.
 */
static void make_it_fail(int on)
{
	char path[64];
	int fd;

	if (!fail_pct)
		return;
	snprintf(path, sizeof(path), "/proc/self/task/%d/make-it-fail", (int)my_tid);
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, on ? "1" : "0", 1) != 1)
			stat_add(S_INJ_OTHER, 0);
		close(fd);
	}
}

static void robust_register(void)
{
	rhead.list.next = &rhead.list;
	rhead.futex_offset = FUTEX_OFFSET;
	rhead.list_op_pending = NULL;
	syscall(SYS_set_robust_list, &rhead, sizeof(rhead));
}

/*
 * Robust list entries: bit 0 of an entry pointer marks a PI futex.  With -E (PI
 * emulation) the entries are PI-marked like glibc does for PI mutexes; TP entries are
 * plain (-R marks them anyway, to exercise that kernel path).
 */
static int robust_pi_bit;
#define RNODE(l)	((struct robust_list *)((uintptr_t)&(l)->list | (uintptr_t)robust_pi_bit))
#define RPTR(p)		((struct robust_list *)((uintptr_t)(p) & ~(uintptr_t)1))

static void robust_link(struct tplock *l)
{
	l->list.next = rhead.list.next;
	__atomic_store_n(&rhead.list.next, RNODE(l), __ATOMIC_RELEASE);
}

static void robust_unlink(struct tplock *l)
{
	struct robust_list *p = &rhead.list;

	while (RPTR(p->next) != &rhead.list && RPTR(p->next) != &l->list)
		p = RPTR(p->next);
	if (RPTR(p->next) == &l->list)
		__atomic_store_n(&p->next, l->list.next, __ATOMIC_RELEASE);
}

/* ---------------- TP lock / unlock per the ABI ---------------- */

/*
 * Returns 0 on acquisition, -errno on failure.  Checks ownership consistency.
 */
static int tp_lock(struct tplock *l, int priv, struct rng *r, int must_time)
{
	uint32_t tid = (uint32_t)my_tid;
	struct timespec ts, *tsp = NULL;
	int op = FUTEX_LOCK | priv;
	long ret;

	if (l->robust)
		__atomic_store_n(&rhead.list_op_pending, RNODE(l), __ATOMIC_RELEASE);
	stat_add(S_OPS, 1);
	if (__atomic_compare_exchange_n(&l->word, &(uint32_t){0}, tid, 0, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED)) {
		stat_add(S_FAST, 1);
		ret = 0;
		goto acquired;
	}
	if (must_time || rn(r, 100) < 30) {
		long us = rn(r, 4) == 0 ? 0 : (long)rn(r, 3000);

		if (rn(r, 2)) {
			op |= FUTEX_CLOCK_REALTIME;
			ts = tp_abs_timeout_us(CLOCK_REALTIME, us);
			stat_add(S_RT, 1);
		} else {
			ts = tp_abs_timeout_us(CLOCK_MONOTONIC, us);
		}
		tsp = &ts;
		stat_add(S_TIMED, 1);
	}
	cur_wait = l;
	ret = sys_futex(&l->word, op, 0, tsp);
	cur_wait = NULL;
	if (ret < 0) {
		uint32_t w = __atomic_load_n(&l->word, __ATOMIC_ACQUIRE);

		if (l->robust)
			__atomic_store_n(&rhead.list_op_pending, NULL, __ATOMIC_RELEASE);
		if ((w & FUTEX_TID_MASK) == tid)
			err_note(S_ERR_OWN, "FUTEX_LOCK%s returned %s but word 0x%x is owned by caller %u",
				 priv ? "_PRIVATE" : "", strerror((int)-ret), w, tid);
		if (ret == -ETIMEDOUT && tsp) {
			stat_add(S_TIMEDOUT, 1);
		} else if (fail_pct && (ret == -EFAULT || ret == -EDEADLK || ret == -ENOMEM ||
					ret == -EINVAL || ret == -EAGAIN)) {
			stat_add(S_INJ_LOCK, 1);	/* fail_futex */
		} else if (emulate && !l->robust && (ret == -EINVAL || ret == -ESRCH)) {
			/* PI semantics for a dead non-robust owner: not a TP finding */
			usleep(1000);
		} else if (!l->robust && ret == -ESRCH &&
			   l >= shm->death && l < shm->death + NDEATH) {
			/*
			 * A non-robust owner was killed: its TID names a dead task
			 * or none.  TP futexes report that with ESRCH, also to a
			 * caller that was waiting when the owner died, and never
			 * write a new owner.  The killer resets the word.
			 */
			usleep(1000);
		} else {
			err_note(S_ERR_ERRNO, "FUTEX_LOCK%s%s unexpected error %s (word 0x%x, %s lock %p)",
				 priv ? "_PRIVATE" : "", tsp ? " (timed)" : "",
				 strerror((int)-ret), w, l->robust ? "robust" : "non-robust", (void *)l);
			usleep(1000);
		}
		return (int)ret;
	}
	stat_add(ret == 0 ? S_STEAL : ret == 1 ? S_TOP : ret == 2 ? S_HANDOFF : S_ERR_ERRNO, 1);
	if (ret > 2)
		err_note(S_ERR_ERRNO, "FUTEX_LOCK returned %ld", ret);
acquired:
	if (l->robust) {
		robust_link(l);
		__atomic_store_n(&rhead.list_op_pending, NULL, __ATOMIC_RELEASE);
	}
	{
		uint32_t w = __atomic_load_n(&l->word, __ATOMIC_ACQUIRE);

		if ((w & FUTEX_TID_MASK) != tid)
			err_note(S_ERR_OWN, "FUTEX_LOCK%s returned %ld but word 0x%x is not caller %u",
				 priv ? "_PRIVATE" : "", ret, w, tid);
		if (w & FUTEX_OWNER_DIED) {
			__atomic_fetch_add(&l->died_seen, 1, __ATOMIC_RELAXED);
			stat_add(S_DIED_SEEN, 1);
			/* make it consistent: half of the time in user space, else leave the
			 * bit for FUTEX_UNLOCK to deal with */
			if (rn(r, 2) && !emulate)	/* PI: the kernel owns the bit */
				__atomic_fetch_and(&l->word, ~FUTEX_OWNER_DIED, __ATOMIC_RELAXED);
		}
	}
	return 0;
}

static void tp_unlock(struct tplock *l, int priv)
{
	uint32_t tid = (uint32_t)my_tid;
	long ret;

	if (l->robust) {
		__atomic_store_n(&rhead.list_op_pending, RNODE(l), __ATOMIC_RELEASE);
		robust_unlink(l);
	}
	if (!__atomic_compare_exchange_n(&l->word, &(uint32_t){tid}, 0, 0, __ATOMIC_RELEASE,
					 __ATOMIC_RELAXED)) {
		int tries = 0;

		stat_add(S_UNLOCK_SYS, 1);
		ret = sys_futex(&l->word, FUTEX_UNLOCK | priv, 0, NULL);
		while (fail_pct && ret < 0 && ret != -EPERM && ++tries < 100000) {
			stat_add(S_INJ_UNLOCK, 1);
			ret = sys_futex(&l->word, FUTEX_UNLOCK | priv, 0, NULL);
		}
		if (ret == 1)
			stat_add(S_UNLOCK_WOKE, 1);
		else if (ret != 0)
			err_note(S_ERR_UNLOCK, "FUTEX_UNLOCK%s by owner %u returned %ld (%s), word 0x%x",
				 priv ? "_PRIVATE" : "", tid, ret, ret < 0 ? strerror((int)-ret) : "?",
				 l->word);
		if ((__atomic_load_n(&l->word, __ATOMIC_ACQUIRE) & FUTEX_TID_MASK) == tid)
			err_note(S_ERR_UNLOCK, "FUTEX_UNLOCK%s returned %ld but caller %u still owns word 0x%x",
				 priv ? "_PRIVATE" : "", ret, tid, l->word);
	}
	if (l->robust)
		__atomic_store_n(&rhead.list_op_pending, NULL, __ATOMIC_RELEASE);
}

/* critical section: holder check + plain counter */
static void cs_enter(struct tplock *l)
{
	int32_t h = l->holder;

	if (h) {
		if (l->holder_dead) {
			__atomic_fetch_add(&l->recovered, 1, __ATOMIC_RELAXED);
		} else {
			err_note(S_ERR_MUTEX, "mutual exclusion: tid %d entered CS held by %d (word 0x%x)",
				 my_tid, h, l->word);
		}
	}
	l->holder_dead = 0;
	l->holder = my_tid;
	__atomic_fetch_add(&l->acq, 1, __ATOMIC_RELAXED);
	stat_add(S_ACQ, 1);
}

static void cs_body(struct tplock *l, struct rng *r)
{
	uint64_t c = l->counter;

	cpu_relax_n(rn(r, 200));
	if (rn(r, 50) == 0) {
		stat_add(S_SLEEP_CS, 1);
		usleep(rn(r, 300));
	}
	l->counter = c + 1;
}

static void cs_exit(struct tplock *l)
{
	if (l->holder != my_tid)
		err_note(S_ERR_MUTEX, "mutual exclusion: tid %d leaving CS found holder %d",
			 my_tid, l->holder);
	l->holder = 0;
}

/* ---------------- PI and wait/wake traffic ---------------- */

static void pi_op(struct rng *r)
{
	uint32_t tid = (uint32_t)my_tid;
	struct timespec ts;
	long ret = 0;

	if (!__atomic_compare_exchange_n(&shm->piword, &(uint32_t){0}, tid, 0, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED)) {
		if (rn(r, 3) == 0) {
			ts = tp_abs_timeout_us(CLOCK_REALTIME, rn(r, 2000));	/* LOCK_PI: realtime */
			ret = sys_futex(&shm->piword, FUTEX_LOCK_PI, 0, &ts);
		} else {
			ret = sys_futex(&shm->piword, FUTEX_LOCK_PI, 0, NULL);
		}
		if (ret == -ETIMEDOUT)
			return;
		if (ret) {
			if (fail_pct)
				stat_add(S_INJ_OTHER, 1);
			else
				err_note(S_ERR_ERRNO, "FUTEX_LOCK_PI: %s", strerror((int)-ret));
			if ((__atomic_load_n(&shm->piword, __ATOMIC_ACQUIRE) & FUTEX_TID_MASK) == tid)
				err_note(S_ERR_OWN, "FUTEX_LOCK_PI failed (%s) but the caller owns the word",
					 strerror((int)-ret));
			return;
		}
	}
	stat_add(S_PI_OPS, 1);
	stat_add(S_ACQ, 1);
	shm->pi_counter = shm->pi_counter + 1;
	__atomic_fetch_add(&shm->pi_acq, 1, __ATOMIC_RELAXED);
	cpu_relax_n(rn(r, 200));
	if (!__atomic_compare_exchange_n(&shm->piword, &(uint32_t){tid}, 0, 0, __ATOMIC_RELEASE,
					 __ATOMIC_RELAXED)) {
		int tries = 0;

		ret = sys_futex(&shm->piword, FUTEX_UNLOCK_PI, 0, NULL);
		while (fail_pct && ret && ++tries < 100000) {
			stat_add(S_INJ_OTHER, 1);
			ret = sys_futex(&shm->piword, FUTEX_UNLOCK_PI, 0, NULL);
		}
		if (ret)
			err_note(S_ERR_ERRNO, "FUTEX_UNLOCK_PI: %s", strerror((int)-ret));
	}
}

/* Drepper's 3-state mutex on FUTEX_WAIT/FUTEX_WAKE (0 free, 1 locked, 2 contended) */
static void ww_op(struct rng *r)
{
	uint32_t c = 0;
	uint32_t *w = &shm->wwword;

	if (!__atomic_compare_exchange_n(w, &c, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		if (c != 2)
			c = __atomic_exchange_n(w, 2, __ATOMIC_ACQUIRE);
		while (c != 0) {
			long ret = sys_futex(w, FUTEX_WAIT, 2, NULL);

			if (ret && ret != -EAGAIN && ret != -EINTR) {
				if (fail_pct)
					stat_add(S_INJ_OTHER, 1);
				else
					err_note(S_ERR_ERRNO, "FUTEX_WAIT: %s", strerror((int)-ret));
			}
			c = __atomic_exchange_n(w, 2, __ATOMIC_ACQUIRE);
		}
	}
	stat_add(S_WW_OPS, 1);
	stat_add(S_ACQ, 1);
	shm->ww_counter = shm->ww_counter + 1;
	__atomic_fetch_add(&shm->ww_acq, 1, __ATOMIC_RELAXED);
	cpu_relax_n(rn(r, 200));
	if (__atomic_fetch_sub(w, 1, __ATOMIC_RELEASE) != 1) {
		int tries = 0;

		__atomic_store_n(w, 0, __ATOMIC_RELEASE);
		while (sys_futex(w, FUTEX_WAKE, 1, NULL) < 0 && fail_pct && ++tries < 100000)
			stat_add(S_INJ_OTHER, 1);
	}
}

/* ---------------- worker process ---------------- */

static struct tplock *privlocks;	/* per process, ordinary (non-shared) memory */

struct slot {
	pthread_t th;
	int idx, gen;
	volatile pid_t tid;
	int exited;		/* set by the thread right before SYS_exit */
	int done;		/* returned normally */
	int proc;
};

static struct slot slots[MAXT];

static void sigusr1(int sig)
{
	(void)sig;
	stat_add(S_SIGNALS, 1);
}

/* "exit while waiting": only if blocked in FUTEX_LOCK and not the owner */
static void sigusr2(int sig)
{
	struct tplock *l = cur_wait;

	(void)sig;
	if (l && (__atomic_load_n(&l->word, __ATOMIC_ACQUIRE) & FUTEX_TID_MASK) != (uint32_t)my_tid) {
		stat_add(S_EXIT_WAITING, 1);
		make_it_fail(0);
		__atomic_store_n(exited_flag, 1, __ATOMIC_RELEASE);
		syscall(SYS_exit, 0);
	}
	exit_requested = 1;
}

static void *worker(void *arg)
{
	struct slot *s = arg;
	struct rng r;

	my_tid = tp_gettid();
	s->tid = my_tid;
	exited_flag = &s->exited;
	robust_register();
	rng_init(&r, (uint64_t)s->proc + 1, (uint64_t)s->idx + 1, (uint64_t)s->gen + 1);
	if (rt_prio && s->idx == 0) {
		/* -r: one SCHED_FIFO worker per process (spinning vs. preempted owners) */
		struct sched_param sp = { .sched_priority = rt_prio };

		if (!sched_setscheduler(0, SCHED_FIFO, &sp))
			stat_add(S_RT_THREADS, 1);
	}
	make_it_fail(1);

	while (!shm->stop && !exit_requested) {
		unsigned what = rn(&r, 100);
		struct tplock *l;
		int priv = 0, must_time = 0;

		if (what < 4) {
			pi_op(&r);
			continue;
		}
		if (what < 8) {
			ww_op(&r);
			continue;
		}
		if (what < 45) {
			l = &privlocks[rn(&r, NPRIV)];
			priv = FUTEX_PRIVATE_FLAG;
		} else if (what < 90) {
			l = &shm->shared[rn(&r, NSHARED)];
		} else {
			l = &shm->death[rn(&r, NDEATH)];
			must_time = !l->robust;	/* a dead non-robust owner may never go away */
		}
		if (broken && !l->robust && rn(&r, 500) == 0) {
			/* -X: checker self-test, enter the CS without the lock */
			cs_enter(l);
			cs_body(l, &r);
			if (l->holder == my_tid)
				l->holder = 0;
			continue;
		}
		if (tp_lock(l, priv, &r, must_time))
			continue;
		cs_enter(l);
		cs_body(l, &r);
		if (l->robust && rn(&r, 4000) == 0) {
			/* owner thread exits holding a robust lock */
			l->holder_dead = 1;
			stat_add(S_EXIT_HOLDING, 1);
			make_it_fail(0);
			__atomic_store_n(&s->exited, 1, __ATOMIC_RELEASE);
			syscall(SYS_exit, 0);
		}
		cs_exit(l);
		tp_unlock(l, priv);
		if (rn(&r, 8) == 0)
			sched_yield();
	}
	make_it_fail(0);
	s->done = 1;
	return NULL;
}

static void start_slot(struct slot *s)
{
	s->tid = 0;
	s->exited = 0;
	s->done = 0;
	if (pthread_create(&s->th, NULL, worker, s)) {
		perror("pthread_create");
		_exit(1);
	}
}

/*
 * munmap under a waiter: the word's mapping disappears while a thread sleeps or spins
 * in FUTEX_LOCK on it.  The waiter must come back (ETIMEDOUT or EFAULT; it cannot
 * own a word that no longer exists), and KASAN/kmemleak watch the key references.
 */
struct unmap_arg { uint32_t *word; int priv; volatile long ret; volatile int started; };

static void *unmap_waiter(void *arg)
{
	struct unmap_arg *a = arg;
	struct timespec ts = tp_abs_timeout_us(CLOCK_MONOTONIC, 20000);

	my_tid = tp_gettid();
	a->started = 1;
	a->ret = sys_futex(a->word, FUTEX_LOCK | a->priv, 0, &ts);
	return NULL;
}

static void *mapper(void *arg)
{
	struct rng r;
	long pg = sysconf(_SC_PAGESIZE);

	(void)arg;
	my_tid = tp_gettid();
	rng_init(&r, 31337, (uint64_t)my_tid, 0);
	while (!shm->stop) {
		int shared = rn(&r, 2);
		uint32_t *w = mmap(NULL, pg, PROT_READ | PROT_WRITE,
				   (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
		struct unmap_arg a = { .word = w, .priv = shared ? 0 : FUTEX_PRIVATE_FLAG };
		pthread_t th;

		if (w == MAP_FAILED)
			break;
		*w = (uint32_t)my_tid;		/* held by us, never released */
		pthread_create(&th, NULL, unmap_waiter, &a);
		while (!a.started)
			sched_yield();
		usleep(rn(&r, 5000));
		munmap(w, pg);
		pthread_join(th, NULL);
		stat_add(S_UNMAP, 1);
		if (a.ret == -EFAULT)
			stat_add(S_UNMAP_EFAULT, 1);
		else if (a.ret != -ETIMEDOUT && !(fail_pct && a.ret < 0))
			err_note(a.ret >= 0 ? S_ERR_OWN : S_ERR_ERRNO,
				 "FUTEX_LOCK%s on a word unmapped under the waiter returned %ld",
				 a.priv ? "_PRIVATE" : "", a.ret);
		usleep(1000 + rn(&r, 20000));
	}
	return NULL;
}

/*
 * Type confusion: TP and PI lock/unlock on the same shared word from several processes,
 * every call timed.  User space gets whatever errno the kernel picks (EINVAL for the
 * wrong type, ETIMEDOUT, ...); this only has to leave the kernel healthy (no splat,
 * no hang, no leak) and a successful lock must still mean ownership.  Oddities are
 * counted and shown but do not fail the run.
 */
static void *confuser(void *arg)
{
	uint32_t *w = &shm->confword;
	struct rng r;

	(void)arg;
	my_tid = tp_gettid();
	rng_init(&r, 2718, (uint64_t)my_tid, 0);
	make_it_fail(1);
	while (!shm->stop) {
		int tp = rn(&r, 2);
		struct timespec ts = tp_abs_timeout_us(CLOCK_MONOTONIC, rn(&r, 2000));
		long ret;

		ret = sys_futex(w, tp ? FUTEX_LOCK : FUTEX_LOCK_PI2, 0, &ts);
		stat_add(S_CONF_OPS, 1);
		if (ret < 0) {
			if (ret != -ETIMEDOUT)
				stat_add(S_CONF_ERR, 1);
			if ((__atomic_load_n(w, __ATOMIC_ACQUIRE) & FUTEX_TID_MASK) == (uint32_t)my_tid) {
				stat_add(S_CONF_ODD, 1);
				__atomic_store_n(w, 0, __ATOMIC_RELEASE);
			}
			continue;
		}
		if ((__atomic_load_n(w, __ATOMIC_ACQUIRE) & FUTEX_TID_MASK) != (uint32_t)my_tid) {
			stat_add(S_CONF_ODD, 1);
			continue;
		}
		usleep(rn(&r, 200));
		if (__atomic_compare_exchange_n(w, &(uint32_t){(uint32_t)my_tid}, 0, 0,
						__ATOMIC_RELEASE, __ATOMIC_RELAXED))
			continue;
		ret = sys_futex(w, tp ? FUTEX_UNLOCK : FUTEX_UNLOCK_PI, 0, NULL);
		if (ret < 0)	/* wrong type: try the other unlock, then give up */
			ret = sys_futex(w, tp ? FUTEX_UNLOCK_PI : FUTEX_UNLOCK, 0, NULL);
		if (ret < 0) {
			uint32_t cur = __atomic_load_n(w, __ATOMIC_ACQUIRE);

			stat_add(S_CONF_FORCED, 1);
			if ((cur & FUTEX_TID_MASK) == (uint32_t)my_tid)
				__atomic_compare_exchange_n(w, &cur, 0, 0, __ATOMIC_RELEASE,
							    __ATOMIC_RELAXED);
		}
	}
	make_it_fail(0);
	return NULL;
}

static void worker_process(int proc)
{
	struct sigaction sa;
	pthread_t mapper_th, conf_th;
	struct rng r;
	int i, n = nthreads;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sigusr1;	/* no SA_RESTART on purpose */
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = sigusr2;
	sigaction(SIGUSR2, &sa, NULL);

	privlocks = mmap(NULL, sizeof(struct tplock) * NPRIV, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (privlocks == MAP_FAILED)
		_exit(1);
	memset(privlocks, 0, sizeof(struct tplock) * NPRIV);
	privlocks[1].robust = 1;
	rng_init(&r, (uint64_t)proc + 1, 0, 999);

	for (i = 0; i < n; i++) {
		slots[i].idx = i;
		slots[i].proc = proc;
		slots[i].gen = 0;
		start_slot(&slots[i]);
	}
	if (!no_unmap)
		pthread_create(&mapper_th, NULL, mapper, NULL);
	if (!no_confuse)
		pthread_create(&conf_th, NULL, confuser, NULL);
	/* manager: signals + thread churn */
	while (!shm->stop) {
		struct slot *s = &slots[rn(&r, n)];

		usleep(2000 + rn(&r, 3000));
		if (__atomic_load_n(&s->exited, __ATOMIC_ACQUIRE) || s->done) {
			pthread_join(s->th, NULL);	/* kernel clears the TID on exit */
			s->gen++;
			start_slot(s);
			continue;
		}
		if (!s->tid || s->done)
			continue;
		if (rn(&r, 40) == 0)
			pthread_kill(s->th, SIGUSR2);
		else
			pthread_kill(s->th, SIGUSR1);
	}
	for (i = 0; i < n; i++)
		pthread_join(slots[i].th, NULL);
	if (!no_unmap)
		pthread_join(mapper_th, NULL);
	if (!no_confuse)
		pthread_join(conf_th, NULL);
	/* Threads that exited holding a robust private lock left OWNER_DIED behind; a
	 * private lock nobody took afterwards may still say so. */
	for (i = 0; i < NPRIV; i++) {
		struct tplock *l = &privlocks[i];
		uint32_t w = l->word;

		if (l->counter != __atomic_load_n(&l->acq, __ATOMIC_RELAXED))
			err_note(S_ERR_MUTEX, "proc %d private lock %d: counter %" PRIu64 " != acquisitions %" PRIu64,
				 proc, i, (uint64_t)l->counter, l->acq);
		if ((w & FUTEX_TID_MASK) && !(l->robust && l->holder_dead))
			err_note(S_ERR_OWN, "proc %d private lock %d still owned at end: word 0x%x",
				 proc, i, w);
		if ((w & FUTEX_TID_MASK) && l->robust && l->holder_dead)
			err_note(S_ERR_OWNER_DEATH, "proc %d private robust lock %d: dead owner not cleaned, word 0x%x",
				 proc, i, w);
	}
	_exit(0);
}

/* ---------------- victim process ---------------- */

struct vthread { struct tplock *l; int owner; };

static void *victim_thread(void *arg)
{
	struct vthread *v = arg;
	struct tplock *l = v->l;
	struct rng r;

	my_tid = tp_gettid();
	robust_register();
	rng_init(&r, 7777, (uint64_t)my_tid, 1);
	for (;;) {
		int ret = tp_lock(l, 0, &r, !l->robust);

		if (ret == 0)
			break;
	}
	if (!__atomic_compare_exchange_n(&shm->victim_state, &(int){0}, 1, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_RELAXED)) {
		/* the killer gave up waiting for us: leave without touching the CS */
		tp_unlock(l, 0);
		for (;;)
			pause();
	}
	cs_enter(l);
	l->holder_dead = 1;	/* this holder will die with the lock */
	cs_body(l, &r);
	shm->victim_tid = my_tid;
	shm->victim_ready = 1;
	for (;;)
		pause();
	return NULL;
}

static void victim_process(struct tplock *l, int nthr)
{
	static struct vthread v[4];
	pthread_t th;
	int i;

	for (i = 0; i < nthr; i++) {
		v[i].l = l;
		pthread_create(&th, NULL, victim_thread, &v[i]);
	}
	for (;;)
		pause();
}

static int tid_dead(pid_t tid)
{
	return tid > 0 && kill(tid, 0) < 0 && errno == ESRCH;
}

/* ---------------- parent: killer + watchdog ---------------- */

static pid_t workers[16];

/* SIGSTOP a whole worker process (owners and waiters frozen) for a while, then SIGCONT. */
static void *stopper(void *arg)
{
	struct rng r;

	(void)arg;
	rng_init(&r, 1618, 0, 0);
	while (!shm->stop) {
		pid_t p = workers[rn(&r, (unsigned)nprocs)];

		usleep(500000 + rn(&r, 1000000));
		if (shm->stop)
			break;
		kill(p, SIGSTOP);
		stat_add(S_STOPS, 1);
		usleep(rn(&r, 150000));
		kill(p, SIGCONT);
	}
	return NULL;
}

static void *killer(void *arg)
{
	struct rng r;
	uint64_t n = 0;

	(void)arg;
	rng_init(&r, 4242, 0, 0);
	while (!shm->stop) {
		int d = (int)rn(&r, NDEATH);
		struct tplock *l = &shm->death[d];
		uint64_t t0;
		pid_t pid, dead;
		int ready;

		usleep(kill_ms * 1000 / 2 + rn(&r, kill_ms * 1000));
		if (shm->stop)
			break;
		shm->victim_ready = 0;
		shm->victim_tid = 0;
		shm->victim_state = 0;
		pid = fork();
		if (pid == 0)
			victim_process(l, 1 + (int)rn(&r, 3));
		if (pid < 0)
			continue;
		n++;
		stat_add(S_VICTIMS, 1);
		t0 = now_ns();
		while (!shm->victim_ready && now_ns() - t0 < 2000000000ULL && !shm->stop)
			usleep(1000);
		if (!shm->victim_ready &&
		    !__atomic_compare_exchange_n(&shm->victim_state, &(int){0}, 2, 0,
						 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			/* a victim thread is inside the CS: let it finish the update */
			t0 = now_ns();
			while (!shm->victim_ready && now_ns() - t0 < 10000000000ULL)
				usleep(1000);
		}
		ready = shm->victim_ready;
		usleep(rn(&r, 20000));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		if (!ready) {
			stat_add(S_DEATH_WAITING, 1);
		} else {
			stat_add(l->robust ? S_DEATH_HOLD_R : S_DEATH_HOLD_NR, 1);
		}
		/*
		 * Look after the dead owner's word.  A robust owner's word must be
		 * released by the kernel within 300 ms.  A non-robust owner's
		 * must keep the dead owner's TID, FUTEX_WAITERS aside: TP futexes
		 * never write a new owner into it (-E: PI futexes make the top
		 * waiter the owner, which is only counted).  The test resets it.
		 */
		dead = ready ? shm->victim_tid : 0;
		t0 = now_ns();
		for (;;) {
			uint32_t w = __atomic_load_n(&l->word, __ATOMIC_ACQUIRE);
			pid_t o = (pid_t)(w & FUTEX_TID_MASK);

			if (dead && !l->robust && !emulate) {
				if ((w & ~FUTEX_WAITERS) != (uint32_t)dead) {
					err_note(S_ERR_OWNER_DEATH, "non-robust death lock: word 0x%x changed after its owner %d died (the kernel wrote a new owner?)",
						 w, dead);
					break;
				}
				if (now_ns() - t0 > 300000000ULL) {
					stat_add(S_NR_RESET, 1);
					/* waiters may still set FUTEX_WAITERS */
					while (!__atomic_compare_exchange_n(&l->word, &w, 0, 0, __ATOMIC_RELEASE,
									    __ATOMIC_RELAXED) &&
					       (w & FUTEX_TID_MASK) == (uint32_t)dead)
						;
					break;
				}
				usleep(2000);
				continue;
			}
			if (!o || !tid_dead(o)) {
				if (ready && !l->robust)
					stat_add(S_NR_RECOVERED, 1);
				break;
			}
			if (now_ns() - t0 > 300000000ULL) {
				if (l->robust) {
					err_note(S_ERR_OWNER_DEATH, "robust death lock: dead owner %d still in word 0x%x after 300ms",
						 o, w);
				} else {
					stat_add(S_NR_RESET, 1);
				}
				/* reset (a dead non-robust owner stays forever otherwise) */
				__atomic_compare_exchange_n(&l->word, &w, 0, 0, __ATOMIC_RELEASE,
							    __ATOMIC_RELAXED);
				break;
			}
			usleep(2000);
		}
	}
	return NULL;
}

static void dump_state(void)
{
	int i;

	for (i = 0; i < NSHARED; i++)
		printf("# shared[%d] word 0x%08x holder %d counter %" PRIu64 " acq %" PRIu64 "\n", i,
		       shm->shared[i].word, shm->shared[i].holder, (uint64_t)shm->shared[i].counter,
		       shm->shared[i].acq);
	for (i = 0; i < NDEATH; i++)
		printf("# death[%d] word 0x%08x holder %d%s counter %" PRIu64 " acq %" PRIu64 "\n", i,
		       shm->death[i].word, shm->death[i].holder,
		       shm->death[i].holder_dead ? " (dead)" : "",
		       (uint64_t)shm->death[i].counter, shm->death[i].acq);
	printf("# piword 0x%08x wwword 0x%08x\n", shm->piword, shm->wwword);
	fflush(stdout);
}

static uint64_t total_acq(void)
{
	return __atomic_load_n(&shm->stats[S_ACQ], __ATOMIC_RELAXED);
}

static int tap_n, tap_fail;
static void tap(int ok, const char *desc)
{
	printf("%s %d %s\n", ok ? "ok" : "not ok", ++tap_n, desc);
	if (!ok)
		tap_fail++;
}

static void usage(const char *p)
{
	fprintf(stderr, "usage: %s [-s SEED] [-d SECONDS] [-p PROCS] [-t THREADS] [-w WATCHDOG_S] "
		"[-k KILL_INTERVAL_MS] [-K (no kills)] [-q] [-E (emulate with PI futexes)] [-R (PI bit in robust entries)] [-F FAIL_PERCENT] [-L (kmemleak)] [-U (no munmap-under-waiter)] [-C (no TP/PI type confusion)] [-r FIFO_PRIO]\n", p);
	exit(2);
}

/* ---------------- debugfs: fail_futex and kmemleak ---------------- */

#include <sys/mount.h>
#include <sys/stat.h>

#define DEBUGFS "/sys/kernel/debug"

static void debugfs_mount(void)
{
	struct stat st;

	if (stat(DEBUGFS "/fail_futex", &st) == 0 || stat(DEBUGFS "/kmemleak", &st) == 0)
		return;
	mkdir("/sys", 0755);
	mount("sysfs", "/sys", "sysfs", 0, NULL);	/* EBUSY if already mounted */
	mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
}

static int write_file(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fputs(val, f) >= 0;
	ok &= fclose(f) == 0;
	return ok ? 0 : -1;
}

static int fail_futex_setup(int pct)
{
	char buf[32];

	debugfs_mount();
	snprintf(buf, sizeof(buf), "%d", pct);
	if (write_file(DEBUGFS "/fail_futex/probability", buf) ||
	    write_file(DEBUGFS "/fail_futex/interval", "1") ||
	    write_file(DEBUGFS "/fail_futex/times", "-1") ||
	    write_file(DEBUGFS "/fail_futex/verbose", "0")) {
		printf("# fail_futex: cannot configure %s/fail_futex (CONFIG_FAIL_FUTEX + FAULT_INJECTION_DEBUG_FS?): %s\n",
		       DEBUGFS, strerror(errno));
		return -1;
	}
	write_file(DEBUGFS "/fail_futex/ignore-private", "N");
	if (write_file(DEBUGFS "/fail_futex/task-filter", "Y")) {
		printf("# fail_futex: cannot set task-filter: %s\n", strerror(errno));
		return -1;
	}
	printf("# fail_futex: probability %d%%, interval 1, times -1, task-filter (worker threads only)\n", pct);
	return 0;
}

static void fail_futex_off(void)
{
	write_file(DEBUGFS "/fail_futex/probability", "0");
	write_file(DEBUGFS "/fail_futex/times", "0");
}

/* returns the number of leak reports, -1 if kmemleak is unavailable */
static int kmemleak_scan(void)
{
	char line[512];
	int n = 0, shown = 0;
	FILE *f;

	if (write_file(DEBUGFS "/kmemleak", "scan"))
		return -1;
	sleep(6);		/* objects younger than ~5 s are never reported */
	if (write_file(DEBUGFS "/kmemleak", "scan"))
		return -1;
	f = fopen(DEBUGFS "/kmemleak", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "unreferenced object", 19))
			n++;
		if (shown++ < 60)
			printf("# kmemleak: %s", line);
	}
	fclose(f);
	return n;
}

#ifdef TPS_ARGS
static char *split_args(const char *str, int *argc, char **argv, int max)
{
	char *copy = strdup(str), *tok, *save = NULL;

	for (tok = strtok_r(copy, " ", &save); tok && *argc < max; tok = strtok_r(NULL, " ", &save))
		argv[(*argc)++] = tok;
	argv[*argc] = NULL;
	return copy;
}
#endif

int main(int argc, char **argv)
{
	uint64_t start, last_acq = 0, last_prog, next_report;
	int opt, i, progress_ok = 1, finished_ok = 1, status, leaks = 0, inj_ok = 1;
	pthread_t kth, sth;
	char desc[200];

	seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
#ifdef TPS_ARGS
	if (argc == 1) {
		static char *dargv[64];
		int dargc = 1;

		dargv[0] = argv[0];
		split_args(TPS_ARGS, &dargc, dargv, 63);
		argc = dargc;
		argv = dargv;
	}
#endif
	while ((opt = getopt(argc, argv, "s:d:p:t:w:k:KqERF:LXUCr:")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'd': duration = atoi(optarg); break;
		case 'p': nprocs = atoi(optarg); break;
		case 't': nthreads = atoi(optarg); break;
		case 'w': wd_secs = atoi(optarg); break;
		case 'k': kill_ms = atoi(optarg); break;
		case 'K': no_kill = 1; break;
		case 'q': quiet = 1; break;
		case 'E': emulate = 1; robust_pi_bit = 1; break;
		case 'F': fail_pct = atoi(optarg); break;
		case 'L': kmemleak = 1; break;
		case 'X': broken = 1; break;
		case 'U': no_unmap = 1; break;
		case 'C': no_confuse = 1; break;
		case 'r': rt_prio = atoi(optarg); break;
		case 'R': robust_pi_bit = 1; break;
		default: usage(argv[0]);
		}
	}
	if (nprocs < 1 || nprocs > 16 || nthreads < 1 || nthreads > MAXT || duration < 1 ||
	    wd_secs < 2 || kill_ms < 2)
		usage(argv[0]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	printf("# tp-stress -s %" PRIu64 " -d %d -p %d -t %d -w %d -k %d%s%s%s%s -F %d\n", seed,
	       duration, nprocs, nthreads, wd_secs, kill_ms, no_kill ? " -K" : "",
	       kmemleak ? " -L" : "", emulate ? " -E" : "", robust_pi_bit ? " -R" : "", fail_pct);

	shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memset(shm, 0, sizeof(*shm));
	shm->shared[2].robust = 1;
	shm->death[0].robust = 1;

	/* probe: FUTEX_UNLOCK on a free word is EPERM with TP futexes, ENOSYS without */
	{
		long r = sys_futex(&shm->shared[0].word, FUTEX_UNLOCK, 0, NULL);

		if (r == -ENOSYS) {
			printf("1..0 # SKIP FUTEX_UNLOCK (15) returned ENOSYS: kernel without TP futexes\n");
			return 4;
		}
		printf("# probe: FUTEX_UNLOCK on a free word returned %ld%s%s\n", r,
		       r < 0 ? " " : "", r < 0 ? strerror((int)-r) : "");
	}

	if (kmemleak) {
		debugfs_mount();
		if (write_file(DEBUGFS "/kmemleak", "clear")) {
			printf("1..0 # SKIP -L: %s/kmemleak not writable (CONFIG_DEBUG_KMEMLEAK?)\n", DEBUGFS);
			return 4;
		}
	}
	if (fail_pct && fail_futex_setup(fail_pct)) {
		printf("1..0 # SKIP -F: fail_futex not available in this kernel\n");
		return 4;
	}

	for (i = 0; i < nprocs; i++) {
		workers[i] = fork();
		if (workers[i] == 0)
			worker_process(i);
		if (workers[i] < 0) {
			perror("fork");
			return 1;
		}
	}
	signal(SIGCHLD, SIG_DFL);
	if (!no_kill) {
		pthread_create(&kth, NULL, killer, NULL);
		pthread_create(&sth, NULL, stopper, NULL);
	}

	start = last_prog = now_ns();
	next_report = start + 10000000000ULL;
	while (now_ns() - start < (uint64_t)duration * 1000000000ULL) {
		uint64_t a;

		usleep(200000);
		a = total_acq();
		if (a != last_acq) {
			last_acq = a;
			last_prog = now_ns();
		} else if (now_ns() - last_prog > (uint64_t)wd_secs * 1000000000ULL) {
			printf("# WATCHDOG: no lock acquisition for %d s\n", wd_secs);
			dump_state();
			progress_ok = 0;
			break;
		}
		if (!quiet && now_ns() >= next_report) {
			next_report += 10000000000ULL;
			printf("# t=%" PRIu64 "s acquisitions=%" PRIu64 " timeouts=%" PRIu64 " victims=%" PRIu64 " errors=%d\n",
			       (uint64_t)((now_ns() - start) / 1000000000ULL), a, shm->stats[S_TIMEDOUT],
			       shm->stats[S_VICTIMS], shm->nlasterr);
		}
	}
	shm->stop = 1;
	if (!no_kill) {
		pthread_join(kth, NULL);
		pthread_join(sth, NULL);
		for (i = 0; i < nprocs; i++)
			kill(workers[i], SIGCONT);
	}

	/* workers must finish: waiters without timeout need their owners to unlock */
	start = now_ns();
	for (i = 0; i < nprocs; i++) {
		while (waitpid(workers[i], &status, WNOHANG) == 0) {
			if (now_ns() - start > (uint64_t)wd_secs * 1000000000ULL) {
				printf("# worker %d (pid %d) did not finish within %d s after stop\n",
				       i, workers[i], wd_secs);
				finished_ok = 0;
				dump_state();
				break;
			}
			usleep(50000);
		}
		if (!finished_ok)
			break;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("# worker %d exited with status 0x%x\n", i, status);
			finished_ok = 0;
		}
	}
	if (!finished_ok || !progress_ok)
		for (i = 0; i < nprocs; i++)
			kill(workers[i], SIGKILL);
	if (fail_pct) {
		fail_futex_off();
		/* the injected errors must have happened at all */
		inj_ok = shm->stats[S_INJ_LOCK] + shm->stats[S_INJ_UNLOCK] + shm->stats[S_INJ_OTHER] > 0;
	}
	if (kmemleak) {
		for (i = 0; i < nprocs; i++)
			waitpid(workers[i], NULL, WNOHANG);
		leaks = kmemleak_scan();
	}

	/* final mutual-exclusion accounting */
	{
		int bad = 0;
		struct tplock *all[NSHARED + NDEATH];
		int n = 0;

		for (i = 0; i < NSHARED; i++)
			all[n++] = &shm->shared[i];
		for (i = 0; i < NDEATH; i++)
			all[n++] = &shm->death[i];
		for (i = 0; i < n; i++) {
			if (all[i]->counter != all[i]->acq) {
				printf("# lock %d: counter %" PRIu64 " != acquisitions %" PRIu64 "\n", i,
				       (uint64_t)all[i]->counter, all[i]->acq);
				bad = 1;
			}
		}
		if (shm->pi_counter != shm->pi_acq || shm->ww_counter != shm->ww_acq) {
			printf("# pi %" PRIu64 "/%" PRIu64 " ww %" PRIu64 "/%" PRIu64 "\n",
			       (uint64_t)shm->pi_counter, shm->pi_acq, (uint64_t)shm->ww_counter,
			       shm->ww_acq);
			bad = 1;
		}
		if (finished_ok)
			for (i = 0; i < NSHARED; i++) {
				uint32_t w = shm->shared[i].word;

				if ((w & FUTEX_TID_MASK) && !(shm->shared[i].holder_dead &&
							      tid_dead((pid_t)(w & FUTEX_TID_MASK)))) {
					printf("# shared[%d] still owned at end: 0x%x\n", i, w);
					err_note(S_ERR_OWN, "shared[%d] still owned at end: 0x%x", i, w);
				}
				if ((w & FUTEX_TID_MASK) && shm->shared[i].robust && shm->shared[i].holder_dead)
					err_note(S_ERR_OWNER_DEATH, "shared robust lock: dead owner not cleaned, word 0x%x", w);
			}
		snprintf(desc, sizeof(desc), "mutual exclusion (plain counter == acquisitions on %d shared + %d private locks, PI, wait/wake; no live holder found in CS)",
			 n, NPRIV * nprocs);
		tap(!bad && !shm->stats[S_ERR_MUTEX], desc);
	}
	snprintf(desc, sizeof(desc), "progress (watchdog: an acquisition at least every %d s)", wd_secs);
	tap(progress_ok, desc);
	tap(!shm->stats[S_ERR_OWN] && !shm->stats[S_ERR_UNLOCK],
	    "ownership consistency (no error return leaves the caller owning, success implies ownership, owner unlock never fails)");
	tap(!shm->stats[S_ERR_ERRNO], "errno set (only ETIMEDOUT on timed calls, ESRCH for a killed non-robust owner; never EINTR)");
	tap(!shm->stats[S_ERR_OWNER_DEATH], "owner death (robust: the kernel clears the TID, sets OWNER_DIED; non-robust: the dead TID stays, no new owner)");
	tap(finished_ok, "all workers finished after stop (no hung waiter)");
	if (fail_pct) {
		snprintf(desc, sizeof(desc), "fail_futex at %d%%: injected errors returned to the callers (lock %" PRIu64 ", unlock %" PRIu64 ", other %" PRIu64 ")",
			 fail_pct, shm->stats[S_INJ_LOCK], shm->stats[S_INJ_UNLOCK], shm->stats[S_INJ_OTHER]);
		tap(inj_ok, desc);
	}
	if (kmemleak) {
		snprintf(desc, sizeof(desc), "kmemleak: %d unreferenced objects after the run", leaks);
		tap(leaks == 0, desc);
	}
	printf("1..%d\n", tap_n);

	for (i = 0; i < shm->nlasterr && i < 8; i++)
		printf("# error: %s\n", shm->lasterr[i]);
	printf("# counts (seed %" PRIu64 "):", seed);
	for (i = 0; i < S_NSTATS; i++)
		printf("%s %s=%" PRIu64, i % 6 ? "" : "\n#  ", stat_name[i], shm->stats[i]);
	printf("\n");
	for (i = 0; i < NDEATH; i++)
		printf("# death[%d] (%s): acquisitions %" PRIu64 ", found OWNER_DIED %" PRIu64 ", found dead holder %" PRIu64 "\n",
		       i, shm->death[i].robust ? "robust" : "non-robust", shm->death[i].acq,
		       shm->death[i].died_seen, shm->death[i].recovered);
	printf("# tp-stress: %s\n", tap_fail ? "FAIL" : "PASS");
	return tap_fail ? 1 : 0;
}
