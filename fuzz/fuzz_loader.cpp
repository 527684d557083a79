// libFuzzer target: the scenario loader alone, with `--set` overrides.
//
// The input is a scenario text, optionally followed by a line "%%" and then
// override lines ("dotted.key=VALUE", as `clerk run --set` takes them; at most
// fuzz::kMaxOverrides, the rest ignored). Loading must succeed or throw a
// ConfigError naming a file; a loaded scenario must pass fuzz::check_loaded.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/contract.h"
#include "fuzz/scenario_sandbox.h"
#include "fuzz/split_input.h"
#include "models/scenario/config_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::Split in = fuzz::split_input(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::string& path = fuzz::sandbox().write(in.file);
  const std::optional<models::Scenario> sc =
      fuzz::load_checked([&] { return models::load_scenario(path, in.overrides); });
  if (sc) fuzz::check_loaded(*sc);
  return 0;
}
