#include "testbed/calibrate/proc_stat.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace testbed::calibrate {

double parse_stat_cpu_ticks(const std::string& line) {
  // The command name (field 2) may hold spaces and parentheses: fields are
  // counted after the last ')'.
  const auto close = line.rfind(')');
  if (close == std::string::npos) throw std::runtime_error("unreadable /proc stat line");
  std::istringstream in(line.substr(close + 1));
  std::string field;
  double utime = 0, stime = 0;
  for (int i = 3; i <= 15 && in >> field; ++i) {
    if (i == 14) utime = std::stod(field);
    if (i == 15) stime = std::stod(field);
  }
  return utime + stime;
}

double process_cpu_s(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error("process " + std::to_string(pid) + " is gone");
  return parse_stat_cpu_ticks(line) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace testbed::calibrate
