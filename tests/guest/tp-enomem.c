/* timeout: 60 */
// SPDX-License-Identifier: GPL-2.0
/*
 * tp-enomem: FUTEX_LOCK fails with ENOMEM when the kernel cannot allocate the
 * per-futex state, and the caller does not own the lock afterwards.
 *
 * A selftest cannot make the kernel's allocation fail, but failslab can: with
 * its task filter on, only this thread's allocations fail, and only while its
 * /proc/thread-self/make-it-fail is 1, which is set around the one FUTEX_LOCK
 * call.  The word is owned by a second thread, so FUTEX_LOCK has to queue and
 * allocate the state (a free word would be taken without allocating).
 *
 * SKIPs (exit 4) on kernels without CONFIG_FAILSLAB (the default and debug
 * configs); the fault-injection config has it: make test KCONFIG=fail.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "tp-futex.h"

#define FAILSLAB "/sys/kernel/debug/failslab"

static uint32_t word;
static pid_t owner_tid;

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static void *owner(void *arg)
{
	(void)arg;
	__atomic_store_n(&owner_tid, tp_gettid(), __ATOMIC_RELEASE);
	pause();
	return NULL;
}

static const char *const setup[][2] = {
	{ FAILSLAB "/task-filter", "Y" },
	{ FAILSLAB "/ignore-gfp-wait", "N" },
	{ FAILSLAB "/probability", "100" },
	{ FAILSLAB "/interval", "1" },
	{ FAILSLAB "/times", "-1" },
	{ FAILSLAB "/verbose", "0" },
};

int main(void)
{
	struct timespec abs;
	pthread_t t;
	long ret;
	int fd;
	size_t i;
	struct stat st;

	ksft_print_header();
	if (stat(FAILSLAB, &st)) {
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
		if (stat(FAILSLAB, &st))
			ksft_exit_skip("no %s (kernel without CONFIG_FAILSLAB; use KCONFIG=fail)\n",
				       FAILSLAB);
	}
	for (i = 0; i < ARRAY_SIZE(setup); i++)
		if (write_str(setup[i][0], setup[i][1]))
			ksft_exit_skip("cannot write %s: %s\n", setup[i][0], strerror(errno));
	/* Opened now: opening it later would itself allocate, and fail. */
	fd = open("/proc/thread-self/make-it-fail", O_WRONLY);
	if (fd < 0)
		ksft_exit_skip("no /proc/thread-self/make-it-fail: %s\n", strerror(errno));

	ksft_set_plan(4);
	if (pthread_create(&t, NULL, owner, NULL))
		ksft_exit_fail_msg("pthread_create failed\n");
	while (!__atomic_load_n(&owner_tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	word = (uint32_t)owner_tid;

	/* An absolute timeout, so that a kernel that does not fail cannot hang. */
	abs = tp_abs_timeout_ms(CLOCK_MONOTONIC, 1000);

	if (write(fd, "1", 1) != 1)
		ksft_exit_fail_msg("cannot set make-it-fail: %s\n", strerror(errno));
	ret = tp_futex_lock(&word, FUTEX_PRIVATE_FLAG, &abs);
	if (pwrite(fd, "0", 1, 0) != 1)
		ksft_exit_fail_msg("cannot clear make-it-fail: %s\n", strerror(errno));
	ksft_print_msg("FUTEX_LOCK with failing allocations: returned %ld (%s)\n", ret,
		       ret < 0 ? strerror((int)-ret) : "-");
	ksft_test_result(ret == -ENOMEM,
			 "FUTEX_LOCK returns ENOMEM when the futex state cannot be allocated\n");
	ksft_test_result(word == (uint32_t)owner_tid,
			 "the word still names the owner (the caller did not take the lock)\n");

	/* Without failing allocations the same call queues and times out. */
	abs = tp_abs_timeout_ms(CLOCK_MONOTONIC, 50);
	ret = tp_futex_lock(&word, FUTEX_PRIVATE_FLAG, &abs);
	ksft_test_result(ret == -ETIMEDOUT, "afterwards FUTEX_LOCK queues normally and times out\n");
	ksft_test_result((word & FUTEX_TID_MASK) == (uint32_t)owner_tid,
			 "and the owner still owns the word\n");

	write_str(FAILSLAB "/probability", "0");
	ksft_finished();
}
