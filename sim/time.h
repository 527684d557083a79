// Simulated time: integer nanoseconds since the start of a run.
// Integers keep event order exact and runs reproducible; 2^63 ns is 292 years.
#pragma once
#include <cstdint>

namespace sim {

using Time = std::int64_t;

constexpr Time kNever = INT64_MAX;
constexpr Time nanoseconds(std::int64_t n) { return n; }
constexpr Time microseconds(std::int64_t n) { return n * 1000; }
constexpr Time milliseconds(std::int64_t n) { return n * 1000 * 1000; }
constexpr Time seconds(std::int64_t n) { return n * 1000 * 1000 * 1000; }
constexpr double to_seconds(Time t) { return static_cast<double>(t) * 1e-9; }

// Rounds up so that an event computed from a rate never fires before the
// work it stands for is finished. Total: a span too long for int64
// nanoseconds (or infinite) is kNever, a negative one or NaN is 0; the
// scenario loader bounds every input (models/scenario/limits.h) so that
// valid scenarios never come near either end.
inline Time from_seconds_ceil(double s) {
  const double ns = s * 1e9;
  if (!(ns > 0)) return 0;
  if (!(ns < 9.2e18)) return kNever;  // 2^63 is 9.22e18
  auto t = static_cast<Time>(ns);
  return (static_cast<double>(t) < ns) ? t + 1 : t;
}

// A time someone wrote (a run's duration, a warm-up): the nearest whole
// nanosecond, so that times a nanosecond apart stay apart (a double's
// 1.000000001 x 1e9 is 1000000001.0000001, which the ceiling above makes
// 1,000,000,002). Total as from_seconds_ceil.
inline Time from_seconds_nearest(double s) {
  const double ns = s * 1e9;
  if (!(ns > 0)) return 0;
  if (!(ns < 9.2e18)) return kNever;
  auto t = static_cast<Time>(ns);
  return ns - static_cast<double>(t) >= 0.5 ? t + 1 : t;
}

// now + delay, kNever when that would pass the end of representable time.
constexpr Time later(Time now, Time delay) { return delay >= kNever - now ? kNever : now + delay; }

}  // namespace sim
