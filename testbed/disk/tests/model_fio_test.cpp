// clerk-disk --model-fio (model_fio.h): the latencies counted in a bounded
// histogram (probe 4, finding 7: one double a read was kept, then copied),
// whose percentiles stay within the width the header states of the exact
// sorted samples' (the rule the figures had), and a block no file holds
// refused before the run (finding 8: the figures were all zeros, exit 0).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "common/bad_input.h"
#include "model_fio.h"
#include "models/scenario/config_loader.h"

using namespace testbed::disk;

namespace {
// The figure the vector gave: the sorted samples' index round(p/100 * (n - 1)).
double exact_percentile(std::vector<std::uint64_t> v, double p) {
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(p / 100.0 * static_cast<double>(v.size() - 1) + 0.5);
  return static_cast<double>(v[std::min(i, v.size() - 1)]);
}
}  // namespace

TEST_CASE("model_fio latencies: exact below 2^16 ns, within 2^-16 of the exact sample above", "[disk]") {
  FioLatencies none;
  CHECK(none.percentile_ns(50) == 0);
  CHECK(none.mean_ns() == 0);

  std::mt19937_64 rng(7);
  for (const std::uint64_t top : {std::uint64_t{65535}, std::uint64_t{30'000'000}, std::uint64_t{4'000'000'000'000}}) {
    FioLatencies lat;
    std::vector<std::uint64_t> all;
    std::uint64_t sum = 0;
    for (int i = 0; i < 20'000; ++i) {
      const std::uint64_t ns = 1 + rng() % top;
      lat.record(ns);
      all.push_back(ns);
      sum += ns;
    }
    CHECK(lat.count() == all.size());
    CHECK(lat.mean_ns() == Approx(static_cast<double>(sum) / static_cast<double>(all.size())));
    for (const double p : {0.0, 50.0, 90.0, 99.0, 100.0}) {
      const double exact = exact_percentile(all, p);
      const double got = lat.percentile_ns(p);
      INFO("top " << top << " p" << p << ": " << got << " ns, exact " << exact);
      if (top < 65536) CHECK(got == exact);
      else CHECK(std::abs(got - exact) <= exact * std::ldexp(1.0, -16));
    }
  }
}

TEST_CASE("model_fio latencies: one latency a run gives its exact value; the bins stay bounded", "[disk]") {
  FioLatencies same;
  for (int i = 0; i < 1000; ++i) same.record(123'456'789);  // a bin's middle clamped to the exact min and max
  CHECK(same.percentile_ns(50) == 123'456'789);
  CHECK(same.percentile_ns(99) == 123'456'789);
  CHECK(same.bins() < 1'000'000);

  FioLatencies longest;
  longest.record(static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
  CHECK(longest.bins() <= 1'605'632);  // 2^16 + 47 doublings of 2^15 bins: 13 MB at most
  CHECK(longest.percentile_ns(50) == static_cast<double>(std::numeric_limits<std::int64_t>::max()));
}

TEST_CASE("model_fio: a block no file of the data set holds is refused before the run", "[disk]") {
  const models::Scenario sc = models::load_scenario(CLERK_DISK_TEST_DIR "/tiny-ssd.toml", {"dataset.file_size=1m"});
  ModelFioSpec spec;
  spec.block = 2 << 20;
  spec.seconds = 0.01;
  try {
    model_fio(sc, spec);
    FAIL("a 2 MiB block of 1 MiB files was not refused");
  } catch (const common::BadInput& e) {
    CHECK(std::string(e.what()) ==
          "--bs 2097152: no file of the scenario's data set holds one block of that size (its largest file is "
          "1048576 bytes)");
  }
  spec.block = 1 << 20;  // exactly one block a file
  spec.seconds = 1;
  const FioFigures f = model_fio(sc, spec);
  CHECK(f.reads > 0);
  CHECK(f.p50_us > 0);
}
