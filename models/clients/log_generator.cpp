#include "models/clients/log_generator.h"

#include <cmath>
#include <fmt/format.h>
#include <memory>
#include <numbers>

#include "models/clients/popularity.h"

namespace models {

namespace {
// The generator's own streams, apart from a run's (sim/random.h).
constexpr std::uint64_t kGenSizes = 1, kGenRanking = 2, kGenArrivals = 3, kGenPicks = 4, kGenClients = 5;

std::string file_path(std::uint32_t i) { return fmt::format("/g/{:03}/{:06}.dat", i / 100, i); }

double rate_at(const LogGenSpec& s, double t) {
  return s.rate * (1 + s.amplitude * std::sin(2 * std::numbers::pi * t / s.period_s));
}

// Civil date of a day count since 1970-01-01 (Howard Hinnant's civil_from_days).
void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2);
}
}  // namespace

std::string time_local_text(std::int64_t epoch_s) {
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::int64_t days = (epoch_s >= 0 ? epoch_s : epoch_s - 86399) / 86400;
  const std::int64_t secs = epoch_s - days * 86400;
  std::int64_t y = 0;
  unsigned m = 0, d = 0;
  civil_from_days(days, y, m, d);
  return fmt::format("{:02}/{}/{:04}:{:02}:{:02}:{:02} +0000", d, kMonths[m - 1], y, secs / 3600, secs / 60 % 60,
                     secs % 60);
}

std::vector<GeneratedFile> generated_files(const LogGenSpec& spec) {
  const sim::RandomStreams streams(spec.seed);
  FilesystemSpec fs;
  fs.files = spec.files;
  fs.size_mix = spec.sizes;
  sim::RandomStream size_rng = streams.stream(kGenSizes);
  const std::vector<std::uint64_t> sizes = draw_file_sizes(fs, size_rng);
  const std::vector<std::uint32_t> ranking = popularity_ranking(sizes, PopularSizes::kAny, streams.stream(kGenRanking));
  const std::vector<double> weights = zipf_weights(spec.files, spec.zipf_exponent);
  double total = 0;
  for (const double w : weights) total += w;
  std::vector<GeneratedFile> out(spec.files);
  for (std::uint32_t i = 0; i < spec.files; ++i) out[i] = GeneratedFile{file_path(i), sizes[i], 0};
  for (std::uint32_t r = 0; r < spec.files; ++r) out[ranking[r]].probability = weights[r] / total;
  return out;
}

double expected_requests(const LogGenSpec& s) {
  const double w = 2 * std::numbers::pi / s.period_s;
  return s.rate * s.duration_s + s.rate * s.amplitude * (1 - std::cos(w * s.duration_s)) / w;
}

std::uint64_t generate_log(const LogGenSpec& spec, std::ostream& out) {
  const sim::RandomStreams streams(spec.seed);
  const std::vector<GeneratedFile> files = generated_files(spec);
  std::vector<double> probabilities;
  probabilities.reserve(files.size());
  for (const GeneratedFile& f : files) probabilities.push_back(f.probability);
  const AliasTable table(probabilities);
  sim::RandomStream arrivals = streams.stream(kGenArrivals);
  sim::RandomStream picks = streams.stream(kGenPicks);
  sim::RandomStream clients = streams.stream(kGenClients);
  const double peak = spec.rate * (1 + spec.amplitude);
  std::uint64_t lines = 0;
  std::string buffer;
  for (double t = arrivals.exponential(1 / peak); t < spec.duration_s; t += arrivals.exponential(1 / peak)) {
    if (!(arrivals.uniform() * peak < rate_at(spec, t))) continue;
    const GeneratedFile& f = files[table.sample(picks)];
    const std::uint64_t client = clients.below(1 << 16);
    buffer += fmt::format("10.0.{}.{} - - [{}] \"GET {} HTTP/1.1\" 200 {} \"-\" \"clerk-gen-log/1\"\n", client >> 8,
                          client & 255, time_local_text(static_cast<std::int64_t>(std::floor(spec.start_epoch_s + t))),
                          f.path, f.bytes);
    ++lines;
    if (buffer.size() > (1 << 20)) {
      out << buffer;
      buffer.clear();
    }
  }
  out << buffer;
  return lines;
}

}  // namespace models
