// Loading is linear in the number of keys (issue 21, finding 5): 200,000 keys
// in one table. The loader looked each new key up in a list of the table's
// keys, which took minutes; ctest's watchdog (TIMEOUT in CMakeLists.txt)
// fails the test if that comes back. No wall-clock time is asserted.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "models/scenario/config_loader.h"

TEST_CASE("loader: 200,000 keys in one table load in linear time and the first unknown one is named") {
  std::ifstream in(std::string(CLERK_TEST_DATA) + "/small-hdd.toml");
  std::stringstream text;
  text << in.rdbuf();
  std::string scenario = text.str();
  std::string keys;
  for (int i = 0; i < 200000; ++i) keys += "k" + std::to_string(i) + " = 1\n";
  const std::size_t nic = scenario.find("[nic]\n");
  REQUIRE(nic != std::string::npos);
  scenario.insert(nic + 6, keys);
  std::string path = (std::filesystem::temp_directory_path() / "clerk-many-keys-XXXXXX").string();
  const int fd = mkstemp(path.data());
  REQUIRE(fd >= 0);
  close(fd);
  std::ofstream(path) << scenario;
  try {
    models::load_scenario(path);
    FAIL("200,000 unknown keys loaded");
  } catch (const models::ConfigError& e) {
    CHECK(e.key() == "nic.k0");
  }
  std::filesystem::remove(path);
}
