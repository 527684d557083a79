// Request popularity (models/clients/popularity.h): the alias table's
// probabilities by hand, Zipf and hot-set frequencies within sampling error,
// the ranking's own stream, and the loader's keys.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include "models/clients/popularity.h"
#include "models/scenario/config_loader.h"
#include "models/hardware/no_disk.h"
#include "models/scenario/world.h"
#include "models/scenario/world_files.h"

namespace {

using models::FilePicker;
using models::PopularityKind;
using models::PopularitySpec;

const std::string kData = CLERK_TEST_DATA;

// Pearson's chi-square statistic of observed counts against probabilities.
double chi_square(const std::vector<std::uint64_t>& observed, const std::vector<double>& p, std::uint64_t n) {
  double x2 = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    const double e = p[i] * static_cast<double>(n);
    x2 += (static_cast<double>(observed[i]) - e) * (static_cast<double>(observed[i]) - e) / e;
  }
  return x2;
}

// The chi-square distribution's upper 0.1% point for `df` degrees of freedom
// (Wilson-Hilferty: (X/df)^(1/3) is close to normal; z = 3.090 at 0.999).
double chi_square_999(double df) {
  const double a = 2.0 / (9.0 * df);
  return df * std::pow(1 - a + 3.090 * std::sqrt(a), 3);
}

std::shared_ptr<const std::vector<std::uint32_t>> shuffled(std::uint32_t n, std::uint64_t seed) {
  return std::make_shared<const std::vector<std::uint32_t>>(
      models::popularity_ranking(std::vector<std::uint64_t>(n, 4096), models::PopularSizes::kAny, sim::RandomStream(seed)));
}

// Counts per rank of `draws` picks.
std::vector<std::uint64_t> rank_counts(const FilePicker& picker, const std::vector<std::uint32_t>& ranking,
                                       std::uint64_t draws, std::uint64_t seed) {
  std::vector<std::uint32_t> rank_of(ranking.size());
  for (std::uint32_t r = 0; r < ranking.size(); ++r) rank_of[ranking[r]] = r;
  std::vector<std::uint64_t> counts(ranking.size(), 0);
  sim::RandomStream rng(seed);
  for (std::uint64_t i = 0; i < draws; ++i) ++counts[rank_of[picker.pick(rng)]];
  return counts;
}

