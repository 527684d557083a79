#include "common/output_path.h"

#include <fmt/format.h>

#include "common/output_file.h"
#include "common/shown_text.h"

namespace common {

std::string output_path_problem(const std::string& path, const std::string& option) {
  if (path.empty()) return fmt::format("{}: an empty path", option);
  try {
    ::common::check_output_path(path);
  } catch (const ::common::OutputError& e) {
    return fmt::format("{} {}: {}", option, shown_text(path), e.reason());  // the reason is escaped already
  }
  return {};
}

}  // namespace common
