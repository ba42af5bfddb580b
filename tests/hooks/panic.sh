#!/bin/sh
# Test hook for ci/vm/boot: crash the guest on purpose.  The run must be reported
# as a failure (status 255) well within the timeout, not hang.
echo "triggering a kernel panic through sysrq"
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
sleep 600
