/* timeout: 150 */
// SPDX-License-Identifier: GPL-2.0
/*
 * tp-rewrite: a hostile thread rewrites a TP futex word for 45 s while a
 * waiter sits in FUTEX_LOCK.
 *
 * The word always names one of two sleeping owners and never has
 * FUTEX_WAITERS, so the top waiter keeps finding a new owner that is not
 * running, sets FUTEX_WAITERS, sees it overwritten and goes round again.
 * Every such loop in the kernel must reach a scheduling point: the serial
 * log of the run must show no RCU stall and no soft lockup (the verdict
 * fails the run on either).  When the rewriting stops, the rewriter takes
 * the word and unlocks it through FUTEX_UNLOCK, and the waiter must then
 * own the lock.
 *
 * Usage: tp-rewrite [seconds [writers]]   (default 45 s, one writer per
 * online CPU but one: more writers leave the waiter fewer moments in which
 * the word holds still)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "tp-futex.h"

/* volatile: every store must reach memory, none may be merged away. */
static volatile uint32_t word;
static int block[2];		/* the sleeping owners read from it */
static pid_t owner_tid[2];
static pid_t waiter_tid;
static long waiter_ret = -1000;	/* -1000: still in FUTEX_LOCK; else its result or -errno */

static volatile int stop_writing;

/* Rewrite the word until told to stop: the hostile part. */
static void *writer(void *arg)
{
	unsigned long *stores = arg;

	while (!stop_writing) {
		int i;

		for (i = 0; i < 10000; i++) {
			word = owner_tid[0];
			word = owner_tid[1];
		}
		*stores += 20000;
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *sleeping_owner(void *arg)
{
	char c;

	__atomic_store_n(&owner_tid[(long)arg], tp_gettid(), __ATOMIC_RELEASE);
	while (read(block[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static void *waiter(void *arg)
{
	long ret;

	(void)arg;
	__atomic_store_n(&waiter_tid, tp_gettid(), __ATOMIC_RELEASE);
	ret = tp_futex_lock(&word, FUTEX_PRIVATE_FLAG, NULL);
	__atomic_store_n(&waiter_ret, ret, __ATOMIC_RELEASE);
	return NULL;
}

/* The waiter's context switches, for the log. */
static void log_switches(const char *when)
{
	char path[64], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", waiter_tid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "ctxt_switches"))
			ksft_print_msg("%s: waiter %s", when, line);
	fclose(f);
}

int main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 45;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nwriters = argc > 2 ? atoi(argv[2]) : (ncpu > 2 ? ncpu - 1 : 1);
	pthread_t owners[2], w, writers[64];
	unsigned long stores[64] = { 0 }, total = 0;
	double t0, t_unlock;
	pid_t me = tp_gettid();
	long i, ret;

	ksft_print_header();
	ksft_set_plan(3);

	ret = tp_futex_unlock(&word, FUTEX_PRIVATE_FLAG);
	if (ret != -EPERM)
		ksft_exit_skip("kernel has no FUTEX_LOCK/FUTEX_UNLOCK (FUTEX_UNLOCK gave %s)\n",
			       ret < 0 ? strerror((int)-ret) : "success");
	if (secs <= 0 || nwriters <= 0 || nwriters > 64)
		ksft_exit_fail_msg("usage: tp-rewrite [seconds > 0 [writers 1..64]]\n");

	if (pipe(block))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	for (i = 0; i < 2; i++)
		if (pthread_create(&owners[i], NULL, sleeping_owner, (void *)i))
			ksft_exit_fail_msg("pthread_create failed\n");
	while (!__atomic_load_n(&owner_tid[0], __ATOMIC_ACQUIRE) ||
	       !__atomic_load_n(&owner_tid[1], __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(100000);		/* let them block in read() */

	word = owner_tid[0];
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (pthread_create(&w, NULL, waiter, NULL))
		ksft_exit_fail_msg("pthread_create failed\n");
	while (!__atomic_load_n(&waiter_tid, __ATOMIC_ACQUIRE))
		usleep(1000);

	ksft_print_msg("%d writer(s) rewrite the word for %d s: owners %d and %d (asleep), waiter %d\n",
		       nwriters, secs, owner_tid[0], owner_tid[1], waiter_tid);
	t0 = now();
	for (i = 0; i < nwriters; i++)
		if (pthread_create(&writers[i], NULL, writer, &stores[i]))
			ksft_exit_fail_msg("pthread_create failed\n");
	while (now() - t0 < secs)
		usleep(100000);
	stop_writing = 1;
	for (i = 0; i < nwriters; i++) {
		pthread_join(writers[i], NULL);
		total += stores[i];
	}
	ksft_test_result(__atomic_load_n(&waiter_ret, __ATOMIC_ACQUIRE) == -1000,
			 "the waiter stayed in FUTEX_LOCK while the word was rewritten (%lu stores)\n",
			 total);
	log_switches("after rewriting");

	/* Stop: take the word (it names us) and unlock it through the kernel. */
	word = me;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	t_unlock = now();
	ret = tp_futex_unlock(&word, FUTEX_PRIVATE_FLAG);
	ksft_test_result(ret == 0 || ret == 1, "FUTEX_UNLOCK by the last writer returned %ld (%s)\n",
			 ret, ret < 0 ? strerror((int)-ret) : "ok");

	while (__atomic_load_n(&waiter_ret, __ATOMIC_ACQUIRE) == -1000 && now() - t_unlock < 20)
		usleep(1000);
	ret = __atomic_load_n(&waiter_ret, __ATOMIC_ACQUIRE);
	ksft_test_result(ret >= 0 && ret <= 2 &&
			 (word & FUTEX_TID_MASK) == (uint32_t)waiter_tid,
			 "the waiter got the lock once the rewriting stopped: FUTEX_LOCK returned %ld (%s), word %#x, after %.3f s\n",
			 ret, ret < 0 && ret != -1000 ? strerror((int)-ret) : "-",
			 word, now() - t_unlock);
	if (ret == -1000)
		ksft_exit_fail_msg("the waiter is still in FUTEX_LOCK 20 s after the unlock\n");

	pthread_join(w, NULL);
	close(block[1]);
	for (i = 0; i < 2; i++)
		pthread_join(owners[i], NULL);
	ksft_finished();
}
