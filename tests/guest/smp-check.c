/* timeout: 30 */
// SPDX-License-Identifier: GPL-2.0
/*
 * Guest sanity check: the kernel under test brought up every vCPU that
 * QEMU was given (tpf.cpus= on the command line) and can run a thread on
 * each of them.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"

static int want_cpus(void)
{
	char buf[4096], *p;
	FILE *f = fopen("/proc/cmdline", "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strstr(buf, "tpf.cpus=");
	return p ? atoi(p + strlen("tpf.cpus=")) : -1;
}

static void *pin(void *arg)
{
	long cpu = (long)arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || sched_getcpu() != cpu)
		return (void *)1;
	return NULL;
}

int main(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int want = want_cpus();
	int ok = 1;
	long i;

	ksft_print_header();
	ksft_set_plan(2);
	ksft_test_result(want > 0 && online == want, "%ld CPUs online, %d requested\n",
			 online, want);
	for (i = 0; i < online; i++) {
		pthread_t t;
		void *ret;

		if (pthread_create(&t, NULL, pin, (void *)i) ||
		    pthread_join(t, &ret) || ret)
			ok = 0;
	}
	ksft_test_result(ok, "a thread ran on each online CPU\n");
	ksft_finished();
}
