#include "common/proc_stat.h"

#include <algorithm>
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

std::vector<std::uint32_t> parse_softirq_counts(const std::string& text, const std::string& name) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string first;
    if (!(words >> first) || first != name + ":") continue;
    std::vector<std::uint32_t> counts;
    std::string count;
    while (words >> count) {
      if (count.size() > 10 || count.find_first_not_of("0123456789") != std::string::npos ||
          std::stoull(count) > 0xffffffffull)
        throw std::runtime_error("/proc/softirqs: " + name + ": \"" + count + "\" is not a count");
      counts.push_back(static_cast<std::uint32_t>(std::stoull(count)));
    }
    return counts;
  }
  return {};
}

std::uint64_t softirqs_between(const std::vector<std::uint32_t>& before, const std::vector<std::uint32_t>& after) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < std::min(before.size(), after.size()); ++i)
    sum += static_cast<std::uint32_t>(after[i] - before[i]);  // unsigned: modulo 2^32
  return sum;
}

}  // namespace common
