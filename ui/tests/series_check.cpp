// series_check UI.json CLI.json MIN: every series of run A in clerk-ui's
// --series file that names a counterpart in `clerk run --json` ("source")
// holds the same seconds, each within 1% of the CLI's (a second without
// responses, null, in both). Fails if fewer than MIN series were compared,
// so that a chart that lost its source cannot pass by comparing nothing.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using nlohmann::json;

json read(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "series_check: cannot read %s\n", path);
    std::exit(2);
  }
  return json::parse(in);
}

const json* at(const json& j, const std::string& dotted) {
  const json* node = &j;
  std::size_t pos = 0;
  while (true) {
    const std::size_t dot = dotted.find('.', pos);
    const std::string part = dotted.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    if (!node->is_object() || !node->contains(part)) return nullptr;
    node = &(*node)[part];
    if (dot == std::string::npos) return node;
    pos = dot + 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: series_check UI.json CLI.json MIN_SERIES\n");
    return 2;
  }
  const json ui = read(argv[1]), cli = read(argv[2]);
  const int min_series = std::atoi(argv[3]);
  int compared = 0, failures = 0;
  double worst = 0;
  for (const json& chart : ui.at("charts")) {
    for (const json& s : chart.at("series")) {
      const std::string source = s.at("source");
      if (s.at("session") != "A" || source.empty()) continue;
      const json* ref = at(cli, source);
      const json& mine = s.at("values");
      if (!ref || !ref->is_array()) {
        std::printf("FAIL %s: no array %s in the CLI's JSON\n", s.at("label").get<std::string>().c_str(), source.c_str());
        ++failures;
        continue;
      }
      ++compared;
      if (mine.size() != ref->size()) {
        std::printf("FAIL %s: %zu seconds, the CLI has %zu\n", source.c_str(), mine.size(), ref->size());
        ++failures;
        continue;
      }
      for (std::size_t i = 0; i < mine.size(); ++i) {
        const json &u = mine[i], &c = (*ref)[i];
        if (u.is_null() || c.is_null()) {
          if (u.is_null() != c.is_null()) {
            std::printf("FAIL %s second %zu: %s in the UI, %s in the CLI\n", source.c_str(), i, u.dump().c_str(), c.dump().c_str());
            ++failures;
          }
          continue;
        }
        const double x = u.get<double>(), y = c.get<double>();
        const double rel = std::fabs(x - y) / std::max(std::fabs(y), 1e-12);
        if (std::fabs(x - y) > 1e-12) worst = std::max(worst, rel);
        if (std::fabs(x - y) > 1e-12 && rel > 0.01) {
          std::printf("FAIL %s second %zu: %.9g in the UI, %.9g in the CLI (%.2f%%)\n", source.c_str(), i, x, y, rel * 100);
          ++failures;
        }
      }
    }
  }
  std::printf("series_check: %d series compared, largest difference %.3g%%, %d failures\n", compared, worst * 100, failures);
  if (compared < min_series) {
    std::printf("FAIL: fewer than %d series compared\n", min_series);
    return 1;
  }
  return failures ? 1 : 0;
}
