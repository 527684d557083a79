#include "common/proc_stat.h"

#include <sstream>

namespace common {

std::optional<std::uint64_t> parse_stat_cpu_ticks(const std::string& stat) {
  const std::size_t paren = stat.rfind(')');
  if (paren == std::string::npos) return std::nullopt;
  // After ") ": field 3 (state) onwards; utime and stime are fields 14 and 15.
  std::istringstream in(stat.substr(paren + 1));
  std::string field;
  for (int i = 3; i <= 13; ++i)
    if (!(in >> field)) return std::nullopt;
  std::uint64_t utime = 0, stime = 0;
  if (!(in >> utime >> stime)) return std::nullopt;
  return utime + stime;
}

}  // namespace common
