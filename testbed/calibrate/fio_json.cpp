#include "testbed/calibrate/fio_json.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

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
}  // namespace

std::vector<FioJob> parse_fio_json(const std::string& text) {
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
    f.queue_depth = qd.empty() ? 1 : static_cast<unsigned>(std::stoul(qd));
    const auto& r = j.at("read");
    f.iops = r.value("iops", 0.0);
    f.bandwidth_Bps = r.value("bw_bytes", 0.0);
    f.ios = r.value("total_ios", std::uint64_t{0});
    const auto& clat = r.at("clat_ns");
    f.clat_mean_s = clat.value("mean", 0.0) * 1e-9;
    f.clat_min_s = clat.value("min", 0.0) * 1e-9;
    f.clat_max_s = clat.value("max", 0.0) * 1e-9;
    if (clat.contains("percentile"))
      for (const auto& [k, v] : clat["percentile"].items()) f.clat_percentiles.emplace_back(std::stod(k), v.get<double>() * 1e-9);
    std::sort(f.clat_percentiles.begin(), f.clat_percentiles.end());
    jobs.push_back(std::move(f));
  }
  return jobs;
}

}  // namespace testbed::calibrate
