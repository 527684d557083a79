#include "models/scenario/scenario_files.h"

#include <algorithm>
#include <filesystem>

#include "models/scenario/config_error.h"
#include "models/scenario/layered_toml.h"

namespace models {

ScenarioFileRole scenario_file_role(const std::string& path) {
  if (is_hardware_profile(std::filesystem::path(path))) return ScenarioFileRole::kHardwareProfile;
  const toml::table file = parse_toml_file(path);
  if (file.contains("sweep")) return ScenarioFileRole::kSweep;
  if (file.contains("name")) return ScenarioFileRole::kRun;
  return ScenarioFileRole::kPart;
}

std::vector<std::string> runnable_scenarios(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().extension() != ".toml") continue;
    ScenarioFileRole role = ScenarioFileRole::kRun;
    try {
      role = scenario_file_role(it->path().string());
    } catch (const ConfigError&) {
      role = ScenarioFileRole::kRun;
    }
    if (role == ScenarioFileRole::kRun) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace models
