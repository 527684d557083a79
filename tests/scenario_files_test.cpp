// Which files of a scenarios folder are runs (models/scenario/scenario_files.h):
// the rule on hand-made files, and on the committed folder, where every file
// that is not a run must be a profile, a sweep, or a part some file includes
// (a run the rule missed would silently vanish from clerk-ui's picker).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/scenario/config_loader.h"
#include "models/scenario/scenario_files.h"

namespace fs = std::filesystem;
using models::ScenarioFileRole;

namespace {

const fs::path kScenarios = fs::path(CLERK_TEST_DATA).parent_path().parent_path() / "scenarios";

std::string text_of(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> committed() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(kScenarios))
    if (e.is_regular_file() && e.path().extension() == ".toml") out.push_back(e.path());
  return out;
}

// True if some committed file's `include` line names `part` (relative to
// the including file; the committed files write one string or a one-line list).
bool included_by_another(const fs::path& part) {
  for (const fs::path& f : committed()) {
    if (f == part) continue;
    std::istringstream lines(text_of(f));
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("include", 0) != 0) continue;
      for (std::string::size_type q1 = line.find('"'); q1 != std::string::npos; q1 = line.find('"', q1 + 1)) {
        const std::string::size_type q2 = line.find('"', q1 + 1);
        if (q2 == std::string::npos) break;
        if (fs::weakly_canonical(f.parent_path() / line.substr(q1 + 1, q2 - q1 - 1)) == fs::weakly_canonical(part))
          return true;
        q1 = q2;
      }
    }
  }
  return false;
}

}  // namespace

TEST_CASE("scenario files: a top-level name makes a run, [sweep] a sweep, a hardware folder a profile, else a part") {
  std::string tmpl = (fs::temp_directory_path() / "clerk-roles-XXXXXX").string();
  REQUIRE(mkdtemp(tmpl.data()));
  const fs::path dir = tmpl;
  fs::create_directories(dir / "hardware");
  std::ofstream(dir / "run.toml") << "include = \"part.toml\"\nname = \"a run\"\n";
  std::ofstream(dir / "part.toml") << "seed = 1\n[nginx]\nworker_processes = 2\n[nginx.thread_pool]\nname = \"default\"\n";
  std::ofstream(dir / "sweep.toml") << "[sweep]\nscenario = \"run.toml\"\n";
  std::ofstream(dir / "hardware" / "box.toml") << "name = \"named, but a profile\"\n";
  std::ofstream(dir / "notes.txt") << "name = \"not toml\"\n";
  CHECK(models::scenario_file_role((dir / "run.toml").string()) == ScenarioFileRole::kRun);
  // A `name` inside a table (a thread pool's) does not make a run.
  CHECK(models::scenario_file_role((dir / "part.toml").string()) == ScenarioFileRole::kPart);
  CHECK(models::scenario_file_role((dir / "sweep.toml").string()) == ScenarioFileRole::kSweep);
  CHECK(models::scenario_file_role((dir / "hardware" / "box.toml").string()) == ScenarioFileRole::kHardwareProfile);
  CHECK(models::runnable_scenarios(dir.string()) == std::vector<std::string>{(dir / "run.toml").string()});
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST_CASE("scenario files: every committed file is a run that loads, or a profile, a sweep, or a part that is included") {
  int runs = 0;
  for (const fs::path& f : committed()) {
    INFO(f.string());
    const ScenarioFileRole role = models::scenario_file_role(f.string());
    if (role == ScenarioFileRole::kRun) {
      ++runs;
      CHECK_NOTHROW(models::load_scenario(f.string()));
    } else if (role == ScenarioFileRole::kPart) {
      CHECK(included_by_another(f));
    }
  }
  const std::vector<std::string> listed = models::runnable_scenarios(kScenarios.string());
  CHECK(static_cast<int>(listed.size()) == runs);
  // The files that opened clerk-ui's picker as runs before the rule (issue 22).
  for (const char* part : {"nginx-9x/common.toml", "cloudflare/common.toml", "reuseport/local-common.toml",
                           "reuseport/remote-common.toml", "agreement/machine.toml", "hardware/local.toml",
                           "sweeps/9x-pool-threads-x-load.toml"})
    CHECK(std::find(listed.begin(), listed.end(), (kScenarios / part).string()) == listed.end());
  for (const char* run : {"nginx-9x/blocking.toml", "bench/cache-hit-250.toml", "reuseport/local-reuseport.toml",
                          "reuseport/remote-mutex-on.toml", "cloudflare/blocking.toml"})
    CHECK(std::find(listed.begin(), listed.end(), (kScenarios / run).string()) != listed.end());
}
