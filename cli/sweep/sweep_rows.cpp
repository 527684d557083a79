#include "cli/sweep/sweep_rows.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/sweep/sweep_error.h"
#include "cli/sweep/sweep_files.h"
#include "common/json_text.h"

namespace cli::sweep {

namespace {

bool parse_u64(const std::string& s, std::uint64_t& out) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool parse_number(const std::string& s, double& out) {
  if (s.empty()) {
    out = NAN;
    return true;
  }
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Axis labels go into JSON as numbers when they are numbers, and come back
// as the same text: integers as integers, others in shortest form.
nlohmann::ordered_json label_json(const std::string& label) {
  std::int64_t i = 0;
  auto r = std::from_chars(label.data(), label.data() + label.size(), i);
  if (!label.empty() && r.ec == std::errc() && r.ptr == label.data() + label.size()) return i;
  double d = 0;
  auto rd = std::from_chars(label.data(), label.data() + label.size(), d);
  if (!label.empty() && rd.ec == std::errc() && rd.ptr == label.data() + label.size() && std::isfinite(d) &&
      fmt::format("{}", d) == label)
    return d;
  return label;
}

std::string json_label(const nlohmann::ordered_json& j) {
  if (j.is_number_integer()) return j.is_number_unsigned() ? std::to_string(j.get<std::uint64_t>())
                                                            : std::to_string(j.get<std::int64_t>());
  if (j.is_number_float()) return fmt::format("{}", j.get<double>());
  if (j.is_string()) return j.get<std::string>();
  return common::json_text(j);
}

Row parse_csv_row(const std::vector<std::string>& f, const Columns& c, const std::string& where) {
  const std::size_t want = 4 + c.axes.size() + c.metrics.size();
  if (f.size() != want) throw SweepError(where, "", fmt::format("has {} fields, the header {}", f.size(), want));
  Row r;
  r.sweep = f[0];
  std::size_t k = 1;
  if (!parse_u64(f[k++], r.run) || !parse_u64(f[k++], r.point)) throw SweepError(where, "", "run and point must be whole numbers");
  for (std::size_t i = 0; i < c.axes.size(); ++i) r.axes.push_back(f[k++]);
  if (!parse_u64(f[k++], r.seed)) throw SweepError(where, "", "the seed must be a whole number");
  for (std::size_t i = 0; i < c.metrics.size(); ++i) {
    double v = 0;
    if (!parse_number(f[k], v)) throw SweepError(where, "", "'" + f[k] + "' is not a number");
    ++k;
    r.metrics.push_back(v);
  }
  return r;
}

// A row nests at most a few levels (axes, metrics, an array value): a line
// nested 100,000 deep crashed the recursive printing of its labels.
constexpr int kMaxJsonDepth = 16;

Row parse_json_row(const std::string& text, Columns& c, bool& has_columns, const std::string& where) {
  nlohmann::ordered_json j;
  const auto shallow = [&](int depth, nlohmann::ordered_json::parse_event_t, nlohmann::ordered_json&) {
    if (depth > kMaxJsonDepth)
      throw SweepError(where, "", "not a sweep row: nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
    return true;
  };
  try {
    j = nlohmann::ordered_json::parse(text, shallow);
  } catch (const nlohmann::json::exception& e) {  // a syntax error, or a number out of range (1e999)
    throw SweepError(where, "", std::string("not JSON: ") + e.what());
  }
  auto bad = [&](const std::string& why) { return SweepError(where, "", "not a sweep row: " + why); };
  if (!j.is_object() || !j.contains("sweep") || !j.contains("run") || !j.contains("point") || !j.contains("seed") ||
      !j["axes"].is_object() || !j["metrics"].is_object())
    throw bad("needs sweep, run, point, axes, seed and metrics");
  Columns mine;
  for (auto& [k, v] : j["axes"].items()) mine.axes.push_back(k);
  for (auto& [k, v] : j["metrics"].items()) mine.metrics.push_back(k);
  if (!has_columns) {
    c = mine;
    has_columns = true;
  } else if (!(mine == c)) {
    throw bad("its axes or metrics differ from the first row's");
  }
  for (const char* key : {"run", "point", "seed"})
    if (!j[key].is_number_unsigned()) throw bad(std::string("'") + key + "' must be a whole number of at least 0");
  Row r;
  try {
    r.sweep = j["sweep"].get<std::string>();
    r.run = j["run"].get<std::uint64_t>();
    r.point = j["point"].get<std::uint64_t>();
    r.seed = j["seed"].get<std::uint64_t>();
  } catch (const nlohmann::json::exception& e) {
    throw bad(e.what());
  }
  for (auto& [k, v] : j["axes"].items()) r.axes.push_back(json_label(v));
  for (auto& [k, v] : j["metrics"].items()) {
    if (!v.is_null() && !v.is_number()) throw bad("metric '" + k + "' is not a number");
    r.metrics.push_back(v.is_null() ? NAN : v.get<double>());
  }
  return r;
}

// Where the record starting at `pos` ends: its newline. A CSV field in
// quotes may hold newlines (RFC 4180, 2.6: csv_field writes a group or axis
// value with one so), so for CSV only a newline outside quotes ends it; a
// quote toggles, and a doubled quote inside quotes toggles twice, as
// csv_split reads it. npos: the record is cut short.
std::size_t record_end(const std::string& text, std::size_t pos, Format f) {
  if (f == Format::kJsonl) return text.find('\n', pos);  // JSON strings escape their newlines
  bool quoted = false;
  for (std::size_t i = pos; i < text.size(); ++i) {
    if (text[i] == '"') quoted = !quoted;
    else if (text[i] == '\n' && !quoted) return i;
  }
  return std::string::npos;
}

}  // namespace

bool Row::operator==(const Row& o) const {
  if (sweep != o.sweep || run != o.run || point != o.point || seed != o.seed || axes != o.axes ||
      metrics.size() != o.metrics.size())
    return false;
  for (std::size_t i = 0; i < metrics.size(); ++i)
    if (number_text(metrics[i]) != number_text(o.metrics[i])) return false;
  return true;
}

Format format_of(const std::string& path) {
  const auto ends = [&](const std::string& s) {
    return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0;
  };
  return ends(".jsonl") || ends(".json") ? Format::kJsonl : Format::kCsv;
}

Columns columns_of(const Plan& plan) { return {plan.axis_keys, plan.metrics}; }

std::string number_text(double v) {
  if (std::isnan(v)) return "";
  return fmt::format("{}", v);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos && (s.empty() || (s.front() != ' ' && s.back() != ' ')))
    return s;
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        out.back() += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      out.emplace_back();
    } else {
      out.back() += ch;
    }
  }
  return out;
}

