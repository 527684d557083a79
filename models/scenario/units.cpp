#include <algorithm>
#include "models/scenario/units.h"

#include <cctype>
#include <cmath>
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

// The number written before the unit, times 10^exp10, rounded once: the
// power of ten is applied to the decimal text ("100" "us" reads as 100e-6)
// rather than to the number already rounded to a double, so "100us" and
// "0.1ms" are the same double as "0.0001" (100 * 1e-6 rounds twice and
// lands one step below 1e-4, under a range's lower end).
double decimal_scaled(const std::string& text, int exp10) {
  const char* begin = text.c_str();
  char* end = nullptr;
  std::strtod(begin, &end);
  std::string mantissa(begin, static_cast<std::size_t>(end - begin));
  if (mantissa.find_first_not_of("0123456789.+-eE") != std::string::npos) {  // "inf", hex: scale the double
    const double n = std::strtod(begin, nullptr);
    return exp10 < 0 ? n / std::pow(10.0, -exp10) : n * std::pow(10.0, exp10);
  }
  long exponent = exp10;
  const std::size_t e = mantissa.find_first_of("eE");
  if (e != std::string::npos) {
    // strtol saturates at LONG_MIN/MAX on "1e-99999999999999999999": kept
    // within a double's reach first (1e-400 is 0, 1e400 infinite either way),
    // so adding exp10 never overflows.
    exponent += std::clamp(std::strtol(mantissa.c_str() + e + 1, nullptr, 10), -1000L, 1000L);
    mantissa.erase(e);
  }
  return std::strtod((mantissa + "e" + std::to_string(exponent)).c_str(), nullptr);
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

// Each unit: its power of ten for the value as written, and the factor the
// run has always used (the product below; within a rounding of the other).
bool parse_duration(const std::string& text, double& seconds, double* as_written) {
  double n;
  std::string unit;
  if (!split(text, n, unit) || n < 0) return false;
  int exp10 = 0;
  if (unit == "ns") seconds = n * 1e-9, exp10 = -9;
  else if (unit == "us") seconds = n * 1e-6, exp10 = -6;
  else if (unit == "ms") seconds = n * 1e-3, exp10 = -3;
  else if (unit == "s" || unit.empty()) seconds = n;
  else if (unit == "m") seconds = n * 60;
  else if (unit == "h") seconds = n * 3600;
  else return false;
  if (as_written) *as_written = exp10 ? decimal_scaled(text, exp10) : seconds;
  return true;
}

// Decimal units of bytes or bits per second; a bit rate is the byte rate
// over 8.
bool parse_rate(const std::string& text, double& bps, double* as_written) {
  double n;
  std::string unit;
  if (!split(text, n, unit) || n < 0) return false;
  int exp10 = 0;
  double bits = 1;  // 8: a bit rate
  if (unit == "B/s") bps = n;
  else if (unit == "KB/s" || unit == "kB/s") bps = n * 1e3, exp10 = 3;
  else if (unit == "MB/s") bps = n * 1e6, exp10 = 6;
  else if (unit == "GB/s") bps = n * 1e9, exp10 = 9;
  else if (unit == "TB/s") bps = n * 1e12, exp10 = 12;
  else if (unit == "Kbit/s" || unit == "kbit/s") bps = n * 1e3 / 8, exp10 = 3, bits = 8;
  else if (unit == "Mbit/s") bps = n * 1e6 / 8, exp10 = 6, bits = 8;
  else if (unit == "Gbit/s") bps = n * 1e9 / 8, exp10 = 9, bits = 8;
  else if (unit == "Tbit/s") bps = n * 1e12 / 8, exp10 = 12, bits = 8;
  else return false;
  if (as_written) *as_written = exp10 ? decimal_scaled(text, exp10) / bits : bps;
  return true;
}

}  // namespace models
