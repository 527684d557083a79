#include "cli/sweep/sweep_axis.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <limits>
#include <span>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "cli/sweep/sweep_error.h"
#include "models/scenario/units.h"

namespace cli::sweep {

namespace {

constexpr std::size_t kMaxValues = 100000;  // a typo like 1..1e9:1 should not fill the memory

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// The shortest text that reads back as the same double, and still as a float in TOML.
std::string float_text(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

AxisValue integer_value(std::int64_t v) { return {std::to_string(v), std::to_string(v), true}; }
AxisValue float_value(double v) {
  const std::string s = float_text(v);
  return {s, fmt::format("{}", v), true};
}

bool parse_int(const std::string& s, std::int64_t& out) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}
bool parse_double(const std::string& s, double& out) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(out);
}

// Steps accumulate rounding (0.1 + 0.2); 12 significant digits remove it.
double tidy(double v) { return std::stod(fmt::format("{:.12g}", v)); }

// lo, lo + step, ... up to hi. The count is computed first, in unsigned
// arithmetic (hi - lo always fits), so no step can overflow a whole number.
template <typename Fail>
void integer_steps(std::int64_t lo, std::int64_t hi, std::int64_t step, Axis& axis, const Fail& fail) {
  const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  // Checked before the + 1: the span of the whole int64 range over a step of 1 is 2^64 - 1.
  if (span / static_cast<std::uint64_t>(step) >= kMaxValues) fail("more than 100000 values");
  const std::uint64_t count = span / static_cast<std::uint64_t>(step) + 1;
  for (std::uint64_t i = 0; i < count; ++i)
    axis.values.push_back(integer_value(static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + i * static_cast<std::uint64_t>(step))));
}

// A size as scenario files write it ("16m", "512k", "1.5g", "4096"): read by
// the scenario loader's own parser (models::parse_size: k, m, g, t are
// powers of 1024, whole bytes only), on text that is a plain decimal number
// with at most a unit after it, so a sign, hex, inf or a space (which its
// strtod would take) is refused as every other range end is.
bool parse_size_text(const std::string& s, std::uint64_t& bytes) {
  const bool unit = !s.empty() && std::string("kKmMgGtT").find(s.back()) != std::string::npos;
  const std::string number = unit ? s.substr(0, s.size() - 1) : s;
  if (number.empty() || number.find_first_not_of("0123456789.") != std::string::npos) return false;
  return models::parse_size(s, bytes);
}

bool has_size_unit(const std::string& s) {
  std::uint64_t bytes = 0;
  return !s.empty() && std::isalpha(static_cast<unsigned char>(s.back())) && parse_size_text(s, bytes);
}

// A size in the largest unit that divides it ("16m", "1536k", "4097"),
// as a list of sizes would give it: the same axis value either way.
AxisValue size_value(std::uint64_t bytes) {
  static constexpr std::pair<int, const char*> kUnits[] = {{40, "t"}, {30, "g"}, {20, "m"}, {10, "k"}};
  for (const auto& [shift, unit] : kUnits) {
    const std::uint64_t factor = std::uint64_t{1} << shift;
    if (bytes != 0 && bytes % factor == 0) return parse_value(std::to_string(bytes / factor) + unit);
  }
  return parse_value(std::to_string(bytes));
}

