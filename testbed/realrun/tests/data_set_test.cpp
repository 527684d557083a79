// The data set: names and sizes as the simulator's, made once and reused
// while the manifest matches, rebuilt otherwise, never over foreign files.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "models/os/filesystem.h"
#include "testbed/realrun/data_set.h"
#include "testbed/realrun/real_run.h"

using namespace testbed::realrun;
namespace fs = std::filesystem;

namespace {
models::Scenario small(std::uint64_t file_size) {
  models::Scenario sc;
  sc.filesystem.files = 8;
  sc.filesystem.tree = {2, 4};
  sc.filesystem.file_size = file_size;
  return sc;
}
std::uint64_t size_of(const fs::path& p) { return fs::file_size(p); }
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("clerk-dataset-test-" + std::to_string(::getpid()));
  TempDir() { fs::remove_all(path); }
  ~TempDir() { fs::remove_all(path); }
};
}  // namespace

TEST_CASE("file paths are models::Filesystem's", "[data_set]") {
  const std::vector<std::uint32_t> tree{3, 4, 5};
  CHECK(file_path(tree, 0) == "/1/1/1");
  CHECK(file_path(tree, 59) == "/3/4/5");
  for (std::uint64_t f = 0; f < 60; ++f) CHECK(models::resolve_path(tree, file_path(tree, f)) == std::int64_t(f));
}

TEST_CASE("a size mix is drawn from the scenario's seed, the same every time", "[data_set]") {
  models::Scenario sc = small(0);
  sc.filesystem.files = 1000;
  sc.filesystem.tree = {10, 100};
  sc.filesystem.size_mix = {{1000, 1.0}, {50000, 3.0}};
  const auto a = data_set_spec(sc), b = data_set_spec(sc);
  CHECK(a.sizes == b.sizes);
  const auto small_files = std::count(a.sizes.begin(), a.sizes.end(), 1000u);
  CHECK(small_files + std::count(a.sizes.begin(), a.sizes.end(), 50000u) == 1000);
  CHECK(small_files > 150);  // a quarter by weight
  CHECK(small_files < 350);
  sc.seed = 2;
  CHECK(data_set_spec(sc).sizes != a.sizes);
  sc.filesystem.tree = {7, 7};
  CHECK_THROWS_AS(data_set_spec(sc), testbed::RealRunError);
}

TEST_CASE("made, reused while the manifest matches, rebuilt when not", "[data_set]") {
  TempDir dir;
  const auto spec = data_set_spec(small(10000));
  const DataSetReport first = ensure_data_set(dir.path.string(), spec);
  CHECK_FALSE(first.reused);
  CHECK(first.note.find("created") != std::string::npos);
  CHECK(size_of(dir.path / "1/1") == 10000);
  CHECK(size_of(dir.path / "2/4") == 10000);
  CHECK(fs::exists(dir.path / kManifestName));
  // Different files hold different bytes.
  std::ifstream a(dir.path / "1/1", std::ios::binary), b(dir.path / "1/2", std::ios::binary);
  std::string ca(10000, '\0'), cb(10000, '\0');
  a.read(ca.data(), 10000);
  b.read(cb.data(), 10000);
  CHECK(ca != cb);

  CHECK(ensure_data_set(dir.path.string(), spec).reused);

  // A file damaged: rebuilt.
  fs::resize_file(dir.path / "2/3", 5);
  CHECK_FALSE(ensure_data_set(dir.path.string(), spec).reused);
  CHECK(size_of(dir.path / "2/3") == 10000);

  // Another set in the same place: the old tree is replaced.
  models::Scenario other = small(3000);
  other.filesystem.files = 3;
  other.filesystem.tree = {3};
  const auto spec2 = data_set_spec(other);
  CHECK_FALSE(ensure_data_set(dir.path.string(), spec2).reused);
  CHECK(size_of(dir.path / "3") == 3000);
  CHECK_FALSE(fs::exists(dir.path / "1/1"));
  CHECK(ensure_data_set(dir.path.string(), spec2).reused);
  evict_data_set(dir.path.string(), spec2);  // no error on a real set
}

TEST_CASE("a non-empty directory without a manifest is left alone", "[data_set]") {
  TempDir dir;
  fs::create_directories(dir.path);
  std::ofstream(dir.path / "precious.txt") << "keep me";
  CHECK_THROWS_AS(ensure_data_set(dir.path.string(), data_set_spec(small(100))), testbed::RealRunError);
  CHECK(fs::exists(dir.path / "precious.txt"));
}

// The refusal names the option that exists (realrun's and calibrate's
// --data), not a --data-dir (issue 21, finding 9).
TEST_CASE("the refusal of a foreign data directory names the --data option", "[data_set]") {
  TempDir dir;
  fs::create_directories(dir.path);
  std::ofstream(dir.path / "precious.txt") << "keep me";
  std::string message;
  try {
    ensure_data_set(dir.path.string(), data_set_spec(small(100)));
  } catch (const testbed::RealRunError& e) {
    message = e.what();
  }
  CHECK(message.find("(--data)") != std::string::npos);
  CHECK(message.find("--data-dir") == std::string::npos);
}

TEST_CASE("the manifest records tree and sizes compactly", "[data_set]") {
  const std::string m = manifest_text(data_set_spec(small(4096)));
  CHECK(m.find("\"files\": 8") != std::string::npos);
  CHECK(m.find("\"total_bytes\": 32768") != std::string::npos);
  CHECK(manifest_text(data_set_spec(small(4096))) == m);
  CHECK(manifest_text(data_set_spec(small(4097))) != m);
}
