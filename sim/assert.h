// CLERK_ASSERT(condition, what): an invariant of the engine or a model's
// bookkeeping (a ring's size, a slot pool's free list, an LRU list's links,
// a fair-share heap, the engine's timers), checked in the builds meant to
// find bugs and compiled out of the one meant to run fast.
//
// Active when CLERK_ASSERTS is defined: the sanitized build (CLERK_SANITIZE)
// and the Debug build (top-level CMakeLists.txt). A violated assertion calls
// the handler, by default one that prints the condition, the file and line
// and `what` to stderr and aborts (exit as the internal error it is: a bug in
// clerk, never bad input, which is refused with exit status 2 long before).
// Tests may install a handler that throws, to check that an assertion fires.
//
// In release builds the condition is not evaluated (it sits in sizeof, an
// unevaluated operand): no side effect, no cost, and still compiled, so an
// assertion cannot rot or leave a variable "unused" in one build only.
// Conditions must therefore be free of side effects.
#pragma once

namespace sim {

using AssertHandler = void (*)(const char* condition, const char* what, const char* file, int line);

// Installs `handler` (nullptr: the default, print and abort) and returns the
// previous one. For tests; not thread-safe.
AssertHandler set_assert_handler(AssertHandler handler);

// Calls the handler; aborts if it returns.
[[noreturn]] void assert_failed(const char* condition, const char* what, const char* file, int line);

// Whether this build checks assertions.
constexpr bool kAssertsActive =
#ifdef CLERK_ASSERTS
    true;
#else
    false;
#endif

}  // namespace sim

#ifdef CLERK_ASSERTS
#define CLERK_ASSERT(condition, what) \
  ((condition) ? static_cast<void>(0) : ::sim::assert_failed(#condition, what, __FILE__, __LINE__))
#else
#define CLERK_ASSERT(condition, what) static_cast<void>(sizeof(static_cast<bool>(condition)))
#endif