// "16m..128m:16m", "16m..1g:*2" or "16m..1g": a range of sizes (either end
// with a unit), counted in whole bytes. The step is a size too ("16m", or
// bytes); a factor, a whole number. Without a step (random sampling) the
// points are whole numbers of bytes, as the loader takes them.
template <typename Fail>
void parse_size_range(const std::string& lo_s, const std::string& hi_s, bool stepped, bool geometric,
                      const std::string& step_s, Axis& axis, const Fail& fail) {
  std::uint64_t lo = 0, hi = 0;
  if (!parse_size_text(lo_s, lo)) fail("'" + common::shown_text(lo_s) + "' is not a size (like 512k, 16m or 4096)");
  if (!parse_size_text(hi_s, hi)) fail("'" + common::shown_text(hi_s) + "' is not a size (like 512k, 16m or 4096)");
  if (lo > hi) fail("the low end is above the high end");
  axis.values.clear();
  axis.continuous = false;
  if (!stepped) {
    constexpr std::uint64_t kExact = std::uint64_t{1} << 53;  // drawn through doubles
    if (hi > kExact) fail("the ends of a range of sizes to sample must be within 2^53 bytes (8p)");
    axis.continuous = true;
    axis.integer = true;
    axis.lo = static_cast<double>(lo);
    axis.hi = static_cast<double>(hi);
    return;
  }
  if (geometric) {
    std::int64_t factor = 0;
    if (!parse_int(step_s, factor) || factor < 2) fail("the factor of a range of sizes must be a whole number above 1");
    if (lo == 0) fail("a geometric range must start above 0");
    for (std::uint64_t v = lo;; v *= static_cast<std::uint64_t>(factor)) {
      if (axis.values.size() >= kMaxValues) fail("more than 100000 values");
      axis.values.push_back(size_value(v));
      if (v > hi / static_cast<std::uint64_t>(factor)) break;  // the next would pass the high end (or overflow)
    }
    return;
  }
  std::uint64_t step = 0;
  if (!parse_size_text(step_s, step)) fail("the step '" + common::shown_text(step_s) + "' is not a size (like 16m or 4096)");
  if (step == 0) fail("the step must be above 0");
  if ((hi - lo) / step >= kMaxValues) fail("more than 100000 values");
  for (std::uint64_t v = lo; v <= hi; v += step) {
    axis.values.push_back(size_value(v));
    if (hi - v < step) break;  // never past the high end, nor past 2^64
  }
}

// Times and rates, read by the scenario loader's own parsers
// (models::parse_duration, models::parse_rate) on text that is a plain
// decimal number with its unit right after it: the number the loader's
// strtod reads must be that plain number, so a sign, an exponent, hex, inf
// or a space ("1e3ms", "0xAms", "1.5 ms") is refused as in a range of
// sizes. A time may be bare (seconds, as the loader takes it); a rate needs
// its unit, as the loader does. The value kept is the one the text names
// (units.h's `as_written`: "60ms" is the double nearest 0.06), so that steps
// add up to round values; ends that would not print back (infinite, or too
// small to be a normal double) are refused.
bool plain_quantity_text(const std::string& s, bool bare_ok) {
  const std::size_t end = std::min(s.find_first_not_of("0123456789."), s.size());
  if (s.find_first_of("0123456789") >= end) return false;  // no digit before the unit
  char* read = nullptr;
  std::strtod(s.c_str(), &read);
  if (read != s.c_str() + end) return false;
  return end == s.size() ? bare_ok : std::isalpha(static_cast<unsigned char>(s[end])) != 0;
}

bool printable(double v) { return v == 0 || std::isnormal(v); }

bool parse_time_text(const std::string& s, double& seconds) {
  double product = 0;
  return plain_quantity_text(s, true) && models::parse_duration(s, product, &seconds) && printable(seconds);
}

bool parse_rate_text(const std::string& s, double& bytes_per_second) {
  double product = 0;
  return plain_quantity_text(s, false) && models::parse_rate(s, product, &bytes_per_second) &&
         printable(bytes_per_second * 8);
}

// The kinds of quantity a range's end or step may be, by its unit: "16k" a
// size, "50ms" a time, "1Gbit/s" a rate, "1m" a size or a time (mebibytes
// or minutes). 0 for a bare number or a text that is none of them.
enum : unsigned { kSizes = 1, kTimes = 2, kRates = 4 };

unsigned unit_kinds(const std::string& s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s.back()))) return 0;  // every unit ends in a letter
  double v = 0;
  return (has_size_unit(s) ? kSizes : 0u) | (parse_time_text(s, v) ? kTimes : 0u) | (parse_rate_text(s, v) ? kRates : 0u);
}

std::string kinds_text(unsigned kinds) {
  if (kinds == (kSizes | kTimes)) return "a size or a time";
  return kinds == kSizes ? "a size" : kinds == kTimes ? "a time" : "a rate";
}

