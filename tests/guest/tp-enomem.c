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
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef FUTEX_LOCK
#define FUTEX_LOCK	14
#define FUTEX_UNLOCK	15
#endif

#define FAILSLAB "/sys/kernel/debug/failslab"

static uint32_t word;
static pid_t owner_tid;
static int failures;

static long futex_lock(uint32_t *uaddr, const struct timespec *abs)
{
	return syscall(SYS_futex, uaddr, FUTEX_LOCK | FUTEX_PRIVATE_FLAG, 0, abs, NULL, 0);
}

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

static void check(int ok, const char *what)
{
	static int n;

	printf("%sok %d %s\n", ok ? "" : "not ", ++n, what);
	if (!ok)
		failures++;
}

static void *owner(void *arg)
{
	(void)arg;
	__atomic_store_n(&owner_tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
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
	int err, fd;
	size_t i;
	struct stat st;

	printf("TAP version 13\n");
	if (stat(FAILSLAB, &st)) {
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
		if (stat(FAILSLAB, &st)) {
			printf("1..0 # SKIP no %s (kernel without CONFIG_FAILSLAB; use KCONFIG=fail)\n",
			       FAILSLAB);
			return 4;
		}
	}
	for (i = 0; i < sizeof(setup) / sizeof(setup[0]); i++) {
		if (write_str(setup[i][0], setup[i][1])) {
			printf("1..0 # SKIP cannot write %s: %s\n", setup[i][0], strerror(errno));
			return 4;
		}
	}
	/* Opened now: opening it later would itself allocate, and fail. */
	fd = open("/proc/thread-self/make-it-fail", O_WRONLY);
	if (fd < 0) {
		printf("1..0 # SKIP no /proc/thread-self/make-it-fail: %s\n", strerror(errno));
		return 4;
	}

	printf("1..4\n");
	if (pthread_create(&t, NULL, owner, NULL)) {
		printf("Bail out! pthread_create failed\n");
		return 1;
	}
	while (!__atomic_load_n(&owner_tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	word = (uint32_t)owner_tid;

	/* An absolute timeout, so that a kernel that does not fail cannot hang. */
	clock_gettime(CLOCK_MONOTONIC, &abs);
	abs.tv_sec += 1;

	if (write(fd, "1", 1) != 1) {
		printf("Bail out! cannot set make-it-fail: %s\n", strerror(errno));
		return 1;
	}
	ret = futex_lock(&word, &abs);
	err = errno;
	if (pwrite(fd, "0", 1, 0) != 1) {
		printf("Bail out! cannot clear make-it-fail: %s\n", strerror(errno));
		return 1;
	}
	printf("# FUTEX_LOCK with failing allocations: ret %ld, errno %d (%s)\n", ret, err,
	       ret < 0 ? strerror(err) : "-");
	check(ret == -1 && err == ENOMEM, "FUTEX_LOCK returns ENOMEM when the futex state cannot be allocated");
	check(word == (uint32_t)owner_tid, "the word still names the owner (the caller did not take the lock)");

	/* Without failing allocations the same call queues and times out. */
	clock_gettime(CLOCK_MONOTONIC, &abs);
	abs.tv_nsec += 50 * 1000 * 1000;
	if (abs.tv_nsec >= 1000000000L) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000L;
	}
	ret = futex_lock(&word, &abs);
	err = errno;
	check(ret == -1 && err == ETIMEDOUT, "afterwards FUTEX_LOCK queues normally and times out");
	check((word & FUTEX_TID_MASK) == (uint32_t)owner_tid, "and the owner still owns the word");

	write_str(FAILSLAB "/probability", "0");
	printf("# Totals: pass:%d fail:%d\n", 4 - failures, failures);
	return failures ? 1 : 0;
}
