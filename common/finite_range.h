// A command-line number checked as CLI::Range(lo, hi) checks it, and also
// finite: CLI::Range compares `v < lo || v > hi`, which NaN passes (every
// comparison with NaN is false), so `--rate nan` wrote a closed-loop
// scenario and `--zipf nan` reached the alias table (exit 3). Here the text
// must be a decimal number, all of it (common/number_text.h: strtod took
// "0x10" as 16), finite, and in [lo, hi]; the range is printed %g style
// (not 1e308 in 309 digits). Header-only: for the front ends that use CLI11
// (cli/, testbed/).
#pragma once
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "common/number_text.h"

namespace common {

inline std::string finite_range_problem(const std::string& text, double lo, double hi) {
  char range[96];
  std::snprintf(range, sizeof range, "must be a number from %g to %g", lo, hi);
  const std::optional<double> v = number_text<double>(text);
  if (!v || !std::isfinite(*v) || *v < lo || *v > hi) return range;
  return {};
}

inline CLI::Validator finite_range(double lo, double hi) {
  return CLI::Validator([lo, hi](std::string& text) { return finite_range_problem(text, lo, hi); }, "NUMBER");
}

}  // namespace common
