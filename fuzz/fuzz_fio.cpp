// libFuzzer target: fio's JSON output as `clerk calibrate` reads it
// (testbed/calibrate/fio_json.h), seeded with real fio output.
//
// Contract on every input: parse_fio_json returns the jobs or throws a
// std::runtime_error that says what it could not read; anything else thrown
// (a std::invalid_argument from an unchecked number conversion, a JSON type
// error) is a finding. Every job it returns has its percentiles in ascending
// order of percent, each within [0, 100], and no negative time.
#include <cstdint>
#include <string>
#include <typeinfo>

#include <fmt/format.h>

#include "fuzz/contract.h"
#include "testbed/calibrate/fio_json.h"

namespace {

void check_job(const testbed::calibrate::FioJob& j) {
  double last = -1;
  for (const auto& [percent, seconds] : j.clat_percentiles) {
    if (!(percent >= 0 && percent <= 100)) fuzz::breach(fmt::format("job '{}': percentile {}", j.name, percent));
    if (percent < last) fuzz::breach(fmt::format("job '{}': percentiles out of order", j.name));
    if (seconds < 0) fuzz::breach(fmt::format("job '{}': negative latency at {}%", j.name, percent));
    last = percent;
  }
  if (j.clat_mean_s < 0 || j.clat_min_s < 0 || j.clat_max_s < 0 || j.iops < 0 || j.bandwidth_Bps < 0)
    fuzz::breach(fmt::format("job '{}': a negative figure", j.name));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    for (const auto& job : testbed::calibrate::parse_fio_json(text)) check_job(job);
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).empty()) fuzz::breach("an error with no message");
  } catch (const std::exception& e) {
    fuzz::breach(fmt::format("parse_fio_json threw {} (not a runtime_error): {}", typeid(e).name(), e.what()));
  }
  return 0;
}
