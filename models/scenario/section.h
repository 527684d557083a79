// One table of a scenario file, as the loader reads it (config_loader.cpp)
// and as each registry row reads its own keys (disk_kinds.h): typed getters
// that remember which keys were read, and `done()` that rejects every key
// nobody read. With `uses`, each getter also records what it declares of its
// key (key_reference.h).
#pragma once
#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "models/scenario/config_error.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/key_reference.h"
#include "models/scenario/layered_toml.h"
#include "models/scenario/limits.h"
#include "models/scenario/scenario.h"
#include "models/scenario/units.h"

namespace models {

// How the getters write values and tables in the reference and in errors.
namespace section_text {
inline constexpr std::int64_t kMaxInt = std::numeric_limits<std::int64_t>::max();
std::string size_text(std::uint64_t b);
std::string duration_text(double s);
std::string rate_text(double r);
std::string quoted_list(const std::vector<std::string>& options);
// How an error names a table: "[nginx]", "the top level".
std::string table_name(const std::string& path);
// "; [nic] takes line_rate, mtu": what an unknown key's error lists when no
// known key is near it.
std::string valid_keys_text(const std::string& where, const std::vector<std::string>& keys);
}  // namespace section_text

class Section {
 public:
  Section(const LayeredToml& doc, std::string path, std::string pattern = "", std::vector<KeyUse>* uses = nullptr)
      : doc_(doc), path_(std::move(path)), pattern_(std::move(pattern)), uses_(uses) {}

  const std::string& path() const { return path_; }
  std::string dotted(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  const toml::node* node(const std::string& key) {
    used_.insert(key);
    return doc_.find(dotted(key));
  }
  // A value of a form of its own (lists, "settled" or a time): read as a node.
  const toml::node* value(const std::string& key) {
    record(key, KeyType::kValue, "", "", false);
    return node(key);
  }
  // The branch the next keys are read on, for the reference: "type = \"ssd\"".
  void set_when(std::string when) { when_ = std::move(when); }
  // A key the loader no longer takes: `message` says what replaced it.
  void retired(const std::string& key, const std::string& message) {
    record(key, KeyType::kRetired, message, "", false);
    if (has(key)) fail(key, message);
  }
  bool has(const std::string& key) const { return doc_.find(dotted(key)) != nullptr; }

  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    const toml::node* n = doc_.locate(dotted(key));
    if (!n) n = doc_.locate(path_);
    throw ConfigError(doc_.file_of(n), LayeredToml::line_of(n), dotted(key), message);
  }

  // Where the key (else this table) was given.
  KeyOrigin origin(const std::string& key) const {
    const toml::node* n = doc_.locate(dotted(key));
    if (!n) n = doc_.locate(path_);
    return KeyOrigin{doc_.file_of(n), LayeredToml::line_of(n)};
  }

  const toml::node* required(const std::string& key) {
    const toml::node* n = node(key);
    if (!n) fail(key, "is required" + (path_.empty() ? std::string() : " in [" + path_ + "]"));
    return n;
  }

  std::string string(const std::string& key, const std::string& fallback, bool must = false,
                     KeyType as = KeyType::kString, const std::string& range = "any text") {
    if (uses_) record(key, as, range, "\"" + fallback + "\"", must);
    const toml::node* n = must ? required(key) : node(key);
    if (!n) return fallback;
    if (!n->is_string()) fail(key, "must be a string");
    return n->value<std::string>().value();
  }

  std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t lo, std::int64_t hi,
                       bool must = false) {
    if (uses_)
      record(key, KeyType::kInteger, hi >= section_text::kMaxInt ? fmt::format(">= {}", lo) : fmt::format("{} to {}", lo, hi),
             std::to_string(fallback), must);
    const toml::node* n = must ? required(key) : node(key);
    if (!n) return fallback;
    if (!n->is_integer()) fail(key, "must be a whole number");
    const std::int64_t v = n->value<std::int64_t>().value();
    if (v < lo || v > hi) fail(key, range_message(static_cast<double>(lo), static_cast<double>(hi), std::to_string(v)));
    return v;
  }

