#include "models/scenario/lesson.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <stdexcept>

#include "common/number_text.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/layered_toml.h"
#include "models/scenario/resource_estimate.h"
#include "models/scenario/result_json.h"
#include "models/scenario/section.h"

namespace models {

namespace {

namespace fs = std::filesystem;

// "N-name.toml": N, or 0 when the name is not a lesson's.
int lesson_number(const fs::path& file, std::string* name = nullptr) {
  const std::string stem = file.stem().string();
  std::size_t digits = 0;
  while (digits < stem.size() && std::isdigit(static_cast<unsigned char>(stem[digits]))) ++digits;
  if (file.extension() != ".toml" || digits == 0 || digits > 3 || digits + 1 >= stem.size() || stem[digits] != '-')
    return 0;
  if (name) *name = stem.substr(digits + 1);
  return std::stoi(stem.substr(0, digits));
}

std::vector<std::string> string_list(Section& s, const std::string& key) {
  std::vector<std::string> out;
  const toml::node* n = s.value(key);
  if (!n) return out;
  const toml::array* arr = n->as_array();
  if (!arr) s.fail(key, "must be a list of strings");
  for (const toml::node& item : *arr) {
    if (!item.is_string()) s.fail(key, "must be a list of strings");
    out.push_back(item.value<std::string>().value());
  }
  return out;
}

// Does the path exist in `j` (a value of any kind, null included)?
bool has_path(const nlohmann::ordered_json& j, const std::string& dotted) {
  const nlohmann::ordered_json* node = &j;
  std::size_t pos = 0;
  while (true) {
    const std::size_t dot = dotted.find('.', pos);
    const std::string part = dotted.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    if (!node->is_object() || !node->contains(part)) return false;
    node = &(*node)[part];
    if (dot == std::string::npos) return !node->is_object() && !node->is_array();
    pos = dot + 1;
  }
}

// "steps.K.rest" -> (K-1, rest); else (current, metric).
std::pair<std::size_t, std::string> split_step(const std::string& metric, std::size_t current) {
  if (metric.rfind("steps.", 0) != 0) return {current, metric};
  const std::size_t dot = metric.find('.', 6);
  const std::string k = metric.substr(6, dot == std::string::npos ? std::string::npos : dot - 6);
  if (k.empty() || k.size() > 3 || !std::all_of(k.begin(), k.end(), [](unsigned char c) { return std::isdigit(c); }))
    return {SIZE_MAX, metric};
  const std::size_t step = static_cast<std::size_t>(std::stoi(k));
  if (step == 0 || dot == std::string::npos) return {SIZE_MAX, metric};
  return {step - 1, metric.substr(dot + 1)};
}

// An expression as a message shows it: whole when short; else at most 120
// bytes about byte `at` (where the reading stopped), with the position and
// the length (a refused expression of 400 KB, parentheses 200,000 deep, was
// echoed whole: probe 5). Reading that stopped at the end of the text (an
// operand missing after a last " +") is said so: there is no character
// there to count ("at character 128 of 127" was said).
std::string excerpt(const std::string& text, std::size_t at = 0) {
  constexpr std::size_t kShown = 120;
  if (text.size() <= kShown) return "'" + text + "'";
  at = std::min(at, text.size());
  const std::size_t from = std::min(at > kShown / 2 ? at - kShown / 2 : 0, text.size() - kShown);
  const std::string where = at < text.size() ? fmt::format("at character {} of {}", at + 1, text.size())
                                             : fmt::format("at its end, after character {}", text.size());
  return fmt::format("'{}{}{}' ({})", from > 0 ? "..." : "", text.substr(from, kShown),
                     from + kShown < text.size() ? "..." : "", where);
}

// A placeholder's text in its braces, cut as excerpt() cuts (the message
// goes on with the excerpt about where the reading stopped).
std::string braced(const std::string& inside) {
  constexpr std::size_t kShown = 120;
  return inside.size() <= kShown ? "{" + inside + "}" : fmt::format("{{{}...}} ({} characters)", inside.substr(0, kShown), inside.size());
}

// An expression (lesson.h, "Expressions"): figures and numbers joined by
// " + ", " - ", " * " and " / ", with parentheses; a lone metric is an
// expression too. The parser evaluates as it reads, asking `operand` for each
// figure's value, so one pass both checks (at load, with stand-in values)
// and computes (over the runs).
class ExpressionParser {
 public:
  // A figure's value; empty, with *why set, when it has none.
  using Operand = std::function<std::optional<double>(const std::string&, std::string*)>;

  // `checking`: only the syntax and the names matter (stand-in values; no
  // division is refused).
  ExpressionParser(const std::string& text, Operand operand, std::string* why, bool checking = false)
      : text_(text), operand_(std::move(operand)), why_(why), checking_(checking) {
    ok_ = tokenize();
  }

  std::optional<double> value() {
    if (!ok_) return syntax(bad_at_);
    const std::optional<double> v = sum();
    if (!v) return v;
    if (next_ != tokens_.size()) return syntax(starts_[next_]);
    return v;
  }

