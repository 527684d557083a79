#include "testbed/realrun/data_set.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <fmt/format.h>

#include "sim/random.h"
#include "common/json_text.h"
#include "common/output_file.h"
#include "common/text_file.h"
#include "testbed/realrun/child_registry.h"
#include "testbed/realrun/real_run.h"

namespace testbed::realrun {
namespace {

// The stream models::World and the SimGrid world give models::Filesystem for
// a size mix (kStreamSizes in models/scenario/world.cpp): the same draws
// give the real files the simulated sizes.
constexpr std::uint64_t kStreamSizes = 6;
// Bumped whenever the content or layout written changes.
constexpr int kManifestFormat = 1;
// The random content: one buffer, each file starting at its own offset.
constexpr std::size_t kRandomBytes = 16u << 20;

// A file descriptor closed on scope exit (no such RAII type in the libraries we use).
struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};

std::vector<unsigned char> random_buffer(std::uint64_t seed) {
  std::vector<unsigned char> buf(kRandomBytes);
  sim::RandomStream rng(seed);
  for (std::size_t i = 0; i < buf.size(); i += 8) {
    const std::uint64_t v = rng.next_u64();
    std::memcpy(buf.data() + i, &v, 8);
  }
  return buf;
}

void write_file(const std::string& path, std::uint64_t size, const std::vector<unsigned char>& buf,
                std::size_t offset) {
  Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (fd.fd < 0) throw RealRunError(fmt::format("cannot create {}: {}", path, std::strerror(errno)));
  std::uint64_t left = size;
  while (left > 0) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, buf.size() - offset));
    const ssize_t w = ::write(fd.fd, buf.data() + offset, n);
    if (w <= 0) {
      if (w < 0 && errno == EINTR) continue;
      throw RealRunError(fmt::format("writing {}: {}", path, std::strerror(errno)));
    }
    left -= static_cast<std::uint64_t>(w);
    offset = (offset + static_cast<std::size_t>(w)) % buf.size();
  }
  // Written pages must be clean before DONTNEED can drop them.
  if (::fdatasync(fd.fd) != 0) throw RealRunError(fmt::format("fsync {}: {}", path, std::strerror(errno)));
  ::posix_fadvise(fd.fd, 0, 0, POSIX_FADV_DONTNEED);
}

bool files_match(const std::string& dir, const DataSetSpec& spec) {
  for (std::uint64_t f = 0; f < spec.files(); ++f) {
    struct stat st {};
    if (::stat((dir + file_path(spec.tree, f)).c_str(), &st) != 0) return false;
    if (!S_ISREG(st.st_mode) || static_cast<std::uint64_t>(st.st_size) != spec.sizes[f]) return false;
  }
  return true;
}

// The manifest, whole or not at all: an interrupted write leaves the old one.
void write_manifest(const std::string& path, const std::string& text) {
  try {
    common::write_file_atomically(path, text);
  } catch (const common::OutputError& e) {
    throw RealRunError(e.what());
  }
}

}  // namespace

std::uint64_t DataSetSpec::total_bytes() const {
  std::uint64_t t = 0;
  for (auto s : sizes) t += s;
  return t;
}

DataSetSpec data_set_spec(const models::Scenario& scenario) {
  const auto& fs = scenario.filesystem;
  DataSetSpec spec;
  spec.tree = fs.tree.empty() ? std::vector<std::uint32_t>{fs.files} : fs.tree;
  std::uint64_t product = 1;
  for (auto n : spec.tree) product *= n;
  if (product != fs.files) throw RealRunError("dataset.tree does not multiply to dataset.files");
  // As models::Filesystem's constructor draws them.
  sim::RandomStream rng = sim::RandomStreams(scenario.seed).stream(kStreamSizes);
  spec.sizes = models::draw_file_sizes(fs, rng);
  return spec;
}

std::string file_path(const std::vector<std::uint32_t>& tree, std::uint64_t file) {
  std::uint64_t below = 1;
  for (auto n : tree) below *= n;
  std::string out;
  for (auto n : tree) {
    below /= n;
    out += '/';
    out += std::to_string(file / below % n + 1);
  }
  return out;
}

