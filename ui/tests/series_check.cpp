// series_check UI.json CLI.json MIN: every series of run A in clerk-ui's
// --series file that names a counterpart in `clerk run --json` ("source")
// holds the same seconds, each within 1% of the CLI's (a second without
// responses, null, in both). Every latency heat map of run A holds the same
// columns as its source (clients.NAME.per_s.latency_bins): the same first
// bin, each count within 1%, and each column's counts sum to the CLI's
// requests that second. Fails if fewer than MIN series and heat maps were
// compared, so that a chart that lost its source cannot pass by comparing
// nothing.
#include <algorithm>
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

// The count of bin `bin` in a column {"first": k, "counts": [...]}.
double count_at(const json& column, std::size_t bin) {
  const std::size_t first = column.at("first").get<std::size_t>();
  const json& counts = column.at("counts");
  return bin >= first && bin - first < counts.size() ? counts[bin - first].get<double>() : 0.0;
}

double column_total(const json& column) {
  double n = 0;
  for (const json& c : column.at("counts")) n += c.get<double>();
  return n;
}

// One heat map against the CLI: returns the failures, widens `worst`.
int check_heatmap(const json& map, const json& cli, double& worst) {
  const std::string source = map.at("source");
  const json* ref = at(cli, source);
  const std::string requests_path = source.substr(0, source.rfind('.')) + ".requests";
  const json* requests = at(cli, requests_path);
  const json& mine = map.at("columns");
  if (!ref || !ref->is_array() || !requests || !requests->is_array()) {
    std::printf("FAIL heat map %s: no arrays %s and %s in the CLI's JSON\n", map.at("title").get<std::string>().c_str(),
                source.c_str(), requests_path.c_str());
    return 1;
  }
  if (mine.size() != ref->size() || mine.size() != requests->size()) {
    std::printf("FAIL %s: %zu seconds, the CLI has %zu\n", source.c_str(), mine.size(), ref->size());
    return 1;
  }
  int failures = 0;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const json &u = mine[i], &c = (*ref)[i];
    const std::size_t bins = std::max(u.at("first").get<std::size_t>() + u.at("counts").size(),
                                      c.at("first").get<std::size_t>() + c.at("counts").size());
    for (std::size_t k = 0; k < bins; ++k) {
      const double x = count_at(u, k), y = count_at(c, k);
      const double rel = std::fabs(x - y) / std::max(y, 1.0);
      worst = std::max(worst, rel);
      if (rel > 0.01) {
        std::printf("FAIL %s second %zu bin %zu: %g in the UI, %g in the CLI\n", source.c_str(), i, k, x, y);
        ++failures;
      }
    }
    // The invariant: a column counts every response completed that second.
    const double total = column_total(c), served = (*requests)[i].get<double>();
    if (total != served || column_total(u) != served) {
      std::printf("FAIL %s second %zu: the columns sum to %g (UI) and %g (CLI), %g requests completed\n", source.c_str(), i,
                  column_total(u), total, served);
      ++failures;
    }
  }
  return failures;
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
  for (const json& map : ui.value("heatmaps", json::array())) {
    if (map.at("session") != "A") continue;
    ++compared;
    failures += check_heatmap(map, cli, worst);
  }
  std::printf("series_check: %d series and heat maps compared, largest difference %.3g%%, %d failures\n", compared, worst * 100, failures);
  if (compared < min_series) {
    std::printf("FAIL: fewer than %d series compared\n", min_series);
    return 1;
  }
  return failures ? 1 : 0;
}