 private:
  // Tokens are separated by one space; parentheses may touch their operand.
  // Each token's first byte goes to starts_, for messages.
  bool tokenize() {
    std::size_t pos = 0;
    while (pos <= text_.size()) {
      const std::size_t space = std::min(text_.find(' ', pos), text_.size());
      std::string word = text_.substr(pos, space - pos);
      if (word.empty()) {
        bad_at_ = pos;
        return false;
      }
      std::size_t open = 0;
      while (open < word.size() && word[open] == '(') add("(", pos + open), ++open;
      std::size_t close = 0;
      while (close < word.size() - open && word[word.size() - 1 - close] == ')') ++close;
      if (open + close < word.size()) add(word.substr(open, word.size() - open - close), pos + open);
      for (std::size_t i = 0; i < close; ++i) add(")", space - close + i);
      pos = space + 1;
    }
    return true;
  }

  void add(std::string token, std::size_t start) {
    tokens_.push_back(std::move(token));
    starts_.push_back(start);
  }

  // Where the token before next_ starts (the one just read), for messages.
  std::size_t last_at() const { return next_ > 0 ? starts_[next_ - 1] : 0; }

  std::optional<double> syntax(std::size_t at) {
    *why_ = excerpt(text_, at) + ": an expression is figures and numbers joined by ' + ', ' - ', ' * ' or ' / ' (one "
            "space each side), with parentheses";
    return std::nullopt;
  }

  // A sum, product or quotient beyond a double (1e308 * 10) is infinite:
  // refused as a division by zero is, never shown as "inf" nor compared
  // with a claim's range (probe 5).
  std::optional<double> finite(double v) {
    if (std::isfinite(v)) return v;
    *why_ = excerpt(text_, last_at()) + ": the value is beyond a double's range (not a finite number)";
    return std::nullopt;
  }

  bool at(const char* token) const { return next_ < tokens_.size() && tokens_[next_] == token; }

  std::optional<double> sum() {
    std::optional<double> v = product();
    while (v && (at("+") || at("-"))) {
      const bool plus = tokens_[next_++] == "+";
      const std::optional<double> w = product();
      if (!w) return w;
      v = finite(plus ? *v + *w : *v - *w);
    }
    return v;
  }

  std::optional<double> product() {
    std::optional<double> v = factor();
    while (v && (at("*") || at("/"))) {
      const bool times = tokens_[next_++] == "*";
      const std::size_t from = next_;
      const std::optional<double> w = factor();
      if (!w) return w;
      if (!times && *w == 0 && !checking_) {
        std::string divisor;
        for (std::size_t i = from; i < next_; ++i) divisor += (i > from && tokens_[i] != ")" && tokens_[i - 1] != "(" ? " " : "") + tokens_[i];
        *why_ = "the ratio's base '" + divisor + "' is 0";
        return std::nullopt;
      }
      v = finite(times ? *v * *w : (*w == 0 ? 0 : *v / *w));
    }
    return v;
  }

  std::optional<double> factor() {
    if (next_ >= tokens_.size()) return syntax(text_.size());
    const std::string& token = tokens_[next_++];
    if (token == "(") {
      if (++depth_ > kMaxDepth) return syntax(last_at());  // bounded recursion, whatever the file holds
      const std::optional<double> v = sum();
      if (!v) return v;
      if (!at(")")) return syntax(next_ < tokens_.size() ? starts_[next_] : text_.size());
      ++next_;
      --depth_;
      return v;
    }
    if (token == ")" || token == "+" || token == "-" || token == "*" || token == "/") return syntax(last_at());
    if (std::isdigit(static_cast<unsigned char>(token[0])) || token[0] == '.') {
      // Decimal and finite, read as every other number clerk reads
      // (common/number_text.h): no hex (strtod took 0x10), no 1e999.
      const std::optional<double> v = common::number_text<double>(token);
      if (!v || !std::isfinite(*v)) return syntax(last_at());
      return v;
    }
    return operand_(token, why_);
  }

