// SPDX-License-Identifier: GPL-2.0
/*
 * exit-cost: how many fork() + _exit() + waitpid() rounds per second the
 * kernel does, the cost that futex_exit_release() (and with the TP series
 * futex_tp_wake()) adds to every task exit.  Runs in the guest; ci/bench/exit.sh
 * boots the kernel with and without the series alternately and compares.
 *
 * Usage: exit-cost [samples] [ms per sample]    (default 7 x 400 ms)
 * Prints one "exit-cost sample=N rounds=R ms=T per_s=X" line per sample.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	int samples = argc > 1 ? atoi(argv[1]) : 7;
	int ms = argc > 2 ? atoi(argv[2]) : 400;
	int i;

	if (samples <= 0 || ms <= 0) {
		fprintf(stderr, "usage: exit-cost [samples > 0] [ms per sample > 0]\n");
		return 2;
	}
	/* One warm-up sample, not printed. */
	for (i = -1; i < samples; i++) {
		double t0 = now_ms(), t;
		long rounds = 0;

		do {
			pid_t pid = fork();

			if (pid < 0) {
				perror("exit-cost: fork");
				return 1;
			}
			if (!pid)
				_exit(0);
			if (waitpid(pid, NULL, 0) != pid) {
				perror("exit-cost: waitpid");
				return 1;
			}
			rounds++;
			t = now_ms() - t0;
		} while (t < ms);
		if (i >= 0)
			printf("exit-cost sample=%d rounds=%ld ms=%.1f per_s=%.1f\n",
			       i, rounds, t, rounds * 1e3 / t);
	}
	return 0;
}
