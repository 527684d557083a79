#include "common/cache_cgroup.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <sstream>

#include "common/control_file.h"
#include "common/text_file.h"

namespace common {
namespace {

// The live cgroup's path, for remove_live_cgroup() from a signal handler:
// double-buffered so the handler never reads a half-written string (the
// writer fills the inactive buffer, then publishes its index).
constexpr std::size_t kPathMax = 256;
char g_cgroup[2][kPathMax];
std::atomic<int> g_cgroup_index{-1};  // -1: none

void register_cgroup(const std::string& path) {
  if (path.empty() || path.size() >= kPathMax) {
    g_cgroup_index.store(-1);
    return;
  }
  const int next = g_cgroup_index.load() == 0 ? 1 : 0;
  std::memcpy(g_cgroup[next], path.c_str(), path.size() + 1);
  g_cgroup_index.store(next);
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

bool lists_word(const std::string& text, const std::string& word) {
  std::istringstream in(text);
  std::string w;
  while (in >> w)
    if (w == word) return true;
  return false;
}

}  // namespace

std::uint64_t server_memory_allowance(std::uint32_t workers) { return (32ull << 20) + (8ull << 20) * workers; }

CacheCgroup CacheCgroup::create(const CgroupRoots& roots, std::uint64_t limit_bytes, const std::string& name) {
  CacheCgroup cg;
  cg.limit_ = limit_bytes;
  std::string why;
  // Makes `root`/name with its memory limit in `limit_file`: the cgroup's
  // path, or "" with the reason added to `why`.
  auto make = [&](const std::string& root, const char* limit_file) -> std::string {
    const std::string path = root + "/" + name;
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
      why += fmt::format("cannot create {}: {}; ", path, std::strerror(errno));
      return {};
    }
    if (exists(path + "/" + limit_file)) {
      const std::string err = write_control_file(path + "/" + limit_file, std::to_string(limit_bytes));
      if (err.empty()) return path;
      why += err + "; ";
    } else {
      why += fmt::format("{} has no {}; ", path, limit_file);
    }
    ::rmdir(path.c_str());
    return {};
  };
  auto take = [&](CacheControlKind kind, const std::string& path) {
    cg.kind_ = kind;
    cg.path_ = path;
    register_cgroup(path);
  };
  // cgroup v2: the memory controller must be available at the root and
  // enabled for its children; the child then has memory.max.
  if (lists_word(common::read_text(roots.v2 + "/cgroup.controllers"), "memory")) {
    if (!lists_word(common::read_text(roots.v2 + "/cgroup.subtree_control"), "memory"))
      write_control_file(roots.v2 + "/cgroup.subtree_control", "+memory");
    if (const std::string path = make(roots.v2, "memory.max"); !path.empty()) {
      take(CacheControlKind::kCgroupV2, path);
      return cg;
    }
  } else {
    why += fmt::format("no cgroup v2 memory controller at {}; ", roots.v2);
  }
  // cgroup v1: the memory hierarchy's child has memory.limit_in_bytes.
  if (exists(roots.v1 + "/memory.limit_in_bytes")) {
    if (const std::string path = make(roots.v1, "memory.limit_in_bytes"); !path.empty()) {
      take(CacheControlKind::kCgroupV1, path);
      return cg;
    }
  } else {
    why += fmt::format("no cgroup v1 memory hierarchy at {}; ", roots.v1);
  }
  why.resize(why.size() - 2);
  cg.why_not_ = why;
  return cg;
}

CacheCgroup::CacheCgroup(CacheCgroup&& other) noexcept
    : kind_(other.kind_), path_(std::move(other.path_)), why_not_(std::move(other.why_not_)), limit_(other.limit_) {
  other.path_.clear();
}

CacheCgroup& CacheCgroup::operator=(CacheCgroup&& other) noexcept {
  if (this != &other) {
    remove();
    kind_ = other.kind_;
    path_ = std::move(other.path_);
    why_not_ = std::move(other.why_not_);
    limit_ = other.limit_;
    other.path_.clear();
  }
  return *this;
}

CacheCgroup::~CacheCgroup() { remove(); }

std::uint64_t CacheCgroup::peak_usage() const {
  if (path_.empty()) return 0;
  const std::string text =
      common::read_text(path_ + (kind_ == CacheControlKind::kCgroupV1 ? "/memory.max_usage_in_bytes" : "/memory.peak"));
  try {
    return text.empty() ? 0 : std::stoull(text);
  } catch (const std::exception&) {
    return 0;
  }
}

std::string CacheCgroup::describe(std::uint64_t cache_bytes) const {
  const double mib = 1024.0 * 1024.0;
  switch (kind_) {
    case CacheControlKind::kCgroupV2:
    case CacheControlKind::kCgroupV1:
      return fmt::format("cgroup {} memory limit {:.0f} MiB (page cache {:.0f} MiB + {:.0f} MiB for the server)",
                         kind_ == CacheControlKind::kCgroupV2 ? "v2" : "v1", static_cast<double>(limit_) / mib,
                         static_cast<double>(cache_bytes) / mib,
                         static_cast<double>(limit_ - std::min(limit_, cache_bytes)) / mib);
    case CacheControlKind::kEvictOnly:
      break;
  }
  return "posix_fadvise(DONTNEED) (no memory cgroup)";
}

std::string CacheCgroup::procs() const { return path_.empty() ? "" : common::read_text(procs_file()); }

bool CacheCgroup::remove() {
  if (path_.empty()) return true;
  for (int attempt = 0; attempt < 500; ++attempt) {
    if (::rmdir(path_.c_str()) == 0 || errno == ENOENT) {
      register_cgroup("");
      path_.clear();
      return true;
    }
    const timespec pause{0, 10'000'000};
    ::nanosleep(&pause, nullptr);
  }
  return false;
}

void remove_live_cgroup() {
  // A cgroup can only be removed once its tasks have exited: SIGKILL is
  // asynchronous, so retry for up to a second.
  const int index = g_cgroup_index.load();
  if (index < 0) return;
  for (int attempt = 0; attempt < 100; ++attempt) {
    if (::rmdir(g_cgroup[index]) == 0 || errno == ENOENT) return;
    const timespec pause{0, 10'000'000};
    ::nanosleep(&pause, nullptr);
  }
}

}  // namespace common