std::string manifest_text(const DataSetSpec& spec) {
  // Sizes as runs of equal values: a 65,536-file set of one size is one entry.
  nlohmann::json runs = nlohmann::json::array();
  for (std::size_t i = 0; i < spec.sizes.size();) {
    std::size_t j = i;
    while (j < spec.sizes.size() && spec.sizes[j] == spec.sizes[i]) ++j;
    runs.push_back({j - i, spec.sizes[i]});
    i = j;
  }
  nlohmann::json m = {{"format", kManifestFormat},
                      {"made_by", "clerk realrun"},
                      {"tree", spec.tree},
                      {"files", spec.files()},
                      {"total_bytes", spec.total_bytes()},
                      {"sizes", runs}};
  return common::json_text(m, 1) + "\n";
}

DataSetReport ensure_data_set(const std::string& dir, const DataSetSpec& spec) {
  namespace fs = std::filesystem;
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  const std::string manifest_path = dir + "/" + kManifestName;
  const std::string wanted = manifest_text(spec);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw RealRunError(fmt::format("cannot create data directory {}: {}", dir, ec.message()));

  const std::string existing = common::read_text(manifest_path);
  if (existing == wanted && files_match(dir, spec)) {
    DataSetReport r{true, elapsed(), {}};
    r.note = fmt::format("data set reused from {} ({} files, {} bytes; manifest matches)", dir, spec.files(),
                         spec.total_bytes());
    return r;
  }
  // Only ever delete what we made: a manifest marks the directory as ours.
  if (existing.empty() && !fs::is_empty(dir, ec))
    throw RealRunError(fmt::format("data directory {} is not empty and has no {}: choose an empty or new "
                                   "directory (--data)",
                                   dir, kManifestName));
  for (const auto& entry : fs::directory_iterator(dir)) fs::remove_all(entry.path(), ec);

  struct statvfs vfs {};
  if (::statvfs(dir.c_str(), &vfs) == 0) {
    const std::uint64_t free_bytes = std::uint64_t{vfs.f_bavail} * vfs.f_frsize;
    // Allow for the file system's own blocks (indirect/extent blocks, directories).
    if (spec.total_bytes() + spec.total_bytes() / 50 + (64u << 20) > free_bytes)
      throw RealRunError(fmt::format("the data set needs {} bytes but {} has {} free: shrink dataset.files or "
                                     "file_size, or choose another --data",
                                     spec.total_bytes(), dir, free_bytes));
  }

  // Mark the directory ours before filling it: an interrupted build leaves a
  // manifest that matches nothing, so the next run rebuilds instead of refusing.
  write_manifest(manifest_path, "{\"building\": true}\n");
  const auto buf = random_buffer(0xc1e2c0de);
  const std::uint64_t per_dir = spec.tree.back();
  for (std::uint64_t f = 0; f < spec.files(); ++f) {
    if (stop_requested()) throw RealRunError("stopped");
    const std::string path = dir + file_path(spec.tree, f);
    if (f % per_dir == 0) {
      fs::create_directories(fs::path(path).parent_path(), ec);
      if (ec) throw RealRunError(fmt::format("cannot create {}: {}", path, ec.message()));
    }
    // Offsets a prime number of 4 KiB pages apart: files do not share content
    // at the same offsets (a deduplicating layer would otherwise merge them).
    write_file(path, spec.sizes[f], buf, static_cast<std::size_t>((f * 4099 * 4096) % buf.size()));
  }
  write_manifest(manifest_path, wanted);
  ::sync();
  DataSetReport r{false, elapsed(), {}};
  r.note = fmt::format("data set created in {} ({} files, {} bytes) in {:.1f} s", dir, spec.files(),
                       spec.total_bytes(), r.seconds);
  return r;
}

void evict_data_set(const std::string& dir, const DataSetSpec& spec) {
  for (std::uint64_t f = 0; f < spec.files(); ++f) {
    Fd fd(::open((dir + file_path(spec.tree, f)).c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.fd >= 0) ::posix_fadvise(fd.fd, 0, 0, POSIX_FADV_DONTNEED);
  }
}

}  // namespace testbed::realrun
