# What the shell tests share; each sources it after reading its arguments:
#   . "$(dirname "$0")/lib.sh"
# It makes $tmp (removed on exit), counts failures in $failures and gives
# the checks below. A test that bounds each command sets `expect_timeout`
# (seconds) before its first expect_status.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expect_status() {  # expected, description, command...: its output in $tmp/out and $tmp/err
  local want=$1 what=$2; shift 2
  if [ "${expect_timeout:-0}" -gt 0 ]; then
    timeout "$expect_timeout" "$@" >"$tmp/out" 2>"$tmp/err"
  else
    "$@" >"$tmp/out" 2>"$tmp/err"
  fi
  local got=$?
  [ "$got" -eq "$want" ] || fail "$what: exit $got, wanted $want ($(head -c 300 "$tmp/err"))"
}
expect_message() {  # description, extended regular expression the error output must match
  grep -Eq -e "$2" "$tmp/err" || fail "$1: message '$(head -c 300 "$tmp/err")' does not match '$2'"
}
expect_text() {  # description, text the error output must contain
  grep -qF -- "$2" "$tmp/err" || fail "$1: message lacks '$2': $(head -c 300 "$tmp/err")"
}
# The error output without the note a sanitized build's ASan writes when a
# SimGrid actor throws (SimGrid switches stacks without telling ASan, which
# then declines to unpoison a "stack" spanning the heap): three lines, the
# first naming __asan_handle_no_return. A release build never writes it.
stderr_without_asan_notes() {
  sed -e '/WARNING: ASan is ignoring requested __asan_handle_no_return/,+2d' "$tmp/err"
}