const models::WrkGroupSpec& group(const models::Scenario& sc, const std::string& name) {
  for (const auto& g : sc.clients)
    if (g.name == name) return g;
  FAIL("no group " << name);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("alias table: the probabilities of a hand-worked case") {
  const models::AliasTable t({1, 2, 3, 4});
  for (std::uint32_t i = 0; i < 4; ++i) CHECK(t.probability(i) == Approx((i + 1) / 10.0).margin(1e-12));
  // A zero weight is never drawn.
  const models::AliasTable z({0, 1, 0, 1});
  sim::RandomStream rng(5);
  for (int i = 0; i < 10000; ++i) CHECK(z.sample(rng) % 2 == 1);
  CHECK_THROWS(models::AliasTable({0, 0}));
  CHECK_THROWS(models::AliasTable({1, -1}));
}

TEST_CASE("hot set size: ceil of the share, not one file more from rounding") {
  CHECK(models::hot_count(1000000, 0.02) == 20000);
  CHECK(models::hot_count(1000, 0.0205) == 21);
  CHECK(models::hot_count(10, 0.01) == 1);
  CHECK(models::hot_count(10, 1.0) == 10);
}

TEST_CASE("Zipf frequencies match 1/r^s within sampling error (chi-square), and uniform draws do not") {
  const std::uint32_t n = 200;
  const std::uint64_t draws = 400000;
  const auto ranking = shuffled(n, 11);
  for (const double s : {0.7, 1.0, 1.3}) {
    PopularitySpec spec;
    spec.kind = PopularityKind::kZipf;
    spec.zipf_exponent = s;
    const FilePicker picker(spec, ranking);
    std::vector<double> p = models::zipf_weights(n, s);
    const double total = std::accumulate(p.begin(), p.end(), 0.0);
    for (double& x : p) x /= total;
    for (std::uint32_t r = 0; r < n; ++r) REQUIRE(picker.rank_probability(r) == Approx(p[r]).epsilon(1e-9));
    const auto counts = rank_counts(picker, *ranking, draws, 7);
    // Every expected count is above 5 (the smallest, s = 1.3 at rank 200, is about 50).
    CHECK(*std::min_element(p.begin(), p.end()) * draws > 5);
    const double x2 = chi_square(counts, p, draws);
    INFO("s = " << s << ", chi-square " << x2 << " against " << chi_square_999(n - 1));
    CHECK(x2 < chi_square_999(n - 1));
    // The test has power: uniform draws are far outside.
    const auto uniform = rank_counts(FilePicker(n), *ranking, draws, 7);
    CHECK(chi_square(uniform, p, draws) > 10 * chi_square_999(n - 1));
  }
}

TEST_CASE("hot set: its share of the requests and each file's within binomial bounds") {
  const std::uint32_t n = 1000;
  const std::uint64_t draws = 200000;
  PopularitySpec spec;
  spec.kind = PopularityKind::kHot;
  spec.hot_files = 0.02;
  spec.hot_share = 0.9;
  const auto ranking = shuffled(n, 3);
  const FilePicker picker(spec, ranking);
  const auto counts = rank_counts(picker, *ranking, draws, 9);
  const std::uint32_t hot = models::hot_count(n, spec.hot_files);
  REQUIRE(hot == 20);
  // The hot set's total: Binomial(draws, 0.9), within 4 standard deviations.
  const std::uint64_t hot_total = std::accumulate(counts.begin(), counts.begin() + hot, std::uint64_t{0});
  const double sd = std::sqrt(draws * 0.9 * 0.1);
  CHECK(std::abs(static_cast<double>(hot_total) - 0.9 * draws) < 4 * sd);
  // Each file: Binomial(draws, p_r), within 5 standard deviations (1,000 files:
  // a 5-sigma miss anywhere has probability below 0.1%).
  for (std::uint32_t r = 0; r < n; ++r) {
    const double p = picker.rank_probability(r);
    CHECK(p == Approx(r < hot ? 0.9 / 20 : 0.1 / 980));
    const double e = p * draws, s = std::sqrt(draws * p * (1 - p));
    INFO("rank " << r);
    CHECK(std::abs(static_cast<double>(counts[r]) - e) < 5 * s);
  }
  // A hot set of every file is uniform.
  spec.hot_files = 1.0;
  CHECK(FilePicker(spec, ranking).rank_probability(500) == Approx(1.0 / n));
}

TEST_CASE("uniform popularity draws as before: one below(files) a request") {
  const FilePicker picker(1000);
  sim::RandomStream a(42), b(42);
  for (int i = 0; i < 1000; ++i) CHECK(picker.pick(a) == b.below(1000));
}

TEST_CASE("the ranking: one permutation from its stream, sizes order it, ties in the random order") {
  const std::vector<std::uint64_t> sizes{300, 100, 200, 100, 300, 200, 100};
  const auto any = models::popularity_ranking(sizes, models::PopularSizes::kAny, sim::RandomStream(4));
  CHECK(any == models::popularity_ranking(sizes, models::PopularSizes::kAny, sim::RandomStream(4)));
  std::vector<std::uint32_t> sorted = any;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6});
  const auto small = models::popularity_ranking(sizes, models::PopularSizes::kSmall, sim::RandomStream(4));
  const auto large = models::popularity_ranking(sizes, models::PopularSizes::kLarge, sim::RandomStream(4));
  for (std::size_t i = 1; i < sizes.size(); ++i) {
    CHECK(sizes[small[i - 1]] <= sizes[small[i]]);
    CHECK(sizes[large[i - 1]] >= sizes[large[i]]);
  }
  // Equal sizes keep the random permutation's order.
  std::vector<std::uint32_t> ties_any, ties_small;
  for (auto f : any)
    if (sizes[f] == 100) ties_any.push_back(f);
  for (auto f : small)
    if (sizes[f] == 100) ties_small.push_back(f);
  CHECK(ties_any == ties_small);
}

