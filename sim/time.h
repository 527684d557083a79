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
// work it stands for is finished.
inline Time from_seconds_ceil(double s) {
  double ns = s * 1e9;
  auto t = static_cast<Time>(ns);
  return (static_cast<double>(t) < ns) ? t + 1 : t;
}

}  // namespace sim