  std::string text_;
  Operand operand_;
  std::string* why_;
  bool checking_;
  static constexpr int kMaxDepth = 16;  // parentheses nested deeper are refused
  int depth_ = 0;
  std::vector<std::string> tokens_;
  std::vector<std::size_t> starts_;  // each token's first byte in text_
  std::size_t next_ = 0;
  std::size_t bad_at_ = 0;  // where tokenize() stopped
  bool ok_ = false;
};

// A metric's value in the runs, read at step `current` unless it says steps.K
// (with `ignore_steps`, always at `current`: a relative_to base reads every
// figure of the expression at the base step).
std::optional<double> figure_at(const LessonRuns& runs, std::size_t current, const std::string& metric,
                                bool ignore_steps) {
  auto [step, path] = split_step(metric, current);
  if (ignore_steps) step = current;
  if (step >= runs.runs.size() || !runs.runs[step]) return std::nullopt;
  return json_metric(*runs.runs[step], path);
}

// The value of `text` over the runs; empty with *why naming the figure that
// is null, the divisor that is 0, or the expression that does not parse.
std::optional<double> expression_value(const LessonRuns& runs, std::size_t current, const std::string& text,
                                       bool ignore_steps, std::string* why) {
  ExpressionParser parser(
      text,
      [&](const std::string& metric, std::string* w) {
        const std::optional<double> v = figure_at(runs, current, metric, ignore_steps);
        if (!v) *w = "the run has no figure " + excerpt(metric) + " (null)";
        return v;
      },
      why);
  return parser.value();
}

// What a step runs: its scenario file and its changes, in order. Runs are
// deterministic, so two steps with the same are the same run.
struct RunIdentity {
  std::string scenario;
  std::vector<std::string> overrides;
};

// The same file by any path or link (fs::equivalent: the same device and
// inode, as the scenario's own [[expect]] relative_to check resolves it),
// not by the path's text: s.toml and a link to it are one scenario (probe 5).
bool same_scenario_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  const bool same = std::filesystem::equivalent(a, b, ec);
  return ec ? a == b : same;  // both were found regular files when the steps were read
}

bool same_run(const RunIdentity& a, const RunIdentity& b) {
  return a.overrides == b.overrides && same_scenario_file(a.scenario, b.scenario);
}

// "step K" (K before `current`, 1-based in the text) -> "K". `runs`: each
// step's RunIdentity, up to and with the current one. A step that runs
// what this one runs is refused: a figure relative to its own is 1 whatever
// the run does, so the claim could never fail (probe 5).
std::string step_reference(const std::string& value, const std::string& file, int line, const std::string& key,
                           std::size_t current, const std::vector<RunIdentity>& runs) {
  const std::size_t before = current;  // steps 1..current are before the (0-based) current one
  if (value.rfind("step ", 0) == 0) {
    const std::string k = value.substr(5);
    if (!k.empty() && k.size() <= 3 && std::all_of(k.begin(), k.end(), [](unsigned char c) { return std::isdigit(c); })) {
      const int n = std::stoi(k);
      const auto base = static_cast<std::size_t>(n - 1);
      if (n >= 1 && base < before && base < runs.size() && current < runs.size() &&
          same_run(runs[base], runs[current]))
        throw ConfigError(file, line, key,
                          fmt::format("step {} runs the same scenario with the same changes as this step, so the "
                                      "ratio is 1 whatever the run does: name a step that differs", n));
      if (n >= 1 && static_cast<std::size_t>(n) <= before) return k;
    }
  }
  throw ConfigError(file, line, key,
                    before == 0 ? "the first step has no step before it to be relative to (got \"" + value + "\")"
                                : fmt::format("must name an earlier step, \"step 1\" to \"step {}\" (got \"{}\")",
                                              before, value));
}

class StepReader {
 public:
  // loaded[k], runs[k]: step k's scenario as loaded and what it runs.
  StepReader(const LayeredToml& doc, const std::vector<Scenario>& loaded, const std::vector<RunIdentity>& runs)
      : doc_(doc), loaded_(loaded), runs_(runs) {}

  // Why `metric` names no figure of a run of the lesson's steps up to `current`; empty when it does.
  std::string metric_problem(const std::string& text, std::size_t current) const {
    std::string why;
    ExpressionParser parser(
        text,
        [&](const std::string& metric, std::string* w) -> std::optional<double> {
          *w = figure_problem(metric, current);
          if (!w->empty()) return std::nullopt;
          return 1.0;  // a stand-in: the names are checked here, the values by the runs
        },
        &why, true);
    return parser.value() ? "" : why;
  }

  std::string figure_problem(const std::string& metric, std::size_t current) const {
    const auto [step, path] = split_step(metric, current);
    if (step == SIZE_MAX) return excerpt(metric) + ": steps.K must name a step by its number";
    if (step > current) return fmt::format("{}: step {} runs after this one", excerpt(metric), step + 1);
    if (!has_path(skeleton(step), path))
      return excerpt(path) + " is no figure of the run's JSON (the keys `clerk run --json` writes; README, \"Output\")";
    return "";
  }

  void check_metric(Section& s, const std::string& key, const std::string& metric, std::size_t current,
                    const std::string& file = "", int line = 0) const {
    const std::string why = metric_problem(metric, current);
    if (why.empty()) return;
    if (!file.empty()) throw ConfigError(file, line, key, why);
    s.fail(key, why);
  }

  void check_expectations(Section& s, const std::vector<Expectation>& list, std::size_t current) const {
    for (const Expectation& e : list) check_metric(s, s.dotted("expect.metric"), e.metric, current, e.file, e.line);
  }

  // One condition table (a choice, a number, a goal): metric, min, max, relative_to.
  Expectation condition(Section& s, std::size_t current, bool needs_range) const {
    Expectation e;
    e.metric = s.string("metric", "", true);
    check_metric(s, "metric", e.metric, current);
    e.min = s.number("min", -INFINITY, -INFINITY, INFINITY);
    e.max = s.number("max", INFINITY, -INFINITY, INFINITY);
    for (const char* k : {"min", "max"})
      if (s.has(k)) check_expect_bound(k[1] == 'i' ? e.min : e.max, s.origin(k).file, s.origin(k).line, s.dotted(k));
    if (s.has("relative_to")) {
      const KeyOrigin at = s.origin("relative_to");
      e.relative_to = step_reference(s.string("relative_to", ""), at.file, at.line, s.dotted("relative_to"), current, runs_);
    }
    if (needs_range && std::isinf(e.min) && std::isinf(e.max)) s.fail("metric", "needs min, max or both beside it");
    if (e.min > e.max) s.fail("min", "is above max");
    const KeyOrigin at = s.origin("metric");
    e.file = at.file;
    e.line = at.line;
    return e;
  }

