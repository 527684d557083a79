// `clerk realrun`'s refusals come before anything is measured (issue 21,
// findings 6 and 8). Each case also gives a --data that is a file, so that
// code which did not refuse up front fails fast at the data set (exit 1)
// instead of running: the test then fails without a real run.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/commands.h"

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int status = -1;
  std::string error;  // CLI11's message or the command's stderr
};

fs::path not_a_folder() {
  return fs::temp_directory_path() / ("clerk-realrun-cli-test-" + std::to_string(::getpid()));
}

// As clerk's main: a CLI11 parse error is exit 2. `data` (a --data under
// that file, or any text) in place of the file itself.
Outcome realrun(std::vector<std::string> args, const std::optional<std::string>& data = std::nullopt) {
  std::ofstream(not_a_folder()) << "a file, not a data folder\n";
  args.insert(args.begin(), {"clerk", "realrun", CLERK_SCENARIOS "/local/threads.toml", "--repeat", "1", "--data",
                             data ? *data : not_a_folder().string()});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  CLI::App app;
  cli::Commands commands;
  cli::add_realrun_command(app, commands);
  Outcome out;
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    out.status = 2;
    out.error = e.what();
    fs::remove(not_a_folder());
    return out;
  }
  std::ostringstream err;
  auto* old = std::cerr.rdbuf(err.rdbuf());
  out.status = commands.run_chosen();
  std::cerr.rdbuf(old);
  out.error = err.str();
  fs::remove(not_a_folder());
  return out;
}

}  // namespace

TEST_CASE("realrun refuses a --duration that is not finite or out of range", "[realrun_cli]") {
  for (const char* bad : {"nan", "NaN", "inf", "-inf", "0", "-1", "1e300", "200000", "5x"}) {
    INFO("--duration " << bad);
    const Outcome out = realrun({"--duration", bad});
    CHECK(out.status == 2);
    CHECK(out.error.find("--duration") != std::string::npos);
  }
}

TEST_CASE("realrun refuses aio on and os = freebsd, saying why, before anything runs", "[realrun_cli]") {
  const Outcome aio = realrun({"--set", "nginx.aio=\"on\""});
  CHECK(aio.status == 2);
  CHECK(aio.error.find("nginx.aio = \"on\" cannot run for real here") != std::string::npos);
  CHECK(aio.error.find("--with-file-aio") != std::string::npos);
  const Outcome bsd = realrun({"--set", "nginx.os=\"freebsd\"", "--set", "nginx.aio=\"off\""});
  CHECK(bsd.status == 2);
  CHECK(bsd.error.find("this testbed is Linux") != std::string::npos);
}

TEST_CASE("realrun refuses --port 0 before anything runs", "[realrun_cli]") {
  const Outcome out = realrun({"--port", "0"});
  CHECK(out.status == 2);
  CHECK(out.error.find("--port") != std::string::npos);
}

TEST_CASE("realrun checks its --json path before any run", "[realrun_cli]") {
  SECTION("a folder that does not exist") {
    const Outcome out = realrun({"--json", "/nonexistent-clerk-folder/runs.json"});
    CHECK(out.status == 2);
    CHECK(out.error.find("--json /nonexistent-clerk-folder/runs.json: no folder") != std::string::npos);
  }
  SECTION("a folder in place of the file") {
    const Outcome out = realrun({"--json", fs::temp_directory_path().string()});
    CHECK(out.status == 2);
    CHECK(out.error.find("is a folder") != std::string::npos);
  }
  SECTION("a link to a regular file, which the writer would refuse after the run") {
    const fs::path base = fs::temp_directory_path() / ("clerk-realrun-link-" + std::to_string(::getpid()));
    fs::create_directories(base);
    std::ofstream(base / "victim") << "keep me\n";
    fs::create_symlink(base / "victim", base / "runs.json");
    const Outcome out = realrun({"--json", (base / "runs.json").string()});
    CHECK(out.status == 2);
    CHECK(out.error.find("symbolic link") != std::string::npos);
    fs::remove_all(base);
  }
}