  double number(const std::string& key, double fallback, double lo, double hi, bool must = false) {
    if (uses_) record(key, KeyType::kNumber, fmt::format("{:g} to {:g}", lo, hi), fmt::format("{:g}", fallback), must);
    const toml::node* n = must ? required(key) : node(key);
    if (!n) return fallback;
    if (!n->is_number()) fail(key, "must be a number");
    const double v = n->value<double>().value();
    // %g: -1e308 is "-1e+308", not 309 digits (hostile probe 3, finding 19).
    if (!(v >= lo && v <= hi)) fail(key, range_message(lo, hi, fmt::format("{:g}", v)));
    return v;
  }

  bool flag(const std::string& key, bool fallback) {
    if (uses_) record(key, KeyType::kFlag, "\"on\", \"off\" (or true, false)", fallback ? "\"on\"" : "\"off\"", false);
    const toml::node* n = node(key);
    if (!n) return fallback;
    if (n->is_boolean()) return n->value<bool>().value();
    if (n->is_string()) {
      const std::string s = n->value<std::string>().value();
      if (s == "on") return true;
      if (s == "off") return false;
    }
    fail(key, "must be \"on\" or \"off\" (or true/false)");
  }

  std::uint64_t size(const std::string& key, std::uint64_t fallback, std::uint64_t lo, bool must = false,
                     std::uint64_t hi = limits::kMaxDeviceBytes) {
    if (uses_) record(key, KeyType::kSize, section_text::size_text(lo) + " to " + section_text::size_text(hi), section_text::size_text(fallback), must);
    const toml::node* n = must ? required(key) : node(key);
    if (!n) return fallback;
    std::uint64_t v = 0;
    if (n->is_integer()) {
      const std::int64_t i = n->value<std::int64_t>().value();
      if (i < 0) fail(key, "must not be negative (got " + std::to_string(i) + ")");
      v = static_cast<std::uint64_t>(i);
    } else if (!n->is_string() || !parse_size(n->value<std::string>().value(), v)) {
      fail(key, "must be a size in bytes, like 4096, \"512k\", \"4m\" or \"44g\"");
    }
    if (v < lo) fail(key, "must be at least " + std::to_string(lo) + " bytes (got " + std::to_string(v) + ")");
    if (v > hi) fail(key, "must be at most " + std::to_string(hi) + " bytes (got " + std::to_string(v) + ")");
    return v;
  }

  double duration(const std::string& key, double fallback, double lo, bool must = false,
                  double hi = limits::kMaxSpanSeconds) {
    if (uses_)
      record(key, KeyType::kDuration, section_text::duration_text(lo) + " to " + section_text::duration_text(hi), section_text::duration_text(fallback), must);
    const toml::node* n = must ? required(key) : node(key);
    if (!n) return fallback;
    double v = 0, written = 0;
    if (n->is_number()) {
      v = written = n->value<double>().value();
    } else if (!n->is_string() || !parse_duration(n->value<std::string>().value(), v, &written)) {
      fail(key, "must be a time, like \"8.9ms\", \"50us\" or \"60s\"");
    }
    // The range holds the value as written (units.h), not its product.
    if (!(written >= lo && written <= hi))
      fail(key, fmt::format("must be a time from {:g} s to {:g} s (got {:.6g} s)", lo, hi, written));
    return v;
  }

  double rate(const std::string& key, double fallback, bool must = false) {
    if (uses_) record(key, KeyType::kRate, limits::rate_range_text(), section_text::rate_text(fallback), must);
    const toml::node* n = must ? required(key) : node(key);
    if (!n) return fallback;
    double v = 0, written = 0;
    if (!n->is_string() || !parse_rate(n->value<std::string>().value(), v, &written))
      fail(key, "must be a rate, like \"128MB/s\" or \"10Gbit/s\"");
    if (!(written >= limits::kMinRateBytesPerSecond && written <= limits::kMaxRateBytesPerSecond))
      fail(key, "must be " + limits::rate_range_text() + fmt::format(" (got {:.6g} B/s)", written));
    return v;
  }