  LessonPredict predict(Section& s, std::size_t current) const {
    LessonPredict p;
    p.question = s.string("question", "", true);
    const toml::node* choices = s.value("choice");
    if (choices) {
      const toml::array* arr = choices->as_array();
      if (!arr || arr->size() < 2) s.fail("choice", "must be two or more [[...predict.choice]] tables");
      for (std::size_t i = 0; i < arr->size(); ++i) {
        // toml++ keeps an array's tables; LayeredToml indexes tables by
        // dotted path, so each is read through its own document view.
        const toml::table* t = (*arr)[i].as_table();
        if (!t) s.fail("choice", "each entry must be a table");
        LessonChoice c;
        c.text = read_choice(*t, doc_.file_of(&(*arr)[i]), s.dotted("choice"), current, c.when);
        p.choices.push_back(c);
      }
      for (const char* k : {"metric", "scale", "unit", "slider", "tolerance"})
        if (s.has(k)) s.fail(k, "is for a number prediction; this one has choices");
      s.done();
      return p;
    }
    p.number = condition(s, current, false);
    p.scale = s.number("scale", 1, 1e-12, 1e12);
    p.unit = s.string("unit", "");
    p.tolerance = s.number("tolerance", 0.5, 0.01, 10);
    const toml::node* slider = s.value("slider");
    const toml::array* range = slider ? slider->as_array() : nullptr;
    if (!range || range->size() != 2 || !(*range)[0].is_number() || !(*range)[1].is_number())
      s.fail("slider", "is required for a number prediction: [lowest, highest] in its unit");
    p.slider_min = (*range)[0].value<double>().value();
    p.slider_max = (*range)[1].value<double>().value();
    if (!(p.slider_min < p.slider_max)) s.fail("slider", "must rise: [lowest, highest]");
    s.done();
    return p;
  }

 private:
  std::string read_choice(const toml::table& t, const std::string& file, const std::string& where, std::size_t current,
                          Expectation& when) const {
    static const std::vector<std::string> known = {"text", "metric", "min", "max", "relative_to"};
    std::string text;
    for (auto&& [k, v] : t) {
      const std::string key(k.str());
      const int line = LayeredToml::line_of(&v);
      const std::string dotted = where + "." + key;
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        std::string hint;
        for (const auto& c : known)
          if (edit_distance(key, c) <= 2) hint = " (did you mean '" + c + "'?)";
        throw ConfigError(file, line, dotted, "unknown key" + hint + "; a choice takes text, metric, min, max, relative_to");
      }
      if (key == "min" || key == "max") {
        if (!v.is_number()) throw ConfigError(file, line, dotted, "must be a number");
        check_expect_bound(v.value<double>().value(), file, line, dotted);
        (key == "min" ? when.min : when.max) = v.value<double>().value();
        continue;
      }
      if (!v.is_string()) throw ConfigError(file, line, dotted, "must be a string");
      const std::string s = v.value<std::string>().value();
      if (key == "text") text = s;
      else if (key == "metric") when.metric = s;
      else when.relative_to = step_reference(s, file, line, dotted, current, runs_);
    }
    const int line = LayeredToml::line_of(&t);
    if (text.empty()) throw ConfigError(file, line, where + ".text", "is required");
    if (when.metric.empty()) throw ConfigError(file, line, where + ".metric", "is required: the run's figure that makes this choice the answer");
    if (std::isinf(when.min) && std::isinf(when.max)) throw ConfigError(file, line, where, "needs min, max or both");
    if (when.min > when.max) throw ConfigError(file, line, where + ".min", "is above max");
    when.file = file;
    when.line = line;
    const std::string why = metric_problem(when.metric, current);
    if (!why.empty()) throw ConfigError(file, line, where + ".metric", why);
    return text;
  }

  // Step k's json_skeleton, built on its first use and kept: a lesson's
  // metrics, choices and {placeholders} name the same few steps again and
  // again, and each skeleton is a RunResult (histograms of 2,400 bins per
  // client group) turned into JSON, most of a long lesson's load time
  // (fuzz_lesson's profile: half of it under ASan, a skeleton per metric).
  // loaded_[k] never changes once pushed, and json_skeleton depends on the
  // scenario alone, so the kept one is the one a new call would build. A map,
  // so that a reference stays valid as later steps are added.
  const nlohmann::ordered_json& skeleton(std::size_t step) const {
    auto it = skeletons_.find(step);
    if (it == skeletons_.end()) it = skeletons_.emplace(step, json_skeleton(loaded_[step])).first;
    return it->second;
  }

  const LayeredToml& doc_;
  const std::vector<Scenario>& loaded_;
  const std::vector<RunIdentity>& runs_;
  mutable std::map<std::size_t, nlohmann::ordered_json> skeletons_;
};

