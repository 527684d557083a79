// Text written into a TOML file clerk generates (clerk import, clerk new) as
// one basic string: quotes, backslashes and control characters escaped, so
// the text stays one value and can add no key of its own. Bytes above 0x7f
// pass as they are: the loader refuses text that is not UTF-8.
#pragma once
#include <string>

#include <fmt/format.h>

namespace cli {

inline std::string toml_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
    else out += c;
  }
  return out + "\"";
}

}  // namespace cli
