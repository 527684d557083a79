// What the tests of whole native runs share: a run of a scenario (or of a
// scenario file), and one client group of its result.
#pragma once
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/scenario/config_loader.h"
#include "models/scenario/world.h"

namespace tests {

// `seconds` measured of `sc` on `seed`.
inline models::RunResult run_scenario(const models::Scenario& sc, std::uint64_t seed, double seconds) {
  models::World w(sc, seed, seconds);
  w.run();
  return w.result(0);
}

// The scenario's own duration on its own seed.
inline models::RunResult run_scenario(const models::Scenario& sc) { return run_scenario(sc, sc.seed, sc.duration_s); }

// `seconds` measured of `file` with `overrides`, on `seed` (the scenario's own without one).
inline models::RunResult run_file(const std::string& file, const std::vector<std::string>& overrides, double seconds,
                                  std::optional<std::uint64_t> seed = std::nullopt) {
  const models::Scenario sc = models::load_scenario(file, overrides);
  return run_scenario(sc, seed.value_or(sc.seed), seconds);
}

inline const models::WrkResult& group(const models::RunResult& r, const std::string& name) {
  for (const auto& c : r.clients)
    if (c.spec.name == name) return c;
  FAIL("no client group " << name);
  throw std::logic_error("unreachable");
}

}  // namespace tests