// Every {placeholder} of `text` names a figure; `at` the key holding the text.
void check_placeholders(Section& s, const std::string& key, const std::string& text, const StepReader& reader,
                        std::size_t current) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{' && i + 1 < text.size() && text[i + 1] == '{') { ++i; continue; }
    if (text[i] == '}' && i + 1 < text.size() && text[i + 1] == '}') { ++i; continue; }
    if (text[i] == '}') s.fail(key, "a '}' closes no placeholder (write '}}' for a brace)");
    if (text[i] != '{') continue;
    const std::size_t close = text.find('}', i);
    if (close == std::string::npos) s.fail(key, "a '{' opens a placeholder that is never closed (write '{{' for a brace)");
    std::string inside = text.substr(i + 1, close - i - 1);
    const std::size_t bar = inside.find('|');
    if (bar != std::string::npos) {
      const std::string format = inside.substr(bar + 1);
      if (format != "ms" && format != "s" && format != "%" && format != "int" && format != "x")
        s.fail(key, "placeholder " + braced(inside) + ": format " + excerpt(format) + " is not one of ms, s, %, int, x");
      inside = inside.substr(0, bar);
    }
    const std::string why = reader.metric_problem(inside, current);
    if (!why.empty()) s.fail(key, "placeholder " + braced(inside) + ": " + why);
    i = close;
  }
}

std::string observe_kind(const std::string& id) {
  const std::size_t dot = id.find('.');
  return dot == std::string::npos ? id : id.substr(0, dot);
}

void check_highlight(Section& s, const std::string& id, const Scenario& sc, const StepReader& reader,
                     std::size_t current) {
  const std::string kind = observe_kind(id);
  const std::vector<std::string>& kinds = observe_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    s.fail("highlight", "'" + id + "': not one of " + section_text::quoted_list(kinds));
  const std::string rest = id.size() > kind.size() ? id.substr(kind.size() + 1) : "";
  if (kind == "clerk" || kind == "team" || kind == "queue") {
    char* end = nullptr;
    const long n = rest.empty() ? -1 : std::strtol(rest.c_str(), &end, 10);
    if (n < 0 || *end != '\0' || n >= static_cast<long>(sc.nginx.worker_processes))
      s.fail("highlight", fmt::format("'{}': {}.N needs a worker, 0 to {}", id, kind, sc.nginx.worker_processes - 1));
    if (kind == "team" && !sc.nginx.aio->thread_pool)
      s.fail("highlight", "'" + id + "': this step runs no thread pool (its nginx.aio mode has none)");
  } else if (kind == "series") {
    const bool known = std::any_of(sc.clients.begin(), sc.clients.end(), [&](const WrkGroupSpec& g) { return g.name == rest; });
    if (!known) s.fail("highlight", "'" + id + "': no client group '" + rest + "' in this step's scenario");
  } else if (kind == "figure") {
    if (rest.find(' ') != std::string::npos) s.fail("highlight", "'" + id + "': figure.METRIC names one figure, not an expression");
    reader.check_metric(s, "highlight", rest, current);
  } else if (!rest.empty()) {
    s.fail("highlight", "'" + id + "': " + kind + " takes no name");
  }
}

LessonObserve read_observe(Section& s, const Scenario& sc, const StepReader& reader, std::size_t current) {
  LessonObserve o;
  o.text = s.string("text", "", true);
  o.line = s.origin("text").line;
  if (s.has("at")) o.at_s = s.duration("at", 0, 0, false, sc.duration_s);
  o.highlight = string_list(s, "highlight");
  for (const std::string& id : o.highlight) check_highlight(s, id, sc, reader, current);
  o.replay = s.string("replay", "");
  if (!o.replay.empty() && o.replay != "p50" && o.replay != "p99" && o.replay != "max")
    s.fail("replay", "'" + o.replay + "': not one of \"p50\", \"p99\", \"max\" (the request followed)");
  o.replay_group = s.string("replay_group", "");
  if (!o.replay_group.empty()) {
    if (o.replay.empty()) s.fail("replay_group", "needs replay (the request of that group to follow)");
    const bool known = std::any_of(sc.clients.begin(), sc.clients.end(), [&](const auto& g) { return g.name == o.replay_group; });
    if (!known) s.fail("replay_group", "'" + o.replay_group + "': no client group of that name in this step's scenario");
  }
  check_placeholders(s, "text", o.text, reader, current);
  s.done();
  return o;
}

