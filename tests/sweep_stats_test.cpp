// Sweep statistics against values worked out by hand (t quantiles from the
// printed Student's t table).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "cli/sweep/plot_data.h"
#include "cli/sweep/sweep_rows.h"
#include "cli/sweep/sweep_stats.h"
#include "cli/sweep/sweep_summary.h"

using cli::sweep::estimate;

TEST_CASE("mean and 95% interval of five values", "[sweep][stats]") {
  // mean 3; s^2 = (4+1+0+1+4)/4 = 2.5; t(0.975, 4) = 2.776445;
  // half-width = 2.776445 * sqrt(2.5) / sqrt(5) = 2.776445 * sqrt(0.5) = 1.963243
  const auto e = estimate({1, 2, 3, 4, 5}, 0.95);
  CHECK(e.n == 5);
  CHECK(e.mean == Approx(3.0));
  CHECK(e.stdev == Approx(std::sqrt(2.5)));
  CHECK(e.low == Approx(3 - 1.963243).epsilon(1e-6));
  CHECK(e.high == Approx(3 + 1.963243).epsilon(1e-6));
}

TEST_CASE("two values: the interval uses t with one degree of freedom", "[sweep][stats]") {
  // mean 11, s = sqrt(2), half-width = t(0.975, 1) * s / sqrt(2) = 12.706205
  const auto e = estimate({10, 12}, 0.95);
  CHECK(e.mean == Approx(11));
  CHECK(e.low == Approx(11 - 12.706205).epsilon(1e-6));
  CHECK(e.high == Approx(11 + 12.706205).epsilon(1e-6));
}

TEST_CASE("a 90% interval is narrower, with t(0.95, 3)", "[sweep][stats]") {
  // mean 4, s^2 = (4+0+0+4)/3 = 8/3, half-width = 2.353363 * sqrt(8/3) / 2 = 1.921513
  const auto e = estimate({2, 4, 4, 6}, 0.90);
  CHECK(e.mean == Approx(4));
  CHECK(e.high - e.mean == Approx(1.921513).epsilon(1e-6));
  CHECK(e.mean - e.low == Approx(1.921513).epsilon(1e-6));
}

TEST_CASE("one value has a mean but no interval, missing values are left out", "[sweep][stats]") {
  const auto one = estimate({7.5}, 0.95);
  CHECK(one.n == 1);
  CHECK(one.mean == 7.5);
  CHECK(std::isnan(one.low));
  CHECK(std::isnan(one.high));
  const auto gaps = estimate({NAN, 1, 3, NAN}, 0.95);
  CHECK(gaps.n == 2);
  CHECK(gaps.mean == Approx(2));
  const auto none = estimate({}, 0.95);
  CHECK(none.n == 0);
  CHECK(std::isnan(none.mean));
}

TEST_CASE("the summary groups runs by point", "[sweep][stats]") {
  cli::sweep::Columns c{{"k"}, {"m"}};
  std::vector<cli::sweep::Row> rows = {
      {"f", 0, 0, 1, {"a"}, {1}}, {"f", 1, 0, 2, {"a"}, {2}}, {"f", 2, 0, 3, {"a"}, {3}},
      {"f", 3, 1, 1, {"b,c"}, {10}},
  };
  // point 0: mean 2, s = 1, half-width = t(0.975, 2) / sqrt(3) = 4.302653 / 1.732051 = 2.484138
  const std::string csv = cli::sweep::summary_csv(c, rows, 0.95);
  const auto first_nl = csv.find('\n');
  CHECK(csv.substr(0, first_nl) == "point,k,runs,m.mean,m.ci_low,m.ci_high");
  const auto second = csv.substr(first_nl + 1, csv.find('\n', first_nl + 1) - first_nl - 1);
  auto fields = cli::sweep::csv_split(second);
  REQUIRE(fields.size() == 6);
  CHECK(fields[0] == "0");
  CHECK(fields[2] == "3");
  CHECK(std::stod(fields[3]) == Approx(2));
  CHECK(std::stod(fields[4]) == Approx(2 - 2.484138).epsilon(1e-6));
  CHECK(std::stod(fields[5]) == Approx(2 + 2.484138).epsilon(1e-6));
  CHECK(csv.find("\n1,\"b,c\",1,10,,\n") != std::string::npos);
}

// Probe 3, finding 11: the x values of a plot, found with a hash set and
// sorted once (was a search of the values so far for each row, quadratic):
// distinct, numerically sorted when all are numbers (stable: "1" before
// "1.0" as first seen; "nan" last), else in first-seen order.
namespace {
// The plot of one metric over an axis (by default "x", no scenario key)
// whose rows take the values `xs`.
cli::sweep::PlotData x_of(const std::vector<std::string>& xs, const std::string& axis = "x") {
  using namespace cli::sweep;
  RowFile file;
  file.columns = {{axis}, {"m"}};
  file.has_columns = true;
  for (std::size_t i = 0; i < xs.size(); ++i) file.rows.push_back({"f", i, i, 1, {xs[i]}, {1.0}});
  return gather(file, {axis, "m", "", {}, 0.95});
}
}  // namespace

