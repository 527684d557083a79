// The scenario key reference (issue 25): every key the loader accepts, with
// its type, range, default, unit, what it models and where that comes from.
//
// Two halves, joined and checked against each other:
// - what the loader declares: each of Section's getters (config_loader.cpp)
//   records the key's table, type, range and default as it reads it. A few
//   probe scenarios (key_reference.cpp) take every branch of the loader (each
//   disk type, each popularity), so their union is every key it reads;
// - what the reference says of each key (key_docs.cpp): one line of meaning,
//   the nginx.conf directive or kernel knob it stands for, the source.
// A key read but not documented, documented but never read, or documented
// with an empty meaning is a problem: `clerk keys` refuses to print and the
// tests fail. The documented keys are also what the loader checks every table
// against before it reads any value, so that an unknown key is reported
// before a missing one (config_loader.cpp, check_known_keys).
#pragma once
#include <string>
#include <vector>

namespace models {

enum class KeyType { kTable, kString, kInteger, kNumber, kFlag, kSize, kDuration, kRate, kChoice, kValue, kRetired };

// A key as the loader read it (Section's getters).
struct KeyUse {
  std::string table;     // dotted pattern: "nginx", "clients.NAME.hot", "" for the top level
  std::string when;      // the branch it is read on, like "type = \"ssd\"", or ""
  std::string key;
  KeyType type = KeyType::kValue;
  std::string range;     // allowed values, in the file's units
  std::string fallback;  // the default, in the file's form; "" when required
  bool required = false;
};

// What the reference says of a key (key_docs.cpp).
struct KeyDoc {
  const char* table;
  const char* when;
  const char* key;
  const char* unit;        // "" when the type implies it (sizes, times, rates) or there is none
  const char* equivalent;  // the nginx.conf directive, sysctl or datasheet figure; "" for none
  const char* source;      // where the default comes from; "" for a key with no default
  const char* text;        // what it models
  const char* form = "";   // for lists and mixed values: their form
  const char* dflt = "";   // overrides the recorded default (a derived one)
  bool retired = false;    // a key the loader refuses, saying what replaced it
};

// Every documented key, in the reference's order.
const std::vector<KeyDoc>& key_docs();

// The documented keys of a table pattern (every `when`), sub-tables included.
std::vector<std::string> documented_keys(const std::string& table);
bool is_documented_table(const std::string& table);
bool is_retired_key(const std::string& table, const std::string& key);

struct KeyEntry {
  KeyUse use;
  KeyDoc doc;
};

struct KeyReference {
  std::vector<KeyEntry> entries;      // in the documentation's order
  std::vector<std::string> problems;  // undocumented, unread or undescribed keys
};

// Runs the probe scenarios and joins what they read with the documentation.
KeyReference build_key_reference();

// docs/scenario-keys.md, byte for byte (`clerk keys --markdown`).
std::string key_reference_markdown(const KeyReference& ref);
// The terminal form (`clerk keys [TABLE]`); an empty `table` prints every table.
// False when `table` names no table.
bool key_reference_text(const KeyReference& ref, const std::string& table, std::string& out);

// One key in a line, for a prompt that asks for it (clerk lesson's
// exercises): "nginx.aio (choice, "off", "threads", "on", "io_uring",
// "threads=NAME", default "off"): what it models". `dotted` is the key as
// --set takes it (its table, a dot, the key); empty when the reference has
// no such key.
std::string key_summary(const KeyReference& ref, const std::string& dotted);

// The type of a key as --set names it ("warmup", "clients.random.connections":
// a table's NAME stands for any name); kValue when the reference has no
// such key. A key that takes a word or a time (warmup) is a time.
KeyType key_type_of(const KeyReference& ref, const std::string& dotted);

// "type", "integer", ... as the reference prints them.
const char* key_type_name(KeyType type);

}  // namespace models
