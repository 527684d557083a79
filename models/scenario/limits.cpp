#include "models/scenario/limits.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

#include "models/scenario/config_error.h"

namespace models::limits {

double check_run_duration(double seconds, const std::string& option) {
  if (!std::isfinite(seconds) || seconds < kMinRunSeconds || seconds > kMaxRunSeconds)
    throw ConfigError(option, 0, "",
                      fmt::format("must be a number of seconds from {:g} to {:g} (got {:.6g})", kMinRunSeconds,
                                  kMaxRunSeconds, seconds));
  return seconds;
}

std::string seed_problem(const std::string& text) {
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  errno = 0;
  const unsigned long long v = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
  if (!digits || errno == ERANGE || v > kMaxSeed) return fmt::format("must be a whole number from 0 to {}", kMaxSeed);
  return "";
}

std::string rate_range_text() { return "between 1kB/s and 10TB/s"; }

}  // namespace models::limits