TEST_CASE("plot's x values: distinct, sorted as numbers when all are, else first-seen", "[sweep][stats]") {
  using namespace cli::sweep;
  const PlotData numbers = x_of({"10", "2", "nan", "1", "2", "-3e2", "1.0", "10"});
  CHECK(numbers.x_numeric);
  CHECK(numbers.x_labels == std::vector<std::string>{"-3e2", "1", "1.0", "2", "10", "nan"});
  const PlotData words = x_of({"b", "a", "10", "b", "c", "a"});
  CHECK_FALSE(words.x_numeric);
  CHECK(words.x_labels == std::vector<std::string>{"b", "a", "10", "c"});
  // Many distinct values, in reverse: every one kept once, in order.
  std::vector<std::string> many;
  for (int i = 20000; i > 0; --i) many.push_back(std::to_string(i));
  many.push_back("1");
  const PlotData big = x_of(many);
  REQUIRE(big.x_labels.size() == 20000);
  CHECK(big.x_labels.front() == "1");
  CHECK(big.x_labels.back() == "20000");
  CHECK(std::is_sorted(big.x_values.begin(), big.x_values.end()));
}

// Probe 7, finding 2: a sweep writes a range's times, rates and sizes with
// units ("250ms", "2Gbit/s", "512m"), which plot drew as text: in the order
// first seen, evenly spaced, and --logx did nothing.
TEST_CASE("plot's x values with units: read as the quantity, sorted and placed to scale", "[sweep][stats]") {
  using namespace cli::sweep;
  const PlotData times = x_of({"1s", "250ms", "2s", "500ms"});
  CHECK(times.x_numeric);
  CHECK(times.x_labels == std::vector<std::string>{"250ms", "500ms", "1s", "2s"});
  const auto near = [](const std::vector<double>& got, const std::vector<double>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]));
  };
  near(times.x_values, {0.25, 0.5, 1, 2});
  const PlotData sizes = x_of({"512m", "2g", "1g"});
  CHECK(sizes.x_labels == std::vector<std::string>{"512m", "1g", "2g"});
  near(sizes.x_values, {512.0 * 1024 * 1024, 1024.0 * 1024 * 1024, 2048.0 * 1024 * 1024});
  const PlotData rates = x_of({"8Gbit/s", "1Gbit/s", "500MB/s"});
  // In bytes a second: 1 Gbit/s is 125 MB/s.
  CHECK(rates.x_labels == std::vector<std::string>{"1Gbit/s", "500MB/s", "8Gbit/s"});
  near(rates.x_values, {1.25e8, 5e8, 1e9});
  // One axis is read one way: a time among sizes is text, as before ("512m"
  // would be a time too: 512 minutes, never written so by a sweep).
  const PlotData mixed = x_of({"512k", "250ms"});
  CHECK_FALSE(mixed.x_numeric);
  CHECK(mixed.x_labels == std::vector<std::string>{"512k", "250ms"});
}

// Probe 8, minor 3: an axis that sweeps a scenario key is read as the
// loader reads that key: "1m" of warmup is a minute (it was read as a
// mebibyte and drawn far right of 100 s and 200 s), of memory.page_cache a
// mebibyte; a bare number is the key's unit (seconds, bytes).
TEST_CASE("plot reads a key's axis as the loader reads the key", "[sweep][stats]") {
  using namespace cli::sweep;
  const PlotData warmup = x_of({"1m", "100", "200"}, "warmup");
  CHECK(warmup.x_numeric);
  CHECK(warmup.x_labels == std::vector<std::string>{"1m", "100", "200"});
  REQUIRE(warmup.x_values.size() == 3);
  CHECK(warmup.x_values[0] == Approx(60));
  const PlotData cache = x_of({"1m", "100", "200"}, "memory.page_cache");
  CHECK(cache.x_labels == std::vector<std::string>{"100", "200", "1m"});
  CHECK(cache.x_values.back() == Approx(1048576));
  // A key under a named table: clients.NAME.timeout is a time.
  const PlotData timeout = x_of({"1m", "100", "200"}, "clients.random.timeout");
  CHECK(timeout.x_labels == std::vector<std::string>{"1m", "100", "200"});
  // A time key whose values are not all times stays text.
  CHECK_FALSE(x_of({"1m", "fast"}, "warmup").x_numeric);
}

// Probe 3, finding 15: a CSV field holding a newline (a client group's
// name in a metric) is written in quotes and read back as one record.
TEST_CASE("a CSV field with a newline reads back as written", "[sweep][stats]") {
  using namespace cli::sweep;
  const Columns c{{"k"}, {"clients.a\nb,c.requests_per_s"}};
  const Row r{"f", 0, 0, 1, {"x\ny"}, {2.5}};
  const std::string text = header(Format::kCsv, c) + line(Format::kCsv, c, r);
  const std::string path =
      (std::filesystem::temp_directory_path() / ("clerk-csv-newline-" + std::to_string(::getpid()) + ".csv")).string();
  {
    std::ofstream(path) << text;
  }
  const RowFile back = read_rows(path);
  std::remove(path.c_str());
  CHECK(back.columns == c);
  REQUIRE(back.rows.size() == 1);
  CHECK(back.rows[0] == r);
  CHECK_FALSE(back.cut_short);
}
