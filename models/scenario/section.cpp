#include "models/scenario/section.h"

namespace models::section_text {

std::string size_text(std::uint64_t b) {
  static const char* units[] = {"t", "g", "m", "k"};
  for (int i = 0; i < 4; ++i) {
    const std::uint64_t scale = std::uint64_t{1} << (10 * (4 - i));
    if (b >= scale && b % scale == 0) return std::to_string(b / scale) + units[i];
  }
  return std::to_string(b);
}

std::string duration_text(double s) {
  if (s == 0) return "0s";
  if (s >= 1) return fmt::format("{:g}s", s);
  if (s >= 1e-3) return fmt::format("{:g}ms", s * 1e3);
  if (s >= 1e-6) return fmt::format("{:g}us", s * 1e6);
  return fmt::format("{:g}ns", s * 1e9);
}

std::string rate_text(double r) {
  if (r >= 1e9) return fmt::format("{:g}GB/s", r / 1e9);
  if (r >= 1e6) return fmt::format("{:g}MB/s", r / 1e6);
  if (r >= 1e3) return fmt::format("{:g}KB/s", r / 1e3);
  return fmt::format("{:g}B/s", r);
}

std::string quoted_list(const std::vector<std::string>& options) {
  std::string list;
  for (const auto& o : options) list += (list.empty() ? "\"" : ", \"") + o + "\"";
  return list;
}

std::string table_name(const std::string& path) { return path.empty() ? "the top level" : "[" + path + "]"; }

// "; [nic] takes line_rate, mtu": what an unknown key's error lists when no
// known key is near it.
std::string valid_keys_text(const std::string& where, const std::vector<std::string>& keys) {
  std::string list;
  for (const std::string& k : keys) list += (list.empty() ? "" : ", ") + k;
  return "; " + where + " takes " + (list.empty() ? "no keys" : list) + " (clerk keys lists them all)";
}
}  // namespace models::section_text
