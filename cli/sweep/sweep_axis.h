// An axis of a sweep: one scenario key and the values it takes, written as a
// list ("1,2,4" or a TOML array) or a range ("lo..hi:step", "lo..hi:*factor",
// or "lo..hi" without a step, which only random sampling can use). A range
// may be of sizes ("16m..128m:16m"), times ("50ms..70ms:10ms") or rates
// ("1Gbit/s..8Gbit/s:*2"), in the units the scenario keys take.
#pragma once
#include <string>
#include <vector>

#include <toml++/toml.h>

namespace cli::sweep {

// The one axis that is not a scenario key: `hardware`, whose values are
// hardware profiles (files); even one value makes it an axis (it is no override), read in place of the one the scenario includes,
// as `clerk run --hardware` does (models::load_scenario's `hardware`).
inline constexpr const char* kHardwareAxis = "hardware";

struct AxisValue {
  std::string toml;      // as the override gives it to the scenario loader: 32, 0.5, 'threads'
  std::string label;     // as tables and plots show it: 32, 0.5, threads
  bool numeric = false;  // an integer or a float
};

// What a range's values are when it is written with units that are not
// sizes: times (in seconds) or rates (in bytes or bits per second). A
// continuous range of them keeps its ends in that base unit, and each drawn
// value is written with a unit, as the scenario key takes it.
enum class Quantity { kNone, kTime, kByteRate, kBitRate };

struct Axis {
  std::string key;                // a dotted scenario key, as written in scenario files
  std::vector<AxisValue> values;  // empty for a continuous range
  bool continuous = false;        // "lo..hi" without a step: uniform in [lo, hi]
  bool integer = false;           // a continuous range of whole numbers
  double lo = 0, hi = 0;
  Quantity quantity = Quantity::kNone;  // a continuous range of times or rates
  std::string zip;                // axes with the same zip group move together
  std::string where;              // "spec.toml:12" or "--set", for error messages

  std::string name() const { return "axis '" + key + "'"; }
  std::size_t size() const { return values.size(); }
};

// A value from a TOML node (not a table). Throws std::invalid_argument.
AxisValue value_from_node(const toml::node& node);
// A value from TOML text; a bare word is taken as a string, as `--set` does.
// Throws std::invalid_argument.
AxisValue parse_value(const std::string& text);
// A time or a rate given in its quantity's base unit (s, B/s or bit/s),
// rounded to `digits` significant digits and written in the largest unit in
// which it is at least 1 ("50ms", "1.5s", "400MB/s", "2Gbit/s"): a string
// value, as a list of such values gives it. Never throws.
AxisValue quantity_value(Quantity q, double v, int digits = 12);
// A time in the clock's whole nanoseconds, with the digits it needs to read
// back as itself.
AxisValue time_value(std::int64_t ns);
// Fills axis.values (or the continuous range) from "v1,v2,...", "lo..hi",
// "lo..hi:step" or "lo..hi:*factor". Throws SweepError naming the axis.
void parse_axis_text(const std::string& text, Axis& axis);
// A range alone ("lo..hi[:step]"). Throws SweepError naming the axis.
void parse_range(const std::string& text, Axis& axis);
// True when the text is written as a range rather than a list.
bool looks_like_range(const std::string& text);
// Splits at commas outside brackets, braces and quotes.
std::vector<std::string> split_top_level(const std::string& text);

}  // namespace cli::sweep
