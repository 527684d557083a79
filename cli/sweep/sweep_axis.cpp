#include "cli/sweep/sweep_axis.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
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

}  // namespace

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
                                                 " (write lo..hi:step, lo..hi:*factor, or lo..hi for random sampling; sizes like 16m..128m:16m)");
  };
  const std::size_t dots = text.find("..");
  if (dots == std::string::npos) fail("no '..' between its low and high ends");
  const std::size_t colon = text.find(':', dots);
  const std::string lo_s = trim(text.substr(0, dots));
  const std::string hi_s = trim(text.substr(dots + 2, colon == std::string::npos ? std::string::npos : colon - dots - 2));
  const std::string step_s = colon == std::string::npos ? "" : trim(text.substr(colon + 1));
  const bool geometric = !step_s.empty() && step_s[0] == '*';
  const std::string step_n = geometric ? trim(step_s.substr(1)) : step_s;

  if (has_size_unit(lo_s) || has_size_unit(hi_s))
    return parse_size_range(lo_s, hi_s, colon != std::string::npos, geometric, step_n, axis, fail);
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
