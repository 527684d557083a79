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

TEST_CASE("a killed calibrate's congestion control is put back, only from its own folders and while still the one it set") {
  const common::TempDir tmp("/tmp/clerk-unpaced-test-");
  const std::string sysctl = tmp.file("tcp_congestion_control");
  const std::string available = tmp.file("available");
  std::ofstream(available) << "reno cubic bbr\n";
  auto set_sysctl = [&](const std::string& v) { std::ofstream(sysctl, std::ios::trunc) << v << "\n"; };
  auto folder_with = [&](const std::string& name, const std::string& value) {
    const std::string dir = tmp.path() + "/" + name;
    std::filesystem::create_directory(dir);
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all);
    std::ofstream(dir + "/" + kCongestionControlRestoreFile) << value;
    return dir;
  };
  // Pids that are no process: above the kernel's pid_max limit (4194304).
  SECTION("restored while the sysctl still holds what calibrate set") {
    set_sysctl("cubic");
    folder_with("clerk-calibrate-99999999-Ab12Cd", "bbr cubic\n");
    const auto lines = restore_stale_congestion_control(tmp.path(), sysctl, available);
    REQUIRE(lines.size() == 1);
    CHECK_THAT(lines[0], Catch::Contains("restored") && Catch::Contains("bbr") && Catch::Contains("99999999"));
    CHECK(common::read_text(sysctl).rfind("bbr", 0) == 0);  // one write over the file, as the kernel takes it
  }
  SECTION("left alone, and said, once someone has changed it since") {
    set_sysctl("reno");
    folder_with("clerk-calibrate-99999999-Ab12Cd", "bbr cubic\n");
    const auto lines = restore_stale_congestion_control(tmp.path(), sysctl, available);
    REQUIRE(lines.size() == 1);
    CHECK_THAT(lines[0], Catch::Contains("left") && Catch::Contains("changed since"));
    CHECK(common::read_text(sysctl) == "reno\n");
  }
  SECTION("a live calibrate's folder, a name without a pid, a bad value, a folder others may write, a link: ignored") {
    set_sysctl("cubic");
    folder_with("clerk-calibrate-" + std::to_string(getpid()) + "-Zz", "bbr cubic");
    folder_with("clerk-calibrate-byhand", "bbr cubic");
    folder_with("clerk-calibrate-99999998-Qq", "bbr; cubic");
    const std::string shared = folder_with("clerk-calibrate-99999997-Ww", "bbr cubic");
    std::filesystem::permissions(shared, std::filesystem::perms::others_write, std::filesystem::perm_options::add);
    const std::string target = folder_with("elsewhere", "bbr cubic");
    std::filesystem::create_directory_symlink(target, tmp.path() + "/clerk-calibrate-99999996-Ln");
    CHECK(restore_stale_congestion_control(tmp.path(), sysctl, available).empty());
    CHECK(common::read_text(sysctl) == "cubic\n");
  }
  SECTION("a value this kernel does not list now is left, and said") {
    set_sysctl("cubic");
    folder_with("clerk-calibrate-99999995-Vv", "vegas cubic");
    const auto lines = restore_stale_congestion_control(tmp.path(), sysctl, available);
    REQUIRE(lines.size() == 1);
    CHECK_THAT(lines[0], Catch::Contains("does not list"));
    CHECK(common::read_text(sysctl) == "cubic\n");
  }
}