LessonExercise read_exercise(Section& s, const LessonStep& step, const StepReader& reader, std::size_t current) {
  LessonExercise x;
  x.task = s.string("task", "", true);
  x.keys = string_list(s, "keys");
  if (x.keys.empty()) s.fail("keys", "is required: the keys the student may change");
  x.solution = s.string("solution", "", true);
  const std::size_t eq = x.solution.find('=');
  if (eq == std::string::npos || std::find(x.keys.begin(), x.keys.end(), x.solution.substr(0, eq)) == x.keys.end())
    s.fail("solution", "must be KEY=VALUE with KEY one of keys");
  Section goal = s.sub("goal");
  x.goal = reader.condition(goal, current, true);
  x.goal_scale = goal.number("scale", 1, 1e-12, 1e12);
  x.goal_unit = goal.string("unit", "");
  if (!x.goal.relative_to.empty()) goal.fail("relative_to", "a goal is a bound on the changed run's own figure");
  // The goal is evaluated on the changed run alone, so steps.K would read it, not step K's run.
  if (x.goal.metric.rfind("steps.", 0) == 0)
    goal.fail("metric", "'" + x.goal.metric + "': a goal is a bound on the changed run's own figure, not step K's");
  goal.done();
  // The solution must load (its run is checked by `clerk lesson --check`).
  std::vector<std::string> with = step.overrides;
  with.push_back(x.solution);
  try {
    const Scenario solved = load_scenario(step.scenario, with);
    check_fits_machine(solved, solved.duration_s, solved.file);
  } catch (const ConfigError& e) {
    s.fail("solution", std::string("does not load: ") + e.what());
  }
  const KeyOrigin at = s.origin("task");
  x.file = at.file;
  x.line = at.line;
  s.done();
  return x;
}

}  // namespace

const std::vector<std::string>& observe_kinds() {
  static const std::vector<std::string> kinds = {"clerk", "team", "queue", "shelves", "warehouse", "door", "dock",
                                                 "series", "figure"};
  return kinds;
}

std::string highlight_words(const std::string& id) {
  const std::string kind = observe_kind(id);
  const std::string rest = id.size() > kind.size() ? id.substr(kind.size() + 1) : "";
  if (kind == "clerk") return "clerk " + rest + " (worker " + rest + ")";
  if (kind == "team") return "clerk " + rest + "'s delivery team (thread pool)";
  if (kind == "queue") return "clerk " + rest + "'s queue (connections waiting on worker " + rest + ")";
  if (kind == "shelves") return "the shelves (page cache)";
  if (kind == "warehouse") return "the warehouse (disk)";
  if (kind == "door") return "the door (listen queue)";
  if (kind == "dock") return "the loading dock (network card)";
  if (kind == "series") return "the chart of the " + rest + " customers (client group " + rest + ")";
  if (kind == "figure") return "the figure " + rest;
  return id;
}

Lesson load_lesson(const std::string& path) {
  Lesson lesson;
  lesson.file = path;
  lesson.number = lesson_number(path, &lesson.name);
  if (lesson.number == 0)
    throw ConfigError(path, 0, "", "a lesson file is named N-name.toml (N its number, like 1-blocked-clerk.toml)");
  LayeredToml doc(path);
  Section root(doc, "");
  if (root.has("include")) root.fail("include", "a lesson includes no file: its steps name scenarios");
  lesson.title = root.string("title", "", true);
  lesson.summary = root.string("summary", "", true);
  const std::vector<std::string> common = string_list(root, "set");
  Section steps = root.sub("step");
  const std::vector<std::string> numbers = doc.children("step");
  if (numbers.empty()) root.fail("step", "is required: a lesson has steps, [step.1], [step.2], ...");
  std::vector<Scenario> loaded;
  std::vector<RunIdentity> runs;
  StepReader reader(doc, loaded, runs);
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    if (numbers[i] != std::to_string(i + 1))
      steps.fail(numbers[i], fmt::format("steps are numbered from 1 in order: expected [step.{}]", i + 1));
    Section s = steps.sub(numbers[i]);
    LessonStep step;
    const KeyOrigin at = s.origin("title");
    step.file = at.file;
    step.line = at.line;
    step.title = s.string("title", "", true);
    if (s.has("scenario")) {
      const KeyOrigin sat = s.origin("scenario");
      const fs::path target = fs::path(sat.file).parent_path() / s.string("scenario", "");
      std::error_code ec;
      if (!fs::is_regular_file(target, ec)) s.fail("scenario", "no scenario file '" + target.string() + "'");
      step.scenario = target.lexically_normal().string();
      step.overrides = common;
    } else if (i == 0) {
      s.fail("scenario", "is required in the first step");
    } else {
      step.scenario = lesson.steps.back().scenario;
      step.overrides = lesson.steps.back().overrides;
    }
    for (const std::string& o : string_list(s, "set")) step.overrides.push_back(o);
    try {
      step.loaded = load_scenario(step.scenario, step.overrides);
      check_fits_machine(step.loaded, step.loaded.duration_s, step.loaded.file);  // before any step runs
    } catch (const ConfigError& e) {
      const std::string why = std::string("the step's scenario does not load: ") + e.what();
      if (s.has("set")) s.fail("set", why);
      if (!common.empty() && s.has("scenario")) root.fail("set", why);
      s.fail("scenario", why);
    }
    loaded.push_back(step.loaded);
    runs.push_back({step.scenario, step.overrides});
    step.setup = s.string("setup", "", true);
    if (s.has("predict")) {
      Section p = s.sub("predict");
      step.predict = reader.predict(p, i);
    }
    Section o = s.sub("observe");
    if (s.has("observe")) step.observe = read_observe(o, step.loaded, reader, i);
    step.explain = s.string("explain", "", true);
    step.explain_line = s.origin("explain").line;
    check_placeholders(s, "explain", step.explain, reader, i);
    step.teacher = s.string("teacher", "");
    step.expect = read_expectations(s, doc,
                                    [&](const std::string& v, const std::string& file, int line) {
                                      return step_reference(v, file, line, s.dotted("expect.relative_to"), i, runs);
                                    },
                                    false);
    reader.check_expectations(s, step.expect, i);
    if (step.expect.empty())
      s.fail("expect", "every step checks its claims: give it at least one [[step." + numbers[i] + ".expect]]");
    if (s.has("exercise")) {
      Section x = s.sub("exercise");
      step.exercise = read_exercise(x, step, reader, i);
    }
    s.done();
    lesson.steps.push_back(std::move(step));
  }
  steps.done();
  root.done();
  return lesson;
}

