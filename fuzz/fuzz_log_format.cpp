// libFuzzer target: access-log lines as trace replay reads them
// (models/clients/log_format.h), seeded with combined-format lines and a
// custom format. The input's first line is a log_format (an empty first
// line: the combined format), the rest are log lines.
//
// Contract on every input: compile either gives a format or says why (a
// non-empty error); parse of each line returns true or false with a
// non-empty reason, throws nothing, and a line it accepts gives a path that
// starts with '/', lies inside the line and holds no '?', a finite time, and a
// status of 0 or 100 to 999.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/contract.h"
#include "models/clients/log_format.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::size_t nl = text.find('\n');
  const std::string first = text.substr(0, nl);
  std::string error;
  const auto format = models::LogFormat::compile(first.empty() ? models::kCombinedLogFormat : first, error);
  if (!format) {
    if (error.empty()) fuzz::breach("a log_format refused with no reason");
    return 0;
  }
  std::size_t at = nl == std::string::npos ? text.size() : nl + 1;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + at, end - at);
    models::LogFields f;
    std::string why;
    if (format->parse(line, f, why)) {
      if (f.path.empty() || f.path.front() != '/' || f.path.find('?') != std::string_view::npos)
        fuzz::breach("an accepted line's path is not a path: " + std::string(f.path));
      if (f.path.data() < line.data() || f.path.data() + f.path.size() > line.data() + line.size())
        fuzz::breach("an accepted line's path lies outside the line");
      if (!std::isfinite(f.time_s)) fuzz::breach("an accepted line's time is not finite");
      if (f.status != 0 && (f.status < 100 || f.status > 999)) fuzz::breach("status " + std::to_string(f.status));
    } else if (why.empty()) {
      fuzz::breach("a line refused with no reason");
    }
    at = end + 1;
  }
  return 0;
}