std::string header(Format f, const Columns& c) {
  if (f == Format::kJsonl) return "";
  std::string h = "sweep,run,point";
  for (const auto& a : c.axes) h += "," + csv_field(a);
  h += ",seed";
  for (const auto& m : c.metrics) h += "," + csv_field(m);
  return h + "\n";
}

std::string line(Format f, const Columns& c, const Row& r) {
  if (f == Format::kCsv) {
    std::string s = csv_field(r.sweep) + "," + std::to_string(r.run) + "," + std::to_string(r.point);
    for (const auto& a : r.axes) s += "," + csv_field(a);
    s += "," + std::to_string(r.seed);
    for (double m : r.metrics) s += "," + number_text(m);
    return s + "\n";
  }
  nlohmann::ordered_json j;
  j["sweep"] = r.sweep;
  j["run"] = r.run;
  j["point"] = r.point;
  nlohmann::ordered_json axes = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < c.axes.size(); ++i) axes[c.axes[i]] = label_json(r.axes[i]);
  j["axes"] = axes;
  j["seed"] = r.seed;
  nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < c.metrics.size(); ++i) {
    if (std::isnan(r.metrics[i]))
      metrics[c.metrics[i]] = nullptr;
    else
      metrics[c.metrics[i]] = r.metrics[i];
  }
  j["metrics"] = metrics;
  return common::json_text(j) + "\n";
}

RowFile read_rows(const std::string& path) {
  const std::string text = read_limited(path);
  RowFile file;
  const Format f = format_of(path);
  std::size_t pos = 0;
  int number = 0;
  while (pos < text.size()) {
    const std::size_t nl = record_end(text, pos, f);
    if (nl == std::string::npos) {  // a line cut short: its run is not done
      if (text.find('\n', pos) != std::string::npos)  // whole lines follow: a quote opened and never closed
        throw SweepError(path + ":" + std::to_string(number + 1), "",
                         "a field's opening quote is never closed (\" in a field is written \"\")");
      file.cut_short = true;
      break;
    }
    std::string l = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++number;  // the record's first line
    const int lines_inside = static_cast<int>(std::count(l.begin(), l.end(), '\n'));
    if (!l.empty() && l.back() == '\r') l.pop_back();
    const std::string where = path + ":" + std::to_string(number);
    number += lines_inside;  // the next record's line number
    if (l.empty()) continue;
    if (f == Format::kJsonl) {
      file.rows.push_back(parse_json_row(l, file.columns, file.has_columns, where));
      continue;
    }
    const auto fields = csv_split(l);
    if (!file.has_columns) {
      std::size_t seed = 0;
      while (seed < fields.size() && fields[seed] != "seed") ++seed;
      if (fields.size() < 4 || fields[0] != "sweep" || fields[1] != "run" || fields[2] != "point" || seed == fields.size())
        throw SweepError(where, "", "not a sweep table: the header must be sweep,run,point,<axes>,seed,<metrics>");
      file.columns.axes.assign(fields.begin() + 3, fields.begin() + static_cast<std::ptrdiff_t>(seed));
      file.columns.metrics.assign(fields.begin() + static_cast<std::ptrdiff_t>(seed) + 1, fields.end());
      file.has_columns = true;
      continue;
    }
    file.rows.push_back(parse_csv_row(fields, file.columns, where));
  }
  return file;
}

}  // namespace cli::sweep