// A rate's values are counted in the unit family of the end that is a rate
// (the low one when both are): bits per second for "1Gbit/s", so that
// Gbit/s steps stay whole; bytes per second otherwise.
Quantity rate_family(const std::string& lo_s, const std::string& hi_s) {
  const std::string& end = unit_kinds(lo_s) & kRates ? lo_s : hi_s;
  return end.ends_with("bit/s") ? Quantity::kBitRate : Quantity::kByteRate;
}

// One end or step of a range of times or rates, in its quantity's base unit.
bool read_quantity(Quantity q, const std::string& s, double& v) {
  if (q == Quantity::kTime) return parse_time_text(s, v);
  if (!parse_rate_text(s, v)) return false;
  if (q == Quantity::kBitRate) v *= 8;  // exact: as_written divided by 8
  return true;
}

// Rounded to `digits` significant digits: steps accumulate rounding (0.05 +
// 0.01), which 12 digits remove. Through from_chars, which leaves the value
// as it was where std::stod would throw (a result below the normal range).
double rounded(double v, int digits) {
  const std::string s = fmt::format("{:.{}g}", v, digits);
  double out = v;
  std::from_chars(s.data(), s.data() + s.size(), out);
  return out;
}

// The whole steps from lo to hi: (hi - lo) / step, less the rounding of
// hi - lo, up to a few ulps of the larger end (probe 7: 0.1s..0.100000003s
// in 1 ns steps lost its last value to a slack of 1e-9 steps).
double steps_between(double lo, double hi, double step) {
  const double slack = 1e-9 + 4 * std::numeric_limits<double>::epsilon() * std::max(std::abs(lo), std::abs(hi)) / step;
  return std::floor((hi - lo) / step + slack);
}

// A range's next value, refused when it reads as the one before: a step
// too small for the digits the values are written with (never "given
// twice", which the user did not do).
template <typename Fail>
void push_distinct(Axis& axis, AxisValue v, const std::string& step_s, const Fail& fail) {
  if (!axis.values.empty() && axis.values.back().label == v.label)
    fail("the step '" + common::shown_text(step_s) + "' is too small for values of this size: two of them read " +
         v.label);
  axis.values.push_back(std::move(v));
}

// A time in whole nanoseconds, as the simulation's clock counts it, written
// with as many digits as it needs to read back as itself (1000.000000003s:
// 13), 12 at least (quantity_value's rounding of 0.05 + 0.01).
}  // namespace

AxisValue time_value(std::int64_t ns) {
  const double seconds = static_cast<double>(ns) * 1e-9;
  for (int digits = 12; digits < 19; ++digits) {
    AxisValue v = quantity_value(Quantity::kTime, seconds, digits);
    double read = 0;
    if (parse_time_text(v.label, read) && std::llround(read * 1e9) == ns) return v;
  }
  return quantity_value(Quantity::kTime, seconds, 19);
}

