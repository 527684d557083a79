#include "models/scenario/limits.h"

#include <cmath>
#include <fmt/format.h>

#include "models/scenario/config_error.h"

namespace models::limits {

double check_run_duration(double seconds, const std::string& option) {
  if (!std::isfinite(seconds) || seconds <= 0 || seconds > kMaxRunSeconds)
    throw ConfigError(option, 0, "",
                      fmt::format("must be a number of seconds above 0 and at most {:g} (got {:.6g})", kMaxRunSeconds, seconds));
  return seconds;
}

std::string rate_range_text() { return "between 1kB/s and 10TB/s"; }

}  // namespace models::limits
