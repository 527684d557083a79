#include "cli/option_checks.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <iostream>
#include <new>

#include "common/output_file.h"
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

int flush_standard_output(int status) {
  std::cout.flush();
  errno = 0;
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout;
  if (!failed) return status;
  const int err = errno;
  std::cerr << "clerk: cannot write the report to standard output" << (err ? std::string(": ") + std::strerror(err) : "")
            << "\n";
  return status == 0 ? 2 : status;
}

}  // namespace cli
