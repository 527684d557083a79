// A fuzz input of the form "FILE TEXT\n%%\nLINE\nLINE...": the text of a file,
// then up to kMaxOverrides command-line values (`--set` lines), one a line.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fuzz {

inline constexpr std::size_t kMaxOverrides = 4;

struct Split {
  std::string_view file;
  std::vector<std::string> overrides;
};

inline Split split_input(std::string_view in) {
  constexpr std::string_view kSeparator = "\n%%\n";
  const std::size_t at = in.find(kSeparator);
  if (at == std::string_view::npos) return {in, {}};
  Split s{in.substr(0, at + 1), {}};
  std::string_view rest = in.substr(at + kSeparator.size());
  while (!rest.empty() && s.overrides.size() < kMaxOverrides) {
    const std::size_t nl = rest.find('\n');
    s.overrides.emplace_back(rest.substr(0, nl));
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
  }
  return s;
}

}  // namespace fuzz
