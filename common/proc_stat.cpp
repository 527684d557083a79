#include "common/proc_stat.h"

#include <sstream>
#include <stdexcept>

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

std::uint64_t parse_softirq_count(const std::string& text, const std::string& name) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string first;
    if (!(words >> first) || first != name + ":") continue;
    std::uint64_t sum = 0;
    std::string count;
    while (words >> count) {
      if (count.size() > 19 || count.find_first_not_of("0123456789") != std::string::npos)
        throw std::runtime_error("/proc/softirqs: " + name + ": \"" + count + "\" is not a count");
      sum += std::stoull(count);
    }
    return sum;
  }
  return 0;
}

}  // namespace common
