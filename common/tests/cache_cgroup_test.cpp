// Which page-cache control a run gets: cgroup v2 when its root offers the
// memory controller and a child gets memory.max, else v1, else eviction only.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "common/cache_cgroup.h"

using namespace common;
namespace fs = std::filesystem;

namespace {
struct FakeRoots {
  fs::path base = fs::temp_directory_path() / ("clerk-cgroup-test-" + std::to_string(::getpid()));
  FakeRoots() {
    fs::remove_all(base);
    fs::create_directories(base / "v2");
  }
  ~FakeRoots() { fs::remove_all(base); }
  CgroupRoots roots() const { return {(base / "v2").string(), (base / "v1-memory").string()}; }
};
}  // namespace

TEST_CASE("no memory controller anywhere: eviction only, and why", "[cache_cgroup]") {
  FakeRoots f;
  std::ofstream(f.base / "v2/cgroup.controllers") << "cpuset cpu io pids\n";
  CacheCgroup cg = CacheCgroup::create(f.roots(), 1 << 20, "clerk-test");
  CHECK(cg.kind() == CacheControlKind::kEvictOnly);
  CHECK(cg.path().empty());
  CHECK(cg.procs_file().empty());
  CHECK(cg.why_not().find("no cgroup v2 memory controller") != std::string::npos);
  CHECK(cg.why_not().find("no cgroup v1 memory hierarchy") != std::string::npos);
  CHECK(cg.describe(1 << 20) == "posix_fadvise(DONTNEED) (no memory cgroup)");
}

TEST_CASE("v2 lists memory but the child gets no memory.max: not used, child removed", "[cache_cgroup]") {
  FakeRoots f;
  std::ofstream(f.base / "v2/cgroup.controllers") << "cpu memory\n";
  std::ofstream(f.base / "v2/cgroup.subtree_control") << "";
  CacheCgroup cg = CacheCgroup::create(f.roots(), 1 << 20, "clerk-test");
  CHECK(cg.kind() == CacheControlKind::kEvictOnly);
  CHECK(cg.why_not().find("has no memory.max") != std::string::npos);
  CHECK_FALSE(fs::exists(f.base / "v2/clerk-test"));
}

TEST_CASE("the allowance grows with the workers", "[cache_cgroup]") {
  CHECK(server_memory_allowance(2) > server_memory_allowance(1));
  CHECK(server_memory_allowance(16) < (256ull << 20));
}

TEST_CASE("this machine: a real cgroup with the limit, removed afterwards", "[cache_cgroup][root]") {
  if (::geteuid() != 0 || !fs::exists("/sys/fs/cgroup/memory/memory.limit_in_bytes")) {
    WARN("not root or no cgroup v1 memory hierarchy: skipped");
    return;
  }
  const std::string name = "clerk-realrun-test-" + std::to_string(::getpid());
  std::string path;
  {
    CacheCgroup cg = CacheCgroup::create({}, 64ull << 20, name);
    REQUIRE(cg.kind() != CacheControlKind::kEvictOnly);
    path = cg.path();
    CHECK(fs::exists(path));
    if (cg.kind() == CacheControlKind::kCgroupV1) {
      std::ifstream in(path + "/memory.limit_in_bytes");
      std::uint64_t limit = 0;
      in >> limit;
      CHECK(limit == (64ull << 20));
      CHECK(cg.describe(32ull << 20).find("cgroup v1 memory limit 64 MiB (page cache 32 MiB + 32 MiB") == 0);
    }
    CHECK(cg.procs().empty());
  }
  CHECK_FALSE(fs::exists(path));  // the destructor removed it
}