TEST_CASE("scenario: popularity keys are typed, ranged and need their model") {
  const std::string file = kData + "/small-hdd.toml";
  auto error_of = [&](const std::vector<std::string>& set) -> std::string {
    try {
      models::load_scenario(file, set);
    } catch (const models::ConfigError& e) {
      return e.key() + ": " + e.what();
    }
    return "loaded";
  };
  const auto hot = models::load_scenario(file, {"clients.random.popularity=\"hot\"",
                                                "clients.random.hot={files=0.1, share=0.8}"});
  CHECK(group(hot, "random").popularity.kind == PopularityKind::kHot);
  CHECK(group(hot, "random").popularity.hot_files == 0.1);
  CHECK(group(hot, "random").popularity.hot_share == 0.8);
  CHECK(group(hot, "hot").popularity.kind == PopularityKind::kUniform);
  const auto zipf = models::load_scenario(file, {"clients.random.popularity=\"zipf\"", "clients.random.zipf_exponent=0.8"});
  CHECK(group(zipf, "random").popularity.zipf_exponent == 0.8);
  CHECK_THAT(error_of({"clients.random.popularity=\"pareto\""}), Catch::Contains("must be one of"));
  CHECK_THAT(error_of({"clients.random.popularity=\"zipf\""}), Catch::Contains("clients.random.zipf_exponent: "));
  CHECK_THAT(error_of({"clients.random.zipf_exponent=0.8"}), Catch::Contains("needs popularity = \"zipf\""));
  CHECK_THAT(error_of({"clients.random.popularity=\"hot\""}), Catch::Contains("clients.random.hot: "));
  CHECK_THAT(error_of({"clients.random.popularity=\"hot\"", "clients.random.hot={files=0.1, share=1.5}"}),
             Catch::Contains("clients.random.hot.share: "));
  CHECK_THAT(error_of({"clients.random.popularity=\"hot\"", "clients.random.hot={files=0.1, share=0.5, shar=0.5}"}),
             Catch::Contains("unknown key"));
  CHECK_THAT(error_of({"clients.random.popularity=\"hot\"", "clients.random.hot={files=0, share=0.5}"}),
             Catch::Contains("must be above 0"));
  CHECK_THAT(error_of({"clients.hot.popularity=\"zipf\"", "clients.hot.zipf_exponent=1"}),
             Catch::Contains("needs path = \"random\""));
  CHECK_THAT(error_of({"clients.random.popularity=\"zipf\"", "clients.random.zipf_exponent=1",
                       "clients.random.popular_sizes=\"small\""}),
             Catch::Contains("needs a data set of mixed sizes"));
  CHECK_THAT(error_of({"clients.random.popular_sizes=\"small\""}), Catch::Contains("uniform has no ranking"));
}

TEST_CASE("scenario: the hot set does not move when unrelated keys change") {
  const std::string file = kData + "/small-hdd.toml";
  const std::vector<std::string> hot = {"clients.random.popularity=\"hot\"", "clients.random.hot={files=0.05, share=0.9}"};
  // The files the group asks for, from the run's own file pickers.
  auto picks = [&](std::vector<std::string> set) {
    set.insert(set.end(), hot.begin(), hot.end());
    const models::Scenario sc = models::load_scenario(file, set);
    models::NoDisk disk;
    models::PageCache cache(disk, {1 << 30, 65536, 1 << 20});
    const sim::RandomStreams streams(sc.seed);
    const models::Filesystem files(sc.filesystem, cache, disk.capacity(), streams.stream(2));
    std::size_t g = 0;
    while (sc.clients[g].name != "random") ++g;
    const auto pickers = models::file_pickers(sc, files, streams);
    sim::RandomStream rng(1);
    std::vector<std::uint32_t> out;
    for (int i = 0; i < 2000; ++i) out.push_back(pickers[g].pick(rng));
    return out;
  };
  const auto base = picks({});
  CHECK(base == picks({"nginx.worker_processes=4", "clients.random.connections=16", "clients.hot.connections=2",
                       "clients.added={threads=1, connections=1, path=\"random\", popularity=\"zipf\", zipf_exponent=1}"}));
  // 90% of the picks go to 13 of the 256 files.
  std::vector<std::uint32_t> seen(256, 0);
  for (auto f : base) ++seen[f];
  std::sort(seen.rbegin(), seen.rend());
  const auto top = std::accumulate(seen.begin(), seen.begin() + 13, 0u);
  CHECK(top > 0.85 * base.size());
  // Another seed: another hot set.
  CHECK(base != picks({"seed=4"}));
}

TEST_CASE("scenario: a preload larger than the page cache is an error with both sizes") {
  const std::string file = kData + "/small-hdd.toml";
  // 256 files of 1 MiB; 64 MiB of page cache holds a quarter of them.
  const models::Scenario ok = models::load_scenario(file, {"dataset.preload_fraction=0.2"});
  CHECK_NOTHROW(models::World(ok, ok.seed, 0.1));
  const models::Scenario too_much = models::load_scenario(file, {"dataset.preload_fraction=0.5"});
  try {
    models::World world(too_much, too_much.seed, 0.1);
    FAIL("built a world whose preload exceeds its page cache");
  } catch (const models::ConfigError& e) {
    CHECK(e.key() == "dataset.preload_fraction");
    CHECK_THAT(e.what(), Catch::Contains("134217728 bytes") && Catch::Contains("67108864 bytes"));
  }
}
