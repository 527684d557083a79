#include "common/mountinfo.h"

#include <sstream>

namespace common {

namespace {

bool octal_digit(char c) { return c >= '0' && c <= '7'; }

// The fields of a line, split on runs of spaces.
std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string f;
  while (in >> f) out.push_back(f);
  return out;
}

}  // namespace

std::string unescape_mountinfo(const std::string& field) {
  std::string out;
  out.reserve(field.size());
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size() && octal_digit(field[i + 1]) &&
        octal_digit(field[i + 2]) && octal_digit(field[i + 3])) {
      const int value = (field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 + (field[i + 3] - '0');
      if (value <= 0377) {
        out += static_cast<char>(value);
        i += 3;
        continue;
      }
    }
    out += field[i];
  }
  return out;
}

std::optional<MountInfo> parse_mountinfo_line(const std::string& line) {
  const std::vector<std::string> f = fields_of(line);
  constexpr std::size_t kBefore = 6;  // id, parent, device, root, mount point, options
  std::size_t sep = kBefore;
  while (sep < f.size() && f[sep] != "-") ++sep;
  if (sep >= f.size() || f.size() - sep - 1 < 2) return std::nullopt;
  MountInfo m;
  m.mount_id = f[0];
  m.parent_id = f[1];
  m.device = f[2];
  m.root = unescape_mountinfo(f[3]);
  m.mount_point = unescape_mountinfo(f[4]);
  m.options = f[5];
  m.optional_fields.assign(f.begin() + kBefore, f.begin() + static_cast<std::ptrdiff_t>(sep));
  m.fstype = unescape_mountinfo(f[sep + 1]);
  m.source = unescape_mountinfo(f[sep + 2]);
  if (sep + 3 < f.size()) m.super_options = f[sep + 3];
  return m;
}

std::vector<MountInfo> parse_mountinfo(const std::string& text) {
  std::vector<MountInfo> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (auto m = parse_mountinfo_line(line)) out.push_back(std::move(*m));
  return out;
}

}  // namespace common
