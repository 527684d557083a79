// What request popularity and placement by real sizes cost for a million
// files (issue 25): building the Zipf alias table and the ranking, a draw,
// and placing a million mixed files with ext4's allocator. A benchmark, not a
// test: nothing here is asserted. Run: build/bench/clerk_bench
// --benchmark_filter='popularity|placement'
#include <benchmark/benchmark.h>

#include <memory>

#include "models/clients/popularity.h"
#include "models/os/ext4_layout.h"
#include "models/os/filesystem.h"

namespace {

constexpr std::uint32_t kFiles = 1000000;

void popularity_zipf_table(benchmark::State& state) {
  for (auto _ : state) {
    models::AliasTable t(models::zipf_weights(kFiles, 0.8));
    benchmark::DoNotOptimize(t.size());
  }
}

void popularity_ranking(benchmark::State& state) {
  const std::vector<std::uint64_t> sizes(kFiles, 4096);
  for (auto _ : state) {
    auto r = models::popularity_ranking(sizes, models::PopularSizes::kAny, sim::RandomStream(7));
    benchmark::DoNotOptimize(r.data());
  }
}

void popularity_pick(benchmark::State& state) {
  auto ranking = std::make_shared<const std::vector<std::uint32_t>>(
      models::popularity_ranking(std::vector<std::uint64_t>(kFiles, 4096), models::PopularSizes::kAny, sim::RandomStream(7)));
  models::PopularitySpec spec;
  spec.kind = state.range(0) == 0 ? models::PopularityKind::kZipf : models::PopularityKind::kHot;
  spec.zipf_exponent = 0.8;
  const models::FilePicker picker(spec, ranking);
  sim::RandomStream rng(1);
  for (auto _ : state) benchmark::DoNotOptimize(picker.pick(rng));
  state.SetLabel(state.range(0) == 0 ? "zipf" : "hot");
}

void placement_million_mixed(benchmark::State& state) {
  models::FilesystemSpec spec;
  spec.files = kFiles;
  spec.tree = {100, 100, 100};
  spec.size_mix = {models::SizeClass(20000, 200000, 0.995), models::SizeClass(5000000, 50000000, 0.005)};
  sim::RandomStream size_rng(6);
  const std::vector<std::uint64_t> sizes = models::draw_file_sizes(spec, size_rng);
  std::uint64_t total = 0;
  for (auto s : sizes) total += s;
  for (auto _ : state) {
    const models::Ext4Layout layout(spec.tree, total / 10 * 11, 32, sim::RandomStream(3));
    auto offsets = layout.place_files(sizes, 1.0);
    benchmark::DoNotOptimize(offsets.data());
  }
}

}  // namespace

BENCHMARK(popularity_zipf_table)->Unit(benchmark::kMillisecond);
BENCHMARK(popularity_ranking)->Unit(benchmark::kMillisecond);
BENCHMARK(popularity_pick)->Arg(0)->Arg(1);
BENCHMARK(placement_million_mixed)->Unit(benchmark::kMillisecond);
