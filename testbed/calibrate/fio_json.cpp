#include "testbed/calibrate/fio_json.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "common/number_text.h"
#include "models/scenario/units.h"

namespace testbed::calibrate {

namespace {
// fio echoes options as given ("128k", "1m"); the job may also inherit them
// from "global options".
std::string option(const nlohmann::json& job, const nlohmann::json& global, const char* key) {
  if (job.contains("job options") && job["job options"].contains(key)) return job["job options"][key].get<std::string>();
  if (global.contains(key)) return global[key].get<std::string>();
  return {};
}

// A whole number or a decimal written as text ("32", "99.000000"), or an error naming it.
template <class T>
T number_in_text(const std::string& text, const char* what) {
  if (const auto v = common::number_text<T>(text)) return *v;
  throw std::runtime_error(std::string("fio JSON: ") + what + " is not a number: '" + text + "'");
}

// A figure fio prints as a number, 0 when absent; negative is not fio's.
double figure(const nlohmann::json& object, const char* key) {
  const double v = object.value(key, 0.0);
  if (!(v >= 0) || !std::isfinite(v)) throw std::runtime_error(std::string("fio JSON: ") + key + " is " + std::to_string(v));
  return v;
}

std::vector<FioJob> parse_unchecked(const std::string& text) {
  // fio may print notes before the document.
  const auto brace = text.find('{');
  if (brace == std::string::npos) throw std::runtime_error("fio output has no JSON document");
  const nlohmann::json doc = nlohmann::json::parse(text.begin() + static_cast<std::ptrdiff_t>(brace), text.end());
  if (!doc.contains("jobs")) throw std::runtime_error("fio JSON has no \"jobs\"");
  const nlohmann::json global = doc.value("global options", nlohmann::json::object());
  std::vector<FioJob> jobs;
  for (const auto& j : doc["jobs"]) {
    FioJob f;
    f.name = j.value("jobname", "");
    const std::string bs = option(j, global, "bs");
    if (!bs.empty() && !models::parse_size(bs, f.block_bytes)) throw std::runtime_error("fio job bs not understood: " + bs);
    const std::string qd = option(j, global, "iodepth");
    f.queue_depth = qd.empty() ? 1 : number_in_text<unsigned>(qd, "iodepth");
    const auto& r = j.at("read");
    f.iops = figure(r, "iops");
    f.bandwidth_Bps = figure(r, "bw_bytes");
    f.ios = r.value("total_ios", std::uint64_t{0});
    const auto& clat = r.at("clat_ns");
    f.clat_mean_s = figure(clat, "mean") * 1e-9;
    f.clat_min_s = figure(clat, "min") * 1e-9;
    f.clat_max_s = figure(clat, "max") * 1e-9;
    if (clat.contains("percentile"))
      for (const auto& [k, v] : clat["percentile"].items()) {
        const double percent = number_in_text<double>(k, "a percentile");
        if (!(percent >= 0 && percent <= 100)) throw std::runtime_error("fio JSON: percentile " + k + " is not 0 to 100");
        f.clat_percentiles.emplace_back(percent, figure(clat["percentile"], k.c_str()) * 1e-9);
      }
    std::sort(f.clat_percentiles.begin(), f.clat_percentiles.end());
    jobs.push_back(std::move(f));
  }
  return jobs;
}

}  // namespace

std::vector<FioJob> parse_fio_json(const std::string& text) {
  // nlohmann's parse and type errors are std::exception but not runtime_error:
  // say that it is fio's output that could not be read.
  try {
    return parse_unchecked(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("fio JSON not understood: ") + e.what());
  }
}

}  // namespace testbed::calibrate
