// JSON written as text, the one way every JSON writer does it (clerk run
// --json, compare --json, validate --json, realrun --json, sweep's JSON
// Lines, whatif --json, clerk-ui's exports). A file name, a group name or a
// results label may hold bytes that are not UTF-8 (a file name is any bytes
// but '/' and NUL); nlohmann's dump() throws on them, which lost a finished
// run's report (exit 3). Here each invalid byte is written as U+FFFD, the
// replacement character (README, "Output"): the JSON is always valid UTF-8,
// and the rest of the text is as dump() writes it.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace common {

// dump(indent) with invalid UTF-8 replaced by U+FFFD; indent -1: one line.
// Both kinds of document, each keeping its own key order (an ordered_json
// converted to json would be sorted).
std::string json_text(const nlohmann::json& j, int indent = -1);
std::string json_text(const nlohmann::ordered_json& j, int indent = -1);

}  // namespace common
