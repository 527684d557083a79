// models::estimate_resources: what a run will need, before it starts
// (issue 21, finding 5: memory grew without bound with duration and rates).
#include <catch2/catch.hpp>
#include <string>

#include "models/scenario/config_error.h"
#include "models/scenario/resource_estimate.h"

namespace {

models::Scenario with_clients(std::uint32_t connections, double rate) {
  models::Scenario sc;
  models::WrkGroupSpec g;
  g.connections = connections;
  g.timeout_s = 2;
  g.rate = rate;
  sc.clients = {g, g};
  return sc;
}

}  // namespace

TEST_CASE("the estimate grows linearly with simulated time, connections and open-loop rate") {
  const models::Scenario sc = with_clients(100, 0);
  const double a = models::estimate_resources(sc, 1000).total_bytes();
  const double b = models::estimate_resources(sc, 2000).total_bytes();
  const double c = models::estimate_resources(sc, 3000).total_bytes();
  CHECK(b > a);
  CHECK(c - b == Approx(b - a));
  // Two groups: two latency windows each per second, of 2,402 bins.
  CHECK((b - a) / 1000 >= 4 * 2402.0);
  CHECK(models::estimate_resources(with_clients(200, 0), 10).total_bytes() >
        models::estimate_resources(with_clients(100, 0), 10).total_bytes());
  CHECK(models::estimate_resources(with_clients(100, 1e6), 10).total_bytes() >
        models::estimate_resources(with_clients(100, 0), 10).total_bytes() + 2 * 1e6 * 10 * 7);
}

TEST_CASE("a run too large for the machine is refused with its estimate") {
  REQUIRE(models::memory_budget_bytes() > 0);
  const models::Scenario huge = with_clients(16000000, 0);  // 2 x 16 million connections
  try {
    models::check_fits_machine(huge, 10, "huge.toml");
    FAIL("a run of 32 million connections was accepted");
  } catch (const models::ConfigError& e) {
    const std::string what = e.what();
    CHECK(what.find("huge.toml") != std::string::npos);
    CHECK(what.find("connections") != std::string::npos);
    CHECK(what.find("GiB") != std::string::npos);
  }
  CHECK_NOTHROW(models::check_fits_machine(with_clients(100, 0), 60, "small.toml"));
}