namespace {

// A range of times in whole nanoseconds, counted exactly (probe 7: the four
// values 1000s + 0..3 ns read alike, "1000s", and were refused as given
// twice). A step under a nanosecond is no step of the clock.
template <typename Fail>
void time_steps(double lo, double hi, double step, const std::string& step_s, Axis& axis, const Fail& fail) {
  const double kMaxNs = 9.2e18;  // below 2^63: every time the loader takes is far less
  if (!(hi * 1e9 < kMaxNs)) fail("the high end is beyond the clock's range");
  // Under a nanosecond (0.5ns would round to 1), give or take the
  // rounding of a time written in seconds.
  if (step * 1e9 < 1 - 1e-6) fail("the step '" + common::shown_text(step_s) + "' is under 1ns, the clock's tick");
  const std::int64_t lo_ns = std::llround(lo * 1e9), hi_ns = std::llround(hi * 1e9);
  const std::int64_t step_ns = step * 1e9 < kMaxNs ? std::llround(step * 1e9) : std::int64_t{1} << 62;
  if ((hi_ns - lo_ns) / step_ns >= static_cast<std::int64_t>(kMaxValues)) fail("more than 100000 values");
  for (std::int64_t ns = lo_ns; ns <= hi_ns; ns += step_ns) {
    axis.values.push_back(time_value(ns));
    if (hi_ns - ns < step_ns) break;
  }
}

// "50ms..70ms:10ms", "1Gbit/s..8Gbit/s:*2", "100MB/s..400MB/s:+100MB/s" or
// "50ms..70ms" (random sampling): a range of times or rates. The step is of
// the same kind (a time may be bare seconds), the factor a number above 1.
// Each value is written with the unit that reads best (quantity_value),
// the value a list of such values gives.
template <typename Fail>
void parse_quantity_range(Quantity q, const std::string& lo_s, const std::string& hi_s, bool stepped, bool geometric,
                          const std::string& step_s, Axis& axis, const Fail& fail) {
  const bool time = q == Quantity::kTime;
  const std::string what = time ? "a time (like 50ms, 0.05s or 0.05)" : "a rate (like 100MB/s or 1Gbit/s, with its unit)";
  double lo = 0, hi = 0;
  if (!read_quantity(q, lo_s, lo)) fail("'" + common::shown_text(lo_s) + "' is not " + what);
  if (!read_quantity(q, hi_s, hi)) fail("'" + common::shown_text(hi_s) + "' is not " + what);
  if (lo > hi) fail("the low end is above the high end");
  axis.values.clear();
  axis.continuous = false;
  if (!stepped) {
    axis.continuous = true;
    axis.integer = false;
    axis.quantity = q;
    axis.lo = lo;
    axis.hi = hi;
    return;
  }
  if (geometric) {
    double factor = 0;
    if (!parse_double(step_s, factor) || !(factor > 1))
      fail("the factor '" + common::shown_text(step_s) + "' must be a number above 1");
    if (!(lo > 0)) fail("a geometric range must start above 0");
    // Divided rather than hi multiplied, which could overflow. Times in the
    // clock's whole nanoseconds, as a stepped range's (probe 8: a factor of
    // 1.0000000001 gave labels 0.1 ns apart that ran alike).
    for (double v = lo; v / (1 + 1e-12) <= hi; v = rounded(v * factor, 12)) {
      if (axis.values.size() >= kMaxValues) fail("more than 100000 values");
      push_distinct(axis, time ? time_value(std::llround(v * 1e9)) : quantity_value(q, v), step_s, fail);
    }
    return;
  }
  double step = 0;
  if (!read_quantity(q, step_s, step)) {
    const unsigned kinds = unit_kinds(step_s);
    if (kinds != 0 && !(kinds & (time ? kTimes : kRates)))
      fail("the step '" + common::shown_text(step_s) + "' is " + kinds_text(kinds) + ", not " + what);
    fail("the step '" + common::shown_text(step_s) + "' is not " + what);
  }
  if (!(step > 0)) fail("the step must be above 0");
  if (time) return time_steps(lo, hi, step, step_s, axis, fail);
  const double count = steps_between(lo, hi, step) + 1;
  if (!(count <= static_cast<double>(kMaxValues))) fail("more than 100000 values");
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i)
    push_distinct(axis, quantity_value(q, lo + static_cast<double>(i) * step), step_s, fail);
}

// What a range with units ranges over, from the units of its ends: sizes
// when both may be sizes (as before times and rates took ranges: "1m..8m"
// is mebibytes), unless the step is a time and both may be times
// ("1m..5m:30s" is minutes); times; or rates. Two ends of different kinds
// ("1Gbit/s..2s") are refused. 0: neither end has a unit, a range of numbers.
template <typename Fail>
unsigned range_kind(const std::string& lo_s, const std::string& hi_s, const std::string& step_s, bool geometric,
                    const Fail& fail) {
  const unsigned lo_k = unit_kinds(lo_s), hi_k = unit_kinds(hi_s);
  if (lo_k != 0 && hi_k != 0 && (lo_k & hi_k) == 0)
    fail("'" + common::shown_text(lo_s) + "' is " + kinds_text(lo_k) + " and '" + common::shown_text(hi_s) + "' " +
         kinds_text(hi_k) + ": both ends must be of one kind");
  // An end without a unit (a bare number, or a typo the parser names) takes the other's.
  const unsigned kinds = (lo_k != 0 ? lo_k : ~0u) & (hi_k != 0 ? hi_k : ~0u);
  if (lo_k == 0 && hi_k == 0) return 0;
  if ((kinds & kSizes) && !((kinds & kTimes) && !geometric && unit_kinds(step_s) == kTimes)) return kSizes;
  return kinds & kTimes ? kTimes : kRates;
}

}  // namespace

