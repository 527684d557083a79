// Sweep statistics against values worked out by hand (t quantiles from the
// printed Student's t table).
#include <catch2/catch.hpp>
#include <cmath>

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
