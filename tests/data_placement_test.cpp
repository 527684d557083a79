// Placement by real sizes (models/os/ext4_layout.h place_files,
// models/os/filesystem.h): a million mixed files on a device 10% larger than
// their total, "does not fit" with both sizes, and the seek distance of
// random reads over a packed data set against the closed form.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "models/hardware/no_disk.h"
#include "models/os/ext4_layout.h"
#include "models/os/filesystem.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/world.h"

namespace {

using G = models::Ext4Geometry;

std::uint64_t blocks(std::uint64_t bytes) { return (bytes + G::kBlock - 1) / G::kBlock; }

// The SRE's data set of issue 25: mostly 20-200 KB files, some 5-50 MB videos.
models::FilesystemSpec mixed(std::uint32_t files, std::vector<std::uint32_t> tree) {
  models::FilesystemSpec spec;
  spec.files = files;
  spec.tree = std::move(tree);
  spec.size_mix = {models::SizeClass(20000, 200000, 0.995), models::SizeClass(5000000, 50000000, 0.005)};
  return spec;
}

// No two extents overlap and all lie on the device.
void check_disjoint(const std::vector<std::uint64_t>& offsets, const std::vector<std::uint64_t>& sizes,
                    std::uint64_t device) {
  std::vector<std::uint32_t> order(offsets.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return offsets[a] < offsets[b]; });
  for (std::size_t i = 0; i + 1 < order.size(); ++i)
    REQUIRE(offsets[order[i]] + blocks(sizes[order[i]]) * G::kBlock <= offsets[order[i + 1]]);
  REQUIRE(offsets[order.back()] + blocks(sizes[order.back()]) * G::kBlock <= device);
}

}  // namespace

TEST_CASE("placement: a million files of mixed sizes fit on a device 10% larger than their total") {
  const models::FilesystemSpec spec = mixed(1000000, {100, 100, 100});
  sim::RandomStream size_rng(6);
  const std::vector<std::uint64_t> sizes = models::draw_file_sizes(spec, size_rng);
  const double total = std::accumulate(sizes.begin(), sizes.end(), 0.0);
  // The mix as drawn: about 109 KB x 99.5% + 27.5 MB x 0.5% a file, ~250 GB.
  CHECK(total > 2.0e11);
  CHECK(total < 3.0e11);
  const auto device = static_cast<std::uint64_t>(1.1 * total);
  const models::Ext4Layout layout(spec.tree, device, 32, sim::RandomStream(3));
  const std::vector<std::uint64_t> offsets = layout.place_files(sizes, 1.0);
  check_disjoint(offsets, sizes, device);
  // The files of a directory lie together from their flex group's goal on.
  CHECK(offsets[1] == offsets[0] + blocks(sizes[0]) * G::kBlock);
  // 5% smaller than the total: does not fit, and says by how much.
  const auto small = static_cast<std::uint64_t>(0.95 * total);
  try {
    models::Ext4Layout(spec.tree, small, 32, sim::RandomStream(3)).place_files(sizes, 1.0);
    FAIL("a data set larger than its device was placed");
  } catch (const models::DataSetTooLarge& e) {
    CHECK(static_cast<double>(e.data_bytes) >= total);
    CHECK(e.data_bytes < total + 4096.0 * sizes.size());
    CHECK(e.device_bytes <= small);
    CHECK(e.free_bytes < e.device_bytes);
  }
}

TEST_CASE("placement: a fill factor spreads the data set over 1/f of its size") {
  const models::FilesystemSpec spec = mixed(4096, {4096});
  sim::RandomStream size_rng(1);
  const std::vector<std::uint64_t> sizes = models::draw_file_sizes(spec, size_rng);
  const models::Ext4Layout layout(spec.tree, std::uint64_t{1} << 40, 32, sim::RandomStream(3));
  auto span = [&](double fill) {
    const auto offsets = layout.place_files(sizes, fill);
    check_disjoint(offsets, sizes, std::uint64_t{1} << 40);
    const auto last = std::max_element(offsets.begin(), offsets.end()) - offsets.begin();
    return static_cast<double>(offsets[last] + blocks(sizes[last]) * G::kBlock - offsets[0]);
  };
  double data = 0;
  for (auto s : sizes) data += static_cast<double>(blocks(s) * G::kBlock);
  // In one directory, in its flex group's data groups: the span is the data,
  // with no flex group crossed.
  const double packed = span(1.0);
  CHECK(packed >= data);
  CHECK(packed < data * 1.02);
  // Crossing into the next flex group skips its first group (metadata, and
  // space mballoc leaves to directories first): 128 MiB per 2 GiB.
  CHECK(span(0.5) == Approx(2 * packed).epsilon(0.08));
}

