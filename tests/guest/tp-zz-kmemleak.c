/* timeout: 150 */
// SPDX-License-Identifier: GPL-2.0
/*
 * tp-zz-kmemleak: runs last among the project's guest tests (name order) and asks
 * kmemleak for unreferenced objects left by everything that ran before it (the futex
 * selftests and the tp-* tests).  A leak whose backtrace goes through the futex code
 * fails the test; other leaks (boot-time noise of a tiny kernel) are only shown.
 *
 * SKIPs (exit 4) on kernels without CONFIG_DEBUG_KMEMLEAK (e.g. the default config);
 * run the suite with `make test KCONFIG=debug` to get it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest.h"

#define KMEMLEAK "/sys/kernel/debug/kmemleak"

static int write_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fputs(s, f) >= 0;
	ok &= fclose(f) == 0;
	return ok ? 0 : -1;
}

int main(void)
{
	char line[512], obj[4096] = "";
	int total = 0, futex = 0, in_obj = 0, obj_futex = 0, shown = 0;
	struct stat st;
	FILE *f;

	ksft_print_header();
	if (stat(KMEMLEAK, &st)) {
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
		if (stat(KMEMLEAK, &st))
			ksft_exit_skip("no %s (kernel without CONFIG_DEBUG_KMEMLEAK; use KCONFIG=debug)\n",
				       KMEMLEAK);
	}
	/* Objects younger than ~5 s are not reported; scan twice to settle. */
	sleep(6);
	if (write_str(KMEMLEAK, "scan"))
		ksft_exit_skip("cannot write %s: %s (kmemleak disabled?)\n", KMEMLEAK,
			       strerror(errno));
	sleep(6);
	write_str(KMEMLEAK, "scan");

	f = fopen(KMEMLEAK, "r");
	if (!f)
		ksft_exit_skip("cannot read %s: %s\n", KMEMLEAK, strerror(errno));
	for (;;) {
		char *got = fgets(line, sizeof(line), f);

		if (!got || !strncmp(line, "unreferenced object", 19)) {
			if (in_obj) {
				if (obj_futex)
					futex++;
				if (obj_futex || shown < 3) {
					ksft_print_msg("%s leak:\n%s", obj_futex ? "FUTEX" : "other",
						       obj);
					shown++;
				}
			}
			if (!got)
				break;
			total++;
			in_obj = 1;
			obj_futex = 0;
			obj[0] = 0;
		}
		if (in_obj) {
			if (strstr(line, "futex"))
				obj_futex = 1;
			if (strlen(obj) + strlen(line) + 3 < sizeof(obj)) {
				strcat(obj, "#   ");
				strcat(obj, line);
			}
		}
	}
	fclose(f);
	ksft_set_plan(2);
	ksft_test_result(!futex,
			 "kmemleak: no unreferenced object allocated from the futex code (%d found)\n",
			 futex);
	ksft_test_result_pass("kmemleak: %d unreferenced objects in total (informational)\n",
			      total);
	ksft_finished();
}
