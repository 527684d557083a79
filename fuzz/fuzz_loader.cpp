// libFuzzer target: the scenario loader alone, with `--set` overrides.
//
// The input is a scenario text, optionally followed by a line "%%" and then
// override lines ("dotted.key=VALUE", as `clerk run --set` takes them; at most
// kMaxOverrides, the rest ignored). Loading must succeed or throw a
// ConfigError naming a file; a loaded scenario must pass fuzz::check_loaded.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/contract.h"
#include "fuzz/scenario_sandbox.h"
#include "models/scenario/config_loader.h"

namespace {

constexpr std::size_t kMaxOverrides = 4;
constexpr std::string_view kSeparator = "\n%%\n";

struct Split {
  std::string_view file;
  std::vector<std::string> overrides;
};

Split split(std::string_view in) {
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Split in = split(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::string& path = fuzz::sandbox().write(in.file);
  const std::optional<models::Scenario> sc =
      fuzz::load_checked([&] { return models::load_scenario(path, in.overrides); });
  if (sc) fuzz::check_loaded(*sc);
  return 0;
}
