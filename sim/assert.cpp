#include "sim/assert.h"

#include <cstdio>
#include <cstdlib>

namespace sim {

namespace {

void print_and_abort(const char* condition, const char* what, const char* file, int line) {
  std::fprintf(stderr, "clerk: internal error: %s:%d: assertion '%s' failed: %s\n", file, line, condition, what);
  std::abort();
}

AssertHandler handler_ = print_and_abort;

}  // namespace

AssertHandler set_assert_handler(AssertHandler handler) {
  const AssertHandler previous = handler_;
  handler_ = handler ? handler : print_and_abort;
  return previous;
}

void assert_failed(const char* condition, const char* what, const char* file, int line) {
  handler_(condition, what, file, line);
  std::abort();  // a handler that returns has not stopped the violation
}

}  // namespace sim