// Hostile probe 3: an empty --json was silently ignored, an input could be
// overwritten by the JSON, and the path's control bytes reached the terminal.
TEST_CASE("realrun refuses an empty --json, a --json that is an input, and shows the path escaped", "[realrun_cli]") {
  SECTION("an empty name") {
    const Outcome out = realrun({"--json", ""});
    CHECK(out.status == 2);
    CHECK(out.error.find("needs a file name") != std::string::npos);
  }
  SECTION("the --hardware profile the prediction reads") {
    const fs::path base = fs::temp_directory_path() / ("clerk-realrun-input-" + std::to_string(::getpid()));
    fs::create_directories(base);
    fs::copy_file(CLERK_SCENARIOS "/hardware/local.toml", base / "local.toml");
    const Outcome out = realrun({"--hardware", (base / "local.toml").string(), "--json", (base / "local.toml").string()});
    CHECK(out.status == 2);
    CHECK(out.error.find("is the same file as the input") != std::string::npos);
    fs::remove_all(base);
  }
  SECTION("a path with an escape sequence") {
    const Outcome out = realrun({"--json", "/nonexistent-clerk-folder/\x1b]0;pwn\x07.json"});
    CHECK(out.status == 2);
    CHECK(out.error.find('\x1b') == std::string::npos);
    CHECK(out.error.find("\\x1b]0;pwn\\x07") != std::string::npos);
  }
}

TEST_CASE("realrun --server nginx refuses by name what NGINX never had: io_uring and the RWF_NOWAIT probe",
          "[realrun_cli]") {
  const Outcome uring = realrun({"--server", "nginx", "--set", "nginx.aio=\"io_uring\""});
  CHECK(uring.status == 2);
  CHECK(uring.error.find("nginx.aio = \"io_uring\": NGINX has no io_uring mode") != std::string::npos);
  CHECK(uring.error.find("--server clerk-serve") != std::string::npos);
  const Outcome nowait = realrun({"--server", "both", "--set", "nginx.aio_nowait=true"});
  CHECK(nowait.status == 2);
  CHECK(nowait.error.find("nginx.aio_nowait: NGINX never had the RWF_NOWAIT probe") != std::string::npos);
}

TEST_CASE("realrun --disk takes real or emulated, and refuses emulated with --hardware", "[realrun_cli]") {
  const Outcome other = realrun({"--disk", "ramdisk"});
  CHECK(other.status == 2);
  CHECK(other.error.find("--disk") != std::string::npos);
  // The emulated disk is the scenario's own: another profile would give the
  // simulated side another disk.
  const Outcome both = realrun({"--disk", "emulated", "--hardware", CLERK_SCENARIOS "/hardware/local.toml"});
  CHECK(both.status == 2);
  CHECK(both.error.find("--hardware") != std::string::npos);
}

// Issue 19: a --data NGINX's configuration cannot hold is refused by name
// (control characters shown as '?') before anything is made or started; a
// run that went on would fail at the data set under a file (exit 1).
TEST_CASE("realrun refuses a --data with a newline or, for root, a '$' before anything runs", "[realrun_cli]") {
  const std::string newline = (not_a_folder() / "data\nuser root;").string();
  const Outcome out = realrun({"--server", "nginx"}, newline);
  CHECK(out.status == 2);
  CHECK(out.error.find("the data folder \"" + not_a_folder().string() + "/data?user root;\" (--data) holds a control "
                       "character") != std::string::npos);
  CHECK_FALSE(fs::exists(newline));
  const Outcome both = realrun({"--server", "both"}, newline);
  CHECK(both.status == 2);
  CHECK(both.error.find("control character") != std::string::npos);
  const Outcome dollar = realrun({"--server", "nginx"}, (not_a_folder() / "$x").string());
  CHECK(dollar.status == 2);
  CHECK(dollar.error.find("reads as a variable") != std::string::npos);
  // An empty --data was std::filesystem::absolute's exception: exit 3.
  for (const char* server : {"nginx", "clerk-serve"}) {
    const Outcome empty = realrun({"--server", server}, std::string());
    CHECK(empty.status == 2);
    CHECK(empty.error.find("the data folder (--data) is empty") != std::string::npos);
  }
}