AxisValue quantity_value(Quantity q, double v, int digits) {
  struct Unit {
    double factor;
    const char* name;
  };
  static constexpr Unit kTime[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}};
  static constexpr Unit kBytes[] = {{1e12, "TB/s"}, {1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "KB/s"}, {1, "B/s"}};
  static constexpr Unit kBits[] = {{1e12, "Tbit/s"}, {1e9, "Gbit/s"}, {1e6, "Mbit/s"}, {1e3, "kbit/s"}};
  const std::span<const Unit> units = q == Quantity::kTime ? std::span<const Unit>(kTime)
                                      : q == Quantity::kBitRate ? std::span<const Unit>(kBits)
                                                                : std::span<const Unit>(kBytes);
  v = rounded(v, digits);  // first, so that 0.9999999999999999 s is 1s, not 1000ms
  const Unit* unit = &units.back();
  for (const Unit& u : units)
    if (v >= u.factor || (v == 0 && u.factor == 1)) {
      unit = &u;
      break;
    }
  // A string, as parse_value gives a list's "50ms" (no TOML value reads so:
  // digits, a point, an exponent, letters and '/'), without parsing it
  // twice per value: a range may have 100,000 of them.
  const std::string text = fmt::format("{}", rounded(v / unit->factor, digits)) + unit->name;
  return {"'" + text + "'", text, false};
}

AxisValue value_from_node(const toml::node& node) {
  if (const auto* i = node.as_integer()) return integer_value(i->get());
  if (const auto* f = node.as_floating_point()) return float_value(f->get());
  if (const auto* b = node.as_boolean()) return {b->get() ? "true" : "false", b->get() ? "true" : "false", false};
  if (node.is_table()) throw std::invalid_argument("a table cannot be an axis value");
  std::ostringstream os;
  node.visit([&](const auto& v) { os << v; });
  if (const auto* s = node.as_string()) return {os.str(), s->get(), false};
  return {os.str(), os.str(), false};  // arrays, dates and times: their TOML text
}

AxisValue parse_value(const std::string& raw) {
  const std::string text = trim(raw);
  if (text.empty()) throw std::invalid_argument("an empty value");
  toml::table doc;
  try {
    doc = toml::parse("v = " + text);
  } catch (const toml::parse_error&) {
    try {
      doc = toml::parse("v = \"" + text + "\"");
    } catch (const toml::parse_error& e) {
      throw std::invalid_argument("cannot read the value '" + common::shown_text(text) + "': " +
                                  common::shown_text(e.description()));
    }
  }
  return value_from_node(*doc.get("v"));
}

std::vector<std::string> split_top_level(const std::string& text) {
  std::vector<std::string> parts;
  std::string cur;
  int depth = 0;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  parts.push_back(cur);
  return parts;
}

bool looks_like_range(const std::string& text) {
  const std::string t = trim(text);
  return t.find("..") != std::string::npos && t.find_first_of(",[{\"'") == std::string::npos;
}

