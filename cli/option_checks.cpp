#include "cli/option_checks.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <sys/stat.h>

#include "common/bad_input.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "models/scenario/config_error.h"
#include "models/scenario/limits.h"

namespace cli {

CLI::Validator duration_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0')
          return "must be a number of seconds from 0.001 to " + std::to_string(static_cast<long>(models::limits::kMaxRunSeconds));
        try {
          models::limits::check_run_duration(v, "--duration");
        } catch (const models::ConfigError& e) {
          // CLI11 names the option itself: "--duration: must be ...".
          const std::string what = e.what();
          const std::string prefix = "--duration: ";
          return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
        }
        return "";
      },
      "SECONDS");
}

CLI::Validator file_name_check() {
  return CLI::Validator([](std::string& text) { return text.empty() ? std::string("needs a file name") : std::string(); },
                        "FILE");
}

CLI::Validator seed_check() {
  return CLI::Validator([](std::string& text) { return models::limits::seed_problem(text); }, "SEED");
}

namespace {

// The path made absolute with its links and dot-dots resolved as far as it
// exists ("" when even that fails).
std::string resolved(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  return ec ? std::string() : p.string();
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  const bool a_there = stat(a.c_str(), &sa) == 0, b_there = stat(b.c_str(), &sb) == 0;
  if (a_there && b_there) {
    if (!S_ISREG(sa.st_mode) && !S_ISREG(sb.st_mode)) return false;  // /dev/null twice
    if (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino) return true;
  }
  const std::string ra = resolved(a);
  return a == b || (!ra.empty() && ra == resolved(b));
}

}  // namespace

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (same_file(outputs[i].second, outputs[j].second))
        throw common::BadInput(outputs[i].first + " '" + common::shown_text(outputs[i].second) + "' and " +
                               outputs[j].first + " '" + common::shown_text(outputs[j].second) +
                               "' are the same file: the second would overwrite the first (give each its own name)");
}

}  // namespace cli
