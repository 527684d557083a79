#include "testbed/calibrate/profile_writer.h"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <stdexcept>


namespace testbed::calibrate {

std::string toml_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string duration_text(double seconds) {
  // Four significant digits in the largest unit that keeps the number >= 1
  // (below a nanosecond: ns with decimals, as per-byte costs are).
  if (seconds < 1e-6) return fmt::format("{:.4g}ns", seconds * 1e9);
  if (seconds < 1e-3) return fmt::format("{:.4g}us", seconds * 1e6);
  if (seconds < 1) return fmt::format("{:.4g}ms", seconds * 1e3);
  return fmt::format("{:.4g}s", seconds);
}
std::string duration_value(double seconds) { return toml_string(duration_text(seconds)); }

std::string size_value_mib(std::uint64_t bytes) { return toml_string(fmt::format("{}m", bytes >> 20)); }

std::string size_value(std::uint64_t bytes) {
  if (bytes > 0 && bytes % (1 << 20) == 0) return toml_string(fmt::format("{}m", bytes >> 20));
  if (bytes > 0 && bytes % 1024 == 0) return toml_string(fmt::format("{}k", bytes >> 10));
  return fmt::format("{}", bytes);
}

std::string rate_value_MBps(double bytes_per_s) { return toml_string(fmt::format("{:.1f}MB/s", bytes_per_s / 1e6)); }

std::string render_profile(const Profile& p) {
  std::string out;
  for (const auto& line : p.header) out += line.empty() ? "#\n" : "# " + line + "\n";
  for (const ProfileTable& t : p.tables) {
    out += "\n[" + t.name + "]\n";
    for (const auto& line : t.comment) out += "# " + line + "\n";
    std::size_t width = 0;
    for (const ProfileEntry& e : t.entries)
      if (e.value.size() < 40) width = std::max(width, e.key.size() + 3 + e.value.size());
    for (const ProfileEntry& e : t.entries) {
      std::string line = e.key + " = " + e.value;
      const std::size_t column = std::max(width, line.size()) + 2;
      for (std::size_t i = 0; i < e.comment.size(); ++i) {
        if (i == 0) {
          line.append(column - line.size(), ' ');
        } else {
          out += line + "\n";
          line.assign(column, ' ');
        }
        line += "# " + e.comment[i];
      }
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace testbed::calibrate
