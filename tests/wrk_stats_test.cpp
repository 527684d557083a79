// wrk's statistics on hand-made samples, computed by hand from wrk 4.0's rules.
#include <catch2/catch.hpp>

#include "models/clients/wrk_stats.h"

TEST_CASE("mean and sample stdev and within-stdev and percentiles over microsecond buckets") {
  models::WrkHistogram h(2000000);
  for (std::uint64_t v : {100, 200, 300, 400, 1000}) CHECK(h.record(v));
  CHECK(h.count() == 5);
  const long double mean = h.mean();
  CHECK(static_cast<double>(mean) == Approx(400));
  const long double sd = h.stdev(mean);
  // deviations -300 -200 -100 0 600: squares sum 500000 / (5-1)
  CHECK(static_cast<double>(sd) == Approx(353.5534).epsilon(1e-6));
  // within [46.4, 753.6]: 100, 200, 300, 400 -> 80%
  CHECK(static_cast<double>(h.within_stdev(mean, sd, 1)) == Approx(80));
  // rank = round(p/100 * 5 + 0.5)
  CHECK(h.percentile(50) == 300);  // rank round(3.0) = 3
  CHECK(h.percentile(90) == 1000);  // rank round(5.0) = 5
  CHECK(h.max() == 1000);
}

TEST_CASE("values above the timeout are not recorded") {
  models::WrkHistogram h(2000000);  // --timeout 2s
  CHECK(h.record(2000000));
  CHECK_FALSE(h.record(2000001));
  CHECK(h.count() == 1);
}

TEST_CASE("coordinated-omission correction adds the missed samples") {
  models::WrkHistogram h(10000000);
  h.record(100);
  h.record(1000);  // >= 2 x 300: adds 700 and 400 (not 100: copies stop above the interval)
  h.record(600);   // exactly 2 x 300: adds nothing (m = 300 is not > 300)
  h.correct(300);
  CHECK(h.count() == 5);
  // Sums over min..max see every copy here (all above min = 100).
  CHECK(static_cast<double>(h.mean()) == Approx((100 + 1000 + 600 + 700 + 400) / 5.0));
}

TEST_CASE("copies below the smallest sample are counted but not summed and as wrk does") {
  models::WrkHistogram h(10000000);
  h.record(1000);
  h.correct(100);  // copies at 900, 800, ..., 200: all below min = 1000
  CHECK(h.count() == 9);
  CHECK(static_cast<double>(h.mean()) == Approx(1000.0 / 9));
}

TEST_CASE("wrk's number formatting") {
  CHECK(models::wrk_format_time_us(900) == "0.90ms");
  CHECK(models::wrk_format_time_us(226320) == "226.32ms");
  CHECK(models::wrk_format_time_us(7420000) == "7.42s");
  CHECK(models::wrk_format_time_us(999999) == "1000.00ms");
  CHECK(models::wrk_format_time_s(60) == "1m");
  CHECK(models::wrk_format_time_s(10) == "10s");
  CHECK(models::wrk_format_binary(0.98L * 1024 * 1024 * 1024) == "0.98G");
  CHECK(models::wrk_format_binary(900) == "0.88K");
  CHECK(models::wrk_format_metric(250.57L) == "250.57");
  CHECK(models::wrk_column("226.32ms", 8) == "226.32ms");
  CHECK(models::wrk_column("1.23s", 8) == "  1.23s ");
  CHECK(models::wrk_column("123.45", 8) == "123.45  ");
}
