#!/bin/sh
# Test hook for ci/vm/boot: the program exits 0, but the kernel prints a splat
# (a lockdep-style line written to the kernel log); the run must fail with 255.
echo "<4>WARNING: CPU: 0 PID: 1 at tpf-test-hook (injected splat)" >/dev/kmsg
exit 0
