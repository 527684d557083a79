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
#include <type_traits>

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

// A command-line whole number in [lo, hi]: digits only, all of the text
// (common/number_text.h), as --seed reads it. CLI::Range checks the value
// CLI11 converted, and CLI11 takes "0x10" as 16, " 8" as 8 and "-0" as 0
// (probe 7: `clerk new --workers 0x10` wrote 16 workers).
template <class T>
CLI::Validator whole_range(T lo, T hi) {
  static_assert(std::is_integral_v<T>);
  return CLI::Validator(
      [lo, hi](std::string& text) {
        const std::optional<T> v = number_text<T>(text);
        if (!v || *v < lo || *v > hi) return "must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
        return std::string();
      },
      "N");
}

// A command-line decimal number, all of the text, whose range the command
// checks itself (an empty --confidence was taken as the default).
inline CLI::Validator decimal_number() {
  return CLI::Validator(
      [](std::string& text) { return number_text<double>(text) ? std::string() : std::string("must be a decimal number"); },
      "NUMBER");
}

}  // namespace common