TEST_CASE("placement: random reads over a packed data set seek L/3 on average (closed form)") {
  // One directory of mixed 100-300 KB files: about 800 MB, inside one flex
  // group's data groups, so the span L has no metadata inside it.
  models::FilesystemSpec spec;
  spec.files = 4096;
  spec.tree = {4096};
  spec.size_mix = {models::SizeClass(100000, 300000, 1.0)};
  models::NoDisk disk;
  models::PageCache cache(disk, {1 << 30, 65536, 1 << 20});
  const std::uint64_t device = 500ULL << 30;
  const models::Ext4Layout layout(spec.tree, device, 32, sim::RandomStream(3));
  const models::Filesystem files(spec, cache, device, sim::RandomStream(2), sim::RandomStream(6), &layout);
  std::uint64_t first = UINT64_MAX, end = 0;
  double data = 0;
  for (std::uint32_t f = 0; f < files.files(); ++f) {
    first = std::min(first, files.offset(f));
    end = std::max(end, files.offset(f) + files.file_size(f));
    data += static_cast<double>(files.file_size(f));
  }
  const double span = static_cast<double>(end - first);
  CHECK(span < data * 1.02);  // packed: the data and its 4 KiB rounding
  // The head goes from one random file's start to the next's: for positions
  // uniform over a span L, E|x - y| = L/3; the sample mean's standard error
  // is L / sqrt(18 n).
  sim::RandomStream rng(8);
  const std::uint64_t reads = 200000;
  double sum = 0;
  std::uint64_t at = files.offset(0);
  for (std::uint64_t i = 0; i < reads; ++i) {
    const std::uint64_t next = files.offset(static_cast<std::uint32_t>(rng.below(files.files())));
    sum += std::abs(static_cast<double>(next) - static_cast<double>(at));
    at = next;
  }
  const double mean = sum / reads;
  const double error = span / std::sqrt(18.0 * reads);
  INFO("mean seek " << mean << " bytes, L/3 = " << span / 3);
  CHECK(std::abs(mean - span / 3) < 4 * error + span / files.files());
  // The older slot placement stretches it: every file takes the largest
  // file's slot, so the span, and every seek, grows by largest / mean size.
  spec.placement = models::Placement::kPacked;
  models::PageCache cache2(disk, {1 << 30, 65536, 1 << 20});
  const models::Filesystem slots(spec, cache2, device, sim::RandomStream(2), sim::RandomStream(6));
  CHECK(static_cast<double>(slots.offset(files.files() - 1)) > 1.3 * span);
}

TEST_CASE("scenario: a data set larger than its disk under ext4 placement is a ConfigError with both sizes") {
  const std::string small_hdd = std::string(CLERK_TEST_DATA) + "/small-hdd.toml";
  // Certain at load time: 256 files of 1 MiB do not fit in 200 MiB.
  try {
    models::load_scenario(small_hdd, {"dataset.placement=\"ext4\"", "disk.capacity=\"200m\""});
    FAIL("loaded");
  } catch (const models::ConfigError& e) {
    CHECK(e.key() == "dataset.files");
    CHECK_THAT(e.what(), Catch::Contains("268435456 bytes") && Catch::Contains("209715200 bytes"));
  }
  // Known only once the sizes are drawn (they depend on the run's seed): a
  // mix of 1 KiB to 4 MiB, about 512 MiB, on 300 MiB. The run refuses it
  // with the file and line of [dataset] files.
  models::Scenario sc = models::load_scenario(small_hdd, {"dataset.placement=\"ext4\"", "disk.capacity=\"300m\""});
  sc.filesystem.size_mix = {models::SizeClass(1024, 4u << 20, 1.0)};
  try {
    models::World world(sc, sc.seed, 0.1);
    FAIL("built a world whose data set exceeds its disk");
  } catch (const models::ConfigError& e) {
    CHECK(e.key() == "dataset.files");
    CHECK(e.line() > 0);
    CHECK_THAT(e.what(), Catch::Contains("does not fit") && Catch::Contains("314572800 bytes"));
  }
  std::get<models::HddSpec>(sc.hardware.disk).capacity_bytes = 2e9;
  CHECK_NOTHROW(models::World(sc, sc.seed, 0.1));
}