std::vector<std::string> lesson_files(const std::string& dir) {
  std::vector<std::pair<int, std::string>> found;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (lesson_number(it->path()) <= 0) continue;
    // The non-throwing form: a lesson name that is a link in a loop is
    // refused naming it (exit 2), not a filesystem_error (exit 3).
    std::error_code kind;
    const bool regular = it->is_regular_file(kind);
    // A dangling link (an editor's lock file, .#name.toml) is skipped, as before.
    if (kind && kind != std::errc::no_such_file_or_directory)
      throw ConfigError(it->path().string(), 0, "", "cannot be read: " + kind.message());
    if (regular) found.emplace_back(lesson_number(it->path()), it->path().string());
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (const auto& f : found) out.push_back(f.second);
  return out;
}

std::string find_lesson(const std::string& dir, int number) {
  std::string found;
  for (const std::string& f : lesson_files(dir)) {
    if (lesson_number(f) != number) continue;
    if (!found.empty())
      throw ConfigError(f, 0, "", fmt::format("is lesson {} too, as {} is: which one is meant? (rename one)", number, found));
    found = f;
  }
  return found;
}

std::optional<double> lesson_metric(const LessonRuns& runs, const Expectation& e) {
  std::string why;
  const std::optional<double> v = expression_value(runs, runs.current, e.metric, false, &why);
  if (!v || e.relative_to.empty()) return v;
  const std::size_t base_step = static_cast<std::size_t>(std::stoi(e.relative_to)) - 1;
  const std::optional<double> base = expression_value(runs, base_step, e.metric, true, &why);
  if (!base || *base == 0) return std::nullopt;
  return *v / *base;
}

bool holds(const LessonRuns& runs, const Expectation& e) {
  const std::optional<double> v = lesson_metric(runs, e);
  return v && *v >= e.min && *v <= e.max;
}

std::optional<std::size_t> answer_choice(const LessonRuns& runs, const LessonPredict& p) {
  std::optional<std::size_t> answer;
  for (std::size_t i = 0; i < p.choices.size(); ++i) {
    if (!holds(runs, p.choices[i].when)) continue;
    if (answer) return std::nullopt;
    answer = i;
  }
  return answer;
}

bool guess_is_right(double guess, double actual_scaled, double tolerance) {
  if (actual_scaled == 0) return std::fabs(guess) <= tolerance;
  return std::fabs(guess / actual_scaled - 1) <= tolerance;
}

namespace {
// Whole percents from 10% up, two significant digits below; a share short
// of all (or of none) never reads as 100% (or 0%): it gets the decimals
// that keep it apart, so a worker busy 99.6% of the time is not shown as
// always busy.
std::string percent_text(double p) {
  if (std::fabs(p) < 10) return fmt::format("{:.2g}%", p);
  if (std::fabs(p) == 100 || std::fabs(std::round(p)) != 100) return fmt::format("{:.0f}%", p);
  for (int decimals = 1; decimals <= 3; ++decimals) {
    const double scale = std::pow(10.0, decimals);
    if (std::fabs(std::round(p * scale)) != 100 * scale) return fmt::format("{:.{}f}%", p, decimals);
  }
  return fmt::format("{:.3f}%", std::trunc(p * 1000) / 1000);  // closer still: cut, never rounded up to all
}
}  // namespace

std::string format_figure(double v, const std::string& format) {
  if (std::isnan(v)) return "n/a";
  if (format == "ms") {
    const double ms = v * 1000;
    return (std::fabs(ms) >= 100 ? fmt::format("{:.0f}", ms) : fmt::format("{:.3g}", ms)) + " ms";
  }
  if (format == "s") return (std::fabs(v) >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.3g}", v)) + " s";
  if (format == "%") return percent_text(v * 100);
  if (format == "x") return fmt::format("{:.2g} times", v);
  if (format == "int") {
    std::string digits = fmt::format("{:.0f}", std::fabs(v));
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
    return (v < 0 && digits != "0" ? "-" : "") + digits;
  }
  if (std::fabs(v) >= 1000) return format_figure(v, "int");
  return fmt::format("{:.3g}", v);
}

std::string plain_number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{:.4g}", v);
}

std::string range_text(const Expectation& e) {
  if (std::isinf(e.min)) return "at most " + plain_number(e.max);
  if (std::isinf(e.max)) return "at least " + plain_number(e.min);
  return "between " + plain_number(e.min) + " and " + plain_number(e.max);
}