void parse_range(const std::string& raw, Axis& axis) {
  const std::string text = trim(raw);
  auto fail = [&](const std::string& why) {
    throw SweepError(axis.where, axis.name(), "bad range '" + common::shown_text(text) + "': " + why +
                                                 " (write lo..hi:step, lo..hi:*factor, or lo..hi for random sampling; sizes like 16m..128m:16m,"
                                                 " times like 50ms..70ms:10ms, rates like 1Gbit/s..4Gbit/s:*2)");
  };
  const std::size_t dots = text.find("..");
  if (dots == std::string::npos) fail("no '..' between its low and high ends");
  const std::size_t colon = text.find(':', dots);
  const std::string lo_s = trim(text.substr(0, dots));
  const std::string hi_s = trim(text.substr(dots + 2, colon == std::string::npos ? std::string::npos : colon - dots - 2));
  const std::string step_s = colon == std::string::npos ? "" : trim(text.substr(colon + 1));
  const bool geometric = !step_s.empty() && step_s[0] == '*';
  const std::string step_n = geometric ? trim(step_s.substr(1)) : step_s;

  // A step with a unit may say that it is added, as a factor says it multiplies: "+100MB/s".
  const bool plus = !geometric && step_n.size() > 1 && step_n[0] == '+' &&
                    (std::isdigit(static_cast<unsigned char>(step_n[1])) || step_n[1] == '.');
  const std::string step_u = plus ? step_n.substr(1) : step_n;
  axis.quantity = Quantity::kNone;
  switch (range_kind(lo_s, hi_s, step_u, geometric, fail)) {
    case kSizes:
      return parse_size_range(lo_s, hi_s, colon != std::string::npos, geometric, step_u, axis, fail);
    case kTimes:
      return parse_quantity_range(Quantity::kTime, lo_s, hi_s, colon != std::string::npos, geometric, step_u, axis, fail);
    case kRates:
      return parse_quantity_range(rate_family(lo_s, hi_s), lo_s, hi_s, colon != std::string::npos, geometric, step_u,
                                  axis, fail);
    default:
      break;  // numbers
  }
  std::int64_t ilo = 0, ihi = 0, istep = 0;
  const bool ints = parse_int(lo_s, ilo) && parse_int(hi_s, ihi) && (step_n.empty() || parse_int(step_n, istep));
  double lo = 0, hi = 0, step = 0;
  if (!parse_double(lo_s, lo)) fail("'" + common::shown_text(lo_s) + "' is not a number");
  if (!parse_double(hi_s, hi)) fail("'" + common::shown_text(hi_s) + "' is not a number");
  if (colon != std::string::npos && !parse_double(step_n, step)) fail("the step '" + common::shown_text(step_s) + "' is not a number");
  if (lo > hi) fail("the low end is above the high end");
  axis.values.clear();
  axis.continuous = false;

  if (colon == std::string::npos) {
    // Drawn through doubles: whole numbers beyond 2^53 would not be exact.
    constexpr std::int64_t kExact = std::int64_t{1} << 53;
    if (ints && (ilo < -kExact || ihi > kExact)) fail("the ends of a whole-number range to sample must be within +-2^53");
    axis.continuous = true;
    axis.integer = ints;
    axis.lo = lo;
    axis.hi = hi;
    return;
  }
  if (geometric) {
    if (!(step > 1)) fail("the factor must be above 1");
    if (!(lo > 0)) fail("a geometric range must start above 0");
    if (ints && static_cast<double>(istep) != step) fail("the factor of a whole-number range must be whole");
    for (double v = lo; v <= hi * (1 + 1e-12); v = ints ? v * static_cast<double>(istep) : tidy(v * step)) {
      if (axis.values.size() >= kMaxValues) fail("more than 100000 values");
      if (ints && v > static_cast<double>(ihi)) break;  // never past the high end, which fits a whole number
      axis.values.push_back(ints ? integer_value(static_cast<std::int64_t>(v)) : float_value(v));
    }
    return;
  }
  if (!(step > 0)) fail("the step must be above 0");
  if (ints) return integer_steps(ilo, ihi, istep, axis, fail);
  const double count = std::floor((hi - lo) / step + 1e-9) + 1;
  if (count > static_cast<double>(kMaxValues)) fail("more than 100000 values");
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i)
    axis.values.push_back(float_value(tidy(lo + static_cast<double>(i) * step)));
}

void parse_axis_text(const std::string& text, Axis& axis) {
  if (trim(text).empty()) throw SweepError(axis.where, axis.name(), "has no values");
  if (looks_like_range(text)) return parse_range(text, axis);
  axis.values.clear();
  axis.continuous = false;
  for (const std::string& part : split_top_level(text)) {
    try {
      axis.values.push_back(parse_value(part));
    } catch (const std::invalid_argument& e) {
      throw SweepError(axis.where, axis.name(), e.what());
    }
  }
}

}  // namespace cli::sweep
