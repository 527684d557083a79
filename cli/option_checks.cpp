#include "cli/option_checks.h"

#include <cstdio>
#include <new>
#include <optional>

#include "common/bad_input.h"
#include "common/number_text.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "models/scenario/config_error.h"
#include "models/scenario/limits.h"

namespace cli {

CLI::Validator duration_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        // Decimal, all of the text, as --seed reads it (probe 6: strtod took
        // "0x1p-4" as 0.0625 s).
        const std::optional<double> v = common::number_text<double>(text);
        if (!v)
          return "must be a number of seconds from 0.001 to " + std::to_string(static_cast<long>(models::limits::kMaxRunSeconds));
        try {
          models::limits::check_run_duration(*v, "--duration");
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

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (common::same_output_file(outputs[i].second, outputs[j].second))
        throw common::BadInput(outputs[i].first + " '" + common::shown_text(outputs[i].second) + "' and " +
                               outputs[j].first + " '" + common::shown_text(outputs[j].second) +
                               "' are the same file: the second would overwrite the first (give each its own name)");
}

}  // namespace cli
