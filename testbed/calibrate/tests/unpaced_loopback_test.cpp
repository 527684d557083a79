// Measuring with loopback unpaced (unpaced_loopback.h): which congestion
// control stands in, and putting back the machine's after a killed run.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/temp_dir.h"
#include "common/text_file.h"
#include "testbed/calibrate/unpaced_loopback.h"

using namespace testbed::calibrate;

TEST_CASE("the unpaced stand-in is cubic when the kernel has it, else reno") {
  CHECK(unpaced_congestion_control("reno cubic bbr\n") == "cubic");
  CHECK(unpaced_congestion_control("reno bbr") == "reno");
  CHECK(unpaced_congestion_control("") == "reno");
  CHECK(unpaced_congestion_control("cubicle reno") == "reno");  // whole names only
}

TEST_CASE("a killed calibrate's congestion control is put back, only from folders whose owner is gone") {
  const common::TempDir tmp("/tmp/clerk-unpaced-test-");
  const std::string sysctl = tmp.file("tcp_congestion_control");
  std::ofstream(sysctl).close();
  auto folder_with = [&](const std::string& name, const std::string& value) {
    std::filesystem::create_directory(tmp.path() + "/" + name);
    std::ofstream(tmp.path() + "/" + name + "/" + kCongestionControlRestoreFile) << value;
  };
  // A pid that is no process: above the kernel's pid_max limit (4194304).
  folder_with("clerk-calibrate-99999999-Ab12Cd", "bbr\n");
  const auto lines = restore_stale_congestion_control(tmp.path(), sysctl);
  REQUIRE(lines.size() == 1);
  CHECK_THAT(lines[0], Catch::Contains("restored") && Catch::Contains("bbr") && Catch::Contains("99999999"));
  CHECK(common::read_text(sysctl) == "bbr");

  SECTION("a live calibrate's folder, a name without a pid and a bad value are left alone") {
    std::ofstream(sysctl, std::ios::trunc).close();
    std::filesystem::remove_all(tmp.path() + "/clerk-calibrate-99999999-Ab12Cd");
    folder_with("clerk-calibrate-" + std::to_string(getpid()) + "-Zz", "bbr");
    folder_with("clerk-calibrate-byhand", "bbr");
    folder_with("clerk-calibrate-99999998-Qq", "bbr; rm -rf /");
    CHECK(restore_stale_congestion_control(tmp.path(), sysctl).empty());
    CHECK(common::read_text(sysctl).empty());
  }
}
