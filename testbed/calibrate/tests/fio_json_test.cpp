// fio's JSON (a real fio 3.33 document, tests/data) reduced to the fit's inputs.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "testbed/calibrate/fio_json.h"

using namespace testbed::calibrate;

namespace {
std::string fixture(const std::string& name) {
  std::ifstream in(std::string(CALIBRATE_TEST_DATA) + "/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("fio JSON: block size, queue depth, rates and completion latencies") {
  const auto jobs = parse_fio_json(fixture("fio-randread-128k-qd4.json"));
  REQUIRE(jobs.size() == 1);
  const FioJob& j = jobs.front();
  CHECK(j.name == "randread-128k-qd4");
  CHECK(j.block_bytes == 128 * 1024);
  CHECK(j.queue_depth == 4);
  CHECK(j.iops == Approx(6677.740864));
  CHECK(j.bandwidth_Bps == Approx(875264850));
  CHECK(j.ios == 2010);
  CHECK(j.clat_mean_s == Approx(578060.861692e-9));
  CHECK(j.clat_min_s == Approx(52879e-9));
  CHECK(j.clat_max_s == Approx(1297656e-9));
  REQUIRE(j.clat_percentiles.size() == 17);
  CHECK(j.clat_percentiles.front().first == Approx(1.0));
  CHECK(j.clat_percentiles[6].first == Approx(50.0));
  CHECK(j.clat_percentiles[6].second == Approx(577536e-9));
  CHECK(j.clat_percentiles.back().first == Approx(99.99));
  CHECK(j.clat_percentiles.back().second == Approx(1302528e-9));
}

TEST_CASE("fio JSON: notes before the document are skipped, other text is refused") {
  const auto jobs = parse_fio_json("note: both iodepth >= 1 and synchronous I/O engine are selected\n" +
                                   fixture("fio-randread-128k-qd4.json"));
  CHECK(jobs.size() == 1);
  CHECK_THROWS(parse_fio_json("fio: failed to open file"));
  CHECK_THROWS(parse_fio_json("{\"fio version\": \"fio-3.33\"}"));
  // Not fio's: every error is a runtime_error saying so (fuzz_fio found
  // nlohmann's parse_error and std::stoul's invalid_argument escaping).
  CHECK_THROWS_AS(parse_fio_json("{\"jobs\": [{\"jobname\": \"x\", "), std::runtime_error);
  CHECK_THROWS_AS(parse_fio_json("{\"jobs\": [{\"job options\": {\"iodepth\": \"deep\"}, \"read\": {}}]}"), std::runtime_error);
  CHECK_THROWS_AS(parse_fio_json("{\"jobs\": [{\"read\": {\"iops\": -1, \"clat_ns\": {}}}]}"), std::runtime_error);
  CHECK_THROWS_AS(parse_fio_json("{\"jobs\": [{\"read\": {\"clat_ns\": {\"percentile\": {\"p99\": 1}}}}]}"), std::runtime_error);
}