namespace {

std::string metric_label(const Expectation& e) {
  return e.relative_to.empty() ? e.metric : e.metric + " / step " + e.relative_to + "'s";
}

std::string claim_line(const LessonRuns& runs, const Expectation& e, bool& ok) {
  const std::optional<double> v = lesson_metric(runs, e);
  ok = v && *v >= e.min && *v <= e.max;
  // The claim in words first; the figure, the range and the metric's key after it.
  if (e.note.empty())
    return fmt::format("{}  {} = {} ({})", ok ? "ok  " : "FAIL", metric_label(e), v ? plain_number(*v) : "missing",
                       range_text(e));
  return fmt::format("{}  {}: the run gives {} ({})  [{}]", ok ? "ok  " : "FAIL", e.note, v ? plain_number(*v) : "missing",
                     range_text(e), metric_label(e));
}

// `text` with its placeholders filled; a figure the run left null, or a
// ratio over 0, is a failed claim naming the text's file, line and key
// (load_lesson checked the names, only the run can tell the values).
std::string fill_or_fail(const std::string& text, const LessonRuns& runs, const std::string& file, int line,
                         const std::string& key, LessonOutcome& out) {
  try {
    return fill_placeholders(text, runs);
  } catch (const std::out_of_range& e) {
    ++out.failed;
    out.claims.push_back(fmt::format("FAIL  {}:{}: key '{}': {}", file, line, key, e.what()));
    return text;
  }
}

}  // namespace

LessonOutcome evaluate_step(const LessonStep& step, const LessonRuns& runs) {
  LessonOutcome out;
  const std::size_t index = runs.current;
  if (step.predict.given()) {
    if (!step.predict.choices.empty()) {
      out.choice = answer_choice(runs, step.predict);
      if (!out.choice) {
        ++out.failed;
        out.claims.push_back(fmt::format("FAIL  the question's answer: {} of its choices hold for the run, not one",
                                         step.predict.choices.size()));
      }
    } else {
      const std::optional<double> v = lesson_metric(runs, step.predict.number);
      out.number = v ? *v * step.predict.scale : NAN;
    }
  }
  out.explain = fill_or_fail(step.explain, runs, step.file, step.explain_line, fmt::format("step.{}.explain", index + 1), out);
  out.observe = fill_or_fail(step.observe.text, runs, step.file, step.observe.line,
                             fmt::format("step.{}.observe.text", index + 1), out);
  for (const Expectation& e : step.expect) {
    bool ok = false;
    out.claims.push_back(claim_line(runs, e, ok));
    if (!ok) ++out.failed;
  }
  return out;
}

std::string predict_answer_text(const LessonStep& step, const LessonOutcome& o) {
  if (!step.predict.choices.empty())
    return o.choice ? fmt::format("{}) {}", *o.choice + 1, step.predict.choices[*o.choice].text) : "(no choice holds)";
  return fmt::format("{:.3g} {}", o.number, step.predict.unit);
}

LessonVerdict judge_prediction(const LessonStep& step, const LessonOutcome& o, const std::string& guess) {
  LessonVerdict v;
  if (guess.empty()) return v;
  const LessonPredict& p = step.predict;
  if (!p.choices.empty()) {
    // Read without exceptions (std::stoul, std::stod threw on 1e-400 or a
    // number past the type's range), as the other readers read numbers
    // (common/number_text.h): what cannot be read is no answer.
    const std::optional<std::size_t> n = common::number_text<std::size_t>(guess);
    if (!n) return v;
    v.right = o.choice && *n == *o.choice + 1;
    v.text = v.right ? "You predicted this. " : fmt::format("You predicted {}). Read on: the run explains why.", guess);
  } else {
    const std::optional<double> g = common::number_text<double>(guess);  // decimal only, as it was asked
    if (!g || !std::isfinite(*g)) return v;
    v.right = guess_is_right(*g, o.number, p.tolerance);
    v.text = fmt::format("You predicted {} {}: {}", guess, p.unit,
                         v.right ? "close enough." : "not close. Read on: the run explains why.");
  }
  return v;
}

std::string fill_placeholders(const std::string& text, const LessonRuns& runs) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool doubled = i + 1 < text.size() && text[i + 1] == text[i];
    if ((text[i] == '{' || text[i] == '}') && doubled) {
      out += text[i++];
      continue;
    }
    if (text[i] != '{') {
      out += text[i];
      continue;
    }
    const std::size_t close = text.find('}', i);
    std::string inside = text.substr(i + 1, close - i - 1);
    std::string format;
    const std::size_t bar = inside.find('|');
    if (bar != std::string::npos) {
      format = inside.substr(bar + 1);
      inside = inside.substr(0, bar);
    }
    // "{A / B}", "{A * B / C}", ...: an expression of figures.
    std::string why;
    const std::optional<double> v = expression_value(runs, runs.current, inside, false, &why);
    if (!v) throw std::out_of_range("placeholder " + braced(inside) + ": " + why);
    out += format_figure(*v, format);
    i = close;
  }
  return out;
}

}  // namespace models
