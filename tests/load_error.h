// What the loader tests share: the error a scenario gives when it must not load.
#pragma once
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/scenario/config_loader.h"

namespace tests {

// The error loading `file` with `overrides` gives; fails the test if it loads.
inline models::ConfigError load_error(const std::string& file, const std::vector<std::string>& overrides = {}) {
  try {
    models::load_scenario(file, overrides);
  } catch (const models::ConfigError& e) {
    return e;
  }
  FAIL("loaded without a ConfigError: " << file);
  throw std::logic_error("unreachable");
}

}  // namespace tests