  std::string choice(const std::string& key, const std::string& fallback, const std::vector<std::string>& options) {
    const std::string v = string(key, fallback, false, KeyType::kChoice, section_text::quoted_list(options));
    if (std::find(options.begin(), options.end(), v) == options.end())
      fail(key, "must be one of " + section_text::quoted_list(options) + " (got \"" + v + "\")");
    return v;
  }

  // A table inside this one; `shown_as` names it in the reference when its
  // name is the user's ("NAME" for a client group).
  // The tables of an array of tables ([[expect]]), for the reference only.
  Section list_of_tables(const std::string& key) {
    return Section(doc_, dotted(key), pattern_.empty() ? key : pattern_ + "." + key, uses_);
  }
  // A key read by hand (not through a getter), for the reference only.
  void declare(const std::string& key, KeyType type, const std::string& range) const {
    record(key, type, range, "", false);
  }

  Section sub(const std::string& key, const std::string& shown_as = "") {
    const std::string name = shown_as.empty() ? key : shown_as;
    record(name, KeyType::kTable, "", "", false);
    used_.insert(key);
    const toml::node* n = doc_.find(dotted(key));
    if (n && !n->is_table()) fail(key, "must be a table");
    return Section(doc_, dotted(key), pattern_.empty() ? name : pattern_ + "." + name, uses_);
  }

  // Rejects keys nobody read, suggesting the nearest known one.
  void done(const std::vector<std::string>& also_known = {}) const {
    for (const std::string& k : doc_.children(path_)) {
      if (used_.count(k) || std::find(also_known.begin(), also_known.end(), k) != also_known.end()) continue;
      std::string best;
      std::size_t best_d = std::numeric_limits<std::size_t>::max();
      for (const std::string& u : used_) {
        const std::size_t d = edit_distance(k, u);
        if (d < best_d) {
          best_d = d;
          best = u;
        }
      }
      std::string message = "unknown key";
      if (!best.empty() && best_d <= std::max<std::size_t>(2, k.size() / 3)) message += " (did you mean '" + best + "'?)";
      else message += section_text::valid_keys_text(section_text::table_name(path_) + (when_.empty() ? "" : " with " + when_),
                                      std::vector<std::string>(used_.begin(), used_.end()));
      fail(k, message);
    }
  }

 private:
  static std::string range_message(double lo, double hi, const std::string& got) {
    auto fmt = [](double v) {
      std::string s = std::to_string(v);
      s.erase(s.find_last_not_of('0') + 1);
      if (!s.empty() && s.back() == '.') s.pop_back();
      return s;
    };
    if (hi >= 9e18) return "must be at least " + fmt(lo) + " (got " + got + ")";
    return "must be between " + fmt(lo) + " and " + fmt(hi) + " (got " + got + ")";
  }

  void record(const std::string& key, KeyType type, const std::string& range, const std::string& fallback,
              bool must) const {
    if (uses_) uses_->push_back(KeyUse{pattern_, when_, key, type, range, must ? "" : fallback, must});
  }

  const LayeredToml& doc_;
  std::string path_;
  std::string pattern_;  // the path with user-chosen names replaced ("clients.NAME")
  std::string when_;
  std::vector<KeyUse>* uses_;
  std::set<std::string> used_;
};

// The [[expect]] entries of `root`'s table (a scenario's top level, a lesson
// step's table): metric, min, max, note, relative_to, and, when `validated`
// (a scenario's, which `clerk validate` reports against the published
// figure), documented and known_miss; each error naming the file, line and key.
// `relative_to(value, file, line)` says what a relative_to names (a scenario
// file; a lesson's step) and throws a ConfigError when it names nothing.
using RelativeTo = std::function<std::string(const std::string& value, const std::string& file, int line)>;
std::vector<Expectation> read_expectations(Section& root, const LayeredToml& doc, const RelativeTo& relative_to,
                                           bool validated = true);

// An expectation's min, max or documented must be a finite number: NaN
// compares false with every figure (a bound that never holds or always
// does), and an infinite one is what leaving the key out means. Throws
// ConfigError(file, line, key) otherwise.
void check_expect_bound(double v, const std::string& file, int line, const std::string& key);

}  // namespace models
