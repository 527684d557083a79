#include "fuzz/contract.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <typeinfo>

#include <fmt/format.h>

#include "models/scenario/config_error.h"
#include "models/scenario/limits.h"

namespace fuzz {

void breach(const std::string& what) {
  std::fprintf(stderr, "fuzz contract: %s\n", what.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

void check_config_error(const std::exception& e, const std::string& file) {
  static const bool verbose = std::getenv("CLERK_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "fuzz: ConfigError: %s\n", e.what());
  const std::size_t message = std::strlen(e.what());
  // compose() writes "FILE[:LINE]: [key 'K': ]MESSAGE": more than the file and ": ".
  if (file.empty()) breach(std::string("ConfigError names no file: ") + e.what());
  if (message <= file.size() + 2) breach(std::string("ConfigError with no message: ") + e.what());
}

std::optional<models::Scenario> load_checked(const std::function<models::Scenario()>& load) {
  try {
    return load();
  } catch (const models::ConfigError& e) {
    check_config_error(e, e.file());
    return std::nullopt;
  } catch (const std::exception& e) {
    breach(fmt::format("loading threw {} (not a ConfigError): {}", typeid(e).name(), e.what()));
  } catch (...) {
    breach("loading threw something that is not a std::exception");
  }
}

void check_loaded(const models::Scenario& sc) {
  const double d = sc.duration_s;
  if (!(std::isfinite(d) && d > 0 && d <= models::limits::kMaxRunSeconds))
    breach(fmt::format("the loader accepted duration_s = {} (allowed: (0, {}])", d, models::limits::kMaxRunSeconds));
}

void check_accounting(const models::RunResult& r) {
  for (std::size_t g = 0; g < r.clients.size(); ++g) {
    const auto& c = r.clients[g];
    std::uint64_t failed = 0;
    for (const auto& [reason, n] : c.failed) failed += n;
    if (c.issued != c.complete + failed + c.in_flight)
      breach(fmt::format("client group {}: issued {} != completed {} + failed {} + in flight {}", g, c.issued,
                         c.complete, failed, c.in_flight));
  }
}

}  // namespace fuzz
