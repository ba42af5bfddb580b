/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tp-mutex: a user space mutex on throughput-optimized (TP) futexes, the
 * FUTEX_LOCK (14) and FUTEX_UNLOCK (15) operations of futex(2) proposed by
 * this patch series.
 *
 * The futex word is 0 when the mutex is free and holds the owner's TID
 * (gettid()) when it is held, plus the FUTEX_WAITERS and FUTEX_OWNER_DIED
 * bits that the kernel may set.  Locking is a 0 -> TID compare-and-swap in
 * user space, and FUTEX_LOCK when that fails; unlocking is a TID -> 0
 * compare-and-swap, and FUTEX_UNLOCK when that fails because the kernel
 * set a bit.
 *
 * All functions return 0 or an errno value, like the pthread functions,
 * and leave errno alone.
 */
#ifndef TP_MUTEX_H
#define TP_MUTEX_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A process-private mutex.  All-zero is the unlocked state. */
typedef struct tp_mutex {
	uint32_t word;
} tp_mutex_t;

#define TP_MUTEX_INITIALIZER	{ 0 }

/*
 * Probe the kernel once per process: 0 if it implements FUTEX_LOCK and
 * FUTEX_UNLOCK, else the errno value of the probe (ENOSYS on a kernel
 * without TP futexes).  The probe is a FUTEX_UNLOCK_PRIVATE of a private
 * word that holds 0, which is not our TID: a TP kernel fails it with EPERM
 * ("the caller does not own the lock"), any other kernel with ENOSYS
 * (unknown futex operation).  As a seccomp filter could answer EPERM too,
 * a FUTEX_LOCK_PRIVATE of a word that holds our own TID must then fail
 * with EDEADLK, which a TP kernel reports before it could block.
 */
int tp_probe(void);
bool tp_supported(void);

/*
 * tp_mutex_lock() returns 0, or EDEADLK if the caller already holds the
 * mutex, or (for a corrupt or orphaned word) EPERM or ESRCH; see README.md.
 * A mutex whose owner exited while holding it is orphaned: the library
 * has no robust list, so the kernel leaves the dead owner's TID in the
 * word, and every lock call, a waiter's included, returns ESRCH until the
 * mutex is initialised again.  A word that a robust list released (a word
 * shared with code that has one) is acquired normally: the
 * FUTEX_OWNER_DIED bit stays in the word until the next unlock.
 */
int tp_mutex_lock(tp_mutex_t *m);

/* 0, or EBUSY if the mutex is held (by anybody, the caller included). */
int tp_mutex_trylock(tp_mutex_t *m);

/*
 * Like tp_mutex_lock(), but gives up with ETIMEDOUT at the absolute time
 * @abstime of clock @clk (CLOCK_MONOTONIC or CLOCK_REALTIME, else EINVAL).
 * As with pthread_mutex_timedlock(), a free mutex is taken whatever
 * @abstime holds; only a caller that would block gets EINVAL for a
 * tv_nsec outside [0, 1e9) and ETIMEDOUT for an expired or negative time.
 */
int tp_mutex_timedlock(tp_mutex_t *m, const struct timespec *abstime,
		       clockid_t clk);

/* 0, or EPERM if the caller does not hold the mutex. */
int tp_mutex_unlock(tp_mutex_t *m);

/*
 * The same operations on a bare futex word, which may live inside another
 * structure (libtp-shim uses the __lock word of a pthread_mutex_t).
 * @flags is FUTEX_PRIVATE_FLAG for a process-private word, or 0 for a word
 * in memory shared between processes.
 */
int tp_word_lock(uint32_t *word, int flags);
int tp_word_trylock(uint32_t *word);
int tp_word_timedlock(uint32_t *word, const struct timespec *abstime,
		      clockid_t clk, int flags);
int tp_word_unlock(uint32_t *word, int flags);

/* The caller's TID, cached per thread and refreshed after fork(). */
pid_t tp_self(void);

#ifdef __cplusplus
}
#endif

#endif /* TP_MUTEX_H */
