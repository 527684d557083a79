#include "models/scenario/units.h"

#include <cctype>
#include <cstdlib>

namespace models {

namespace {
// Splits "12.5ms" into 12.5 and "ms"; false if there is no number.
bool split(const std::string& text, double& number, std::string& unit) {
  const char* begin = text.c_str();
  char* end = nullptr;
  number = std::strtod(begin, &end);
  if (end == begin || !(number == number)) return false;
  unit.assign(end);
  while (!unit.empty() && unit.front() == ' ') unit.erase(unit.begin());
  return true;
}
}  // namespace

bool parse_size(const std::string& text, std::uint64_t& bytes) {
  double n;
  std::string unit;
  if (!split(text, n, unit) || n < 0) return false;
  double scale;
  if (unit.empty()) scale = 1;
  else if (unit == "k" || unit == "K") scale = 1024.0;
  else if (unit == "m" || unit == "M") scale = 1024.0 * 1024;
  else if (unit == "g" || unit == "G") scale = 1024.0 * 1024 * 1024;
  else if (unit == "t" || unit == "T") scale = 1024.0 * 1024 * 1024 * 1024;
  else return false;
  const double v = n * scale;
  if (v > 1.8e19 || v != static_cast<double>(static_cast<std::uint64_t>(v))) return false;  // whole bytes only
  bytes = static_cast<std::uint64_t>(v);
  return true;
}

bool parse_duration(const std::string& text, double& seconds) {
  double n;
  std::string unit;
  if (!split(text, n, unit) || n < 0) return false;
  if (unit == "ns") seconds = n * 1e-9;
  else if (unit == "us") seconds = n * 1e-6;
  else if (unit == "ms") seconds = n * 1e-3;
  else if (unit == "s" || unit.empty()) seconds = n;
  else if (unit == "m") seconds = n * 60;
  else if (unit == "h") seconds = n * 3600;
  else return false;
  return true;
}

bool parse_rate(const std::string& text, double& bps) {
  double n;
  std::string unit;
  if (!split(text, n, unit) || n < 0) return false;
  if (unit == "B/s") bps = n;
  else if (unit == "KB/s" || unit == "kB/s") bps = n * 1e3;
  else if (unit == "MB/s") bps = n * 1e6;
  else if (unit == "GB/s") bps = n * 1e9;
  else if (unit == "Kbit/s" || unit == "kbit/s") bps = n * 1e3 / 8;
  else if (unit == "Mbit/s") bps = n * 1e6 / 8;
  else if (unit == "Gbit/s") bps = n * 1e9 / 8;
  else return false;
  return true;
}

}  // namespace models
