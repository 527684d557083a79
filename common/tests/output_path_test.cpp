// Output paths checked before any measurement (issue 21, finding 8).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "common/output_path.h"

using common::output_path_problem;
namespace fs = std::filesystem;

TEST_CASE("an output path must be a file name in a writable folder", "[output_path]") {
  const fs::path base = fs::temp_directory_path() / ("clerk-output-path-test-" + std::to_string(::getpid()));
  fs::create_directories(base);
  std::ofstream(base / "a-file") << "x";
  CHECK(output_path_problem((base / "new.json").string(), "--json").empty());
  CHECK(output_path_problem((base / "a-file").string(), "--json").empty());  // replaced
  CHECK(output_path_problem("/dev/null", "--json").empty());                  // written directly
  const std::string folder = output_path_problem(base.string(), "--out");
  CHECK(folder.find("--out") != std::string::npos);
  CHECK(folder.find("is a folder") != std::string::npos);
  const std::string missing = output_path_problem((base / "no/such/x.json").string(), "--json");
  CHECK(missing.find("--json") != std::string::npos);
  CHECK(missing.find("no folder") != std::string::npos);
  CHECK(output_path_problem((base / "a-file/x.json").string(), "--json").find("not a folder") != std::string::npos);
  CHECK_FALSE(output_path_problem("", "--json").empty());
  // The writer's rules (::common::check_output_path): a link to a regular file is
  // refused up front, not after a run that then cannot write through it.
  fs::create_symlink(base / "a-file", base / "link.json");
  CHECK(output_path_problem((base / "link.json").string(), "--json").find("symbolic link") != std::string::npos);
  fs::create_symlink(base / "nowhere" / "x", base / "dangling.json");
  CHECK(output_path_problem((base / "dangling.json").string(), "--json").find("leads nowhere") != std::string::npos);
  CHECK(output_path_problem((base.string() + "/"), "--json").find("names a folder") != std::string::npos);
  fs::remove_all(base);
}
