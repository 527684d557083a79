#!/usr/bin/env bash
# CLERK_ASSERT's default handler: the program (tests/assert_abort.cpp) prints
# the violated condition and what it means, then aborts (SIGABRT: 134).
set -u
err=$(mktemp)
trap 'rm -f "$err"' EXIT
"$1" 2>"$err"
status=$?
if [ $status -ne 134 ]; then
  echo "FAIL: exit status $status, wanted 134 (SIGABRT)"; cat "$err"; exit 1
fi
if ! grep -q "clerk: internal error: .*assertion 'size_ > 0' failed: Ring::pop_front on an empty ring" "$err"; then
  echo "FAIL: message:"; cat "$err"; exit 1
fi
echo "assert_aborts: the violated assertion was named and the program aborted"
