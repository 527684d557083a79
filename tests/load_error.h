// What the loader tests share: the error a scenario gives when it must not
// load, and the check that it names the key and says why.
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
  std::string sets;
  for (const std::string& o : overrides) sets += " --set " + o;
  FAIL("loaded without a ConfigError: " << file << sets);
  throw std::logic_error("unreachable");
}

// Loading `file` with `overrides` is refused for `key`, with a message that
// contains `text`.
inline void check_refused(const std::string& file, const std::vector<std::string>& overrides, const std::string& key,
                          const std::string& text) {
  const models::ConfigError e = load_error(file, overrides);
  CHECK(e.key() == key);
  CHECK_THAT(e.what(), Catch::Matchers::Contains(text));
}

}  // namespace tests
