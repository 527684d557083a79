// `clerk calibrate` refuses an --out it could not write before measuring
// anything (issue 21, finding 8): it used to measure for 25 s first.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int status = -1;
  std::string error;
};

Outcome calibrate(std::vector<std::string> args) {
  args.insert(args.begin(), {"clerk", "calibrate", "--quick"});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  CLI::App app;
  cli::Commands commands;
  cli::add_calibrate_command(app, commands);
  app.parse(static_cast<int>(argv.size()), argv.data());
  std::ostringstream err;
  auto* old = std::cerr.rdbuf(err.rdbuf());
  Outcome out;
  out.status = commands.run_chosen();
  std::cerr.rdbuf(old);
  out.error = err.str();
  return out;
}

}  // namespace

TEST_CASE("calibrate refuses a folder as --out before measuring", "[calibrate_cli]") {
  const Outcome out = calibrate({"--out", fs::temp_directory_path().string()});
  CHECK(out.status == 2);
  CHECK(out.error.find("--out " + fs::temp_directory_path().string() + ": is a folder") != std::string::npos);
}

TEST_CASE("calibrate refuses an --out in a missing folder before anything else", "[calibrate_cli]") {
  const Outcome out = calibrate({"--out", "/nonexistent-clerk-folder/local.toml"});
  CHECK(out.status == 2);
  CHECK(out.error.find("--out /nonexistent-clerk-folder/local.toml: no folder") != std::string::npos);
}

// Hostile probe 3: --data was first used by the disk phase, after the CPU
// and loopback phases (minutes), and then failed with exit 1.
TEST_CASE("calibrate refuses an empty --data or one under a regular file before measuring", "[calibrate_cli]") {
  // A writable --out, so that only --data is at fault wherever the test runs.
  const std::string out = (fs::temp_directory_path() / ("clerk-calibrate-out-" + std::to_string(::getpid()) + ".toml")).string();
  const auto calibrate_data = [&](const std::string& data) { return calibrate({"--out", out, "--data", data}); };
  const Outcome empty = calibrate_data("");
  CHECK(empty.status == 2);
  CHECK(empty.error.find("--data: an empty path") != std::string::npos);
  const fs::path file = fs::temp_directory_path() / ("clerk-calibrate-data-" + std::to_string(::getpid()));
  { std::ofstream(file) << "a file\n"; }
  const Outcome regular = calibrate_data(file.string());
  CHECK(regular.status == 2);
  CHECK(regular.error.find("is not a folder") != std::string::npos);
  const Outcome below = calibrate_data((file / "fio").string());
  CHECK(below.status == 2);
  CHECK(below.error.find("is not a folder") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  fs::remove(file);
}
