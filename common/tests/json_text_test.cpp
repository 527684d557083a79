// Hostile probe 3, finding 6: a name that is not UTF-8 made every JSON
// writer throw after the runs (exit 3).
#include <catch2/catch.hpp>

#include "common/json_text.h"

TEST_CASE("JSON with bytes that are not UTF-8 is written, each such byte as U+FFFD", "[json_text]") {
  nlohmann::json j;
  j["scenario"] = std::string("bad\xff.toml");
  j["group"] = "caf\xc3\xa9";  // valid UTF-8 is kept as it is
  CHECK_THROWS(j.dump());     // what the writers did
  const std::string text = common::json_text(j);
  CHECK(text == "{\"group\":\"caf\xc3\xa9\",\"scenario\":\"bad\xef\xbf\xbd.toml\"}");
  CHECK(nlohmann::json::parse(text)["scenario"] == "bad\xef\xbf\xbd.toml");
  CHECK(common::json_text(j, 2) == j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  CHECK(common::json_text(nlohmann::json{{"a", 1}}, 2) == nlohmann::json{{"a", 1}}.dump(2));
  // An ordered document keeps its order (converted to json it would be sorted).
  nlohmann::ordered_json o;
  o["z"] = 1;
  o["a"] = std::string("\xff");
  CHECK(common::json_text(o) == "{\"z\":1,\"a\":\"\xef\xbf\xbd\"}");
}
