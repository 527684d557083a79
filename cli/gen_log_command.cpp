// clerk gen-log: a sample access log for trace replay
// (models/clients/log_generator.h), NGINX's combined format, the same bytes
// for the same options and seed. The log is written as it is generated (a
// log of millions of lines is never held whole): to a temporary file in the
// output's folder, renamed over the output at the end, so nothing
// half-written is left under its name.
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ext/stdio_filebuf.h>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <ostream>
#include <string>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/option_checks.h"
#include "common/bad_input.h"
#include "common/output_file.h"
#include "models/clients/log_generator.h"
#include "models/scenario/limits.h"
#include "models/scenario/units.h"

namespace cli {

namespace {

struct GenLogArgs {
  std::string output;
  std::string duration = "600s";
  double rate = 100;
  double amplitude = 0;
  std::string period = "86400s";
  std::uint32_t files = 10000;
  double zipf = 0.8;
  std::vector<std::string> sizes;
  std::uint64_t seed = 1;
};

[[noreturn]] void bad(const std::string& what) { throw common::BadInput("clerk gen-log: " + what); }

// "1k-16k:0.7" (a class: sizes from 1k to 16k, weight 0.7) or "32k:0.3".
models::SizeClass size_class(const std::string& text) {
  const std::size_t colon = text.rfind(':');
  const std::string range = text.substr(0, colon);
  const std::size_t dash = range.find('-');
  std::uint64_t lo = 0, hi = 0;
  double weight = 0;
  try {
    std::size_t used = 0;
    weight = colon == std::string::npos ? -1 : std::stod(text.substr(colon + 1), &used);
    if (colon != std::string::npos && used != text.size() - colon - 1) weight = -1;
  } catch (const std::exception&) {
    weight = -1;
  }
  const bool ok = models::parse_size(range.substr(0, dash), lo) &&
                  (dash == std::string::npos ? (hi = lo, true) : models::parse_size(range.substr(dash + 1), hi));
  if (!ok || lo < 1 || lo > hi || hi > models::limits::kMaxFileBytes || !(weight > 0) || !std::isfinite(weight))
    bad("--sizes '" + text + "' is not MIN-MAX:WEIGHT or SIZE:WEIGHT with sizes from 1 byte to 1 TiB, like 1k-16k:0.7");
  return models::SizeClass(lo, hi, weight);
}

double seconds_of(const std::string& option, const std::string& text) {
  double s = 0;
  if (!models::parse_duration(text, s) || !(s > 0) || s > models::limits::kMaxRunSeconds)
    bad(fmt::format("{} '{}' is not a time above 0 and at most {:g} s, like \"600s\" or \"1h\"", option, text,
                    models::limits::kMaxRunSeconds));
  return s;
}

int gen_log_command(const GenLogArgs& a) {
  models::LogGenSpec spec;
  spec.duration_s = seconds_of("--duration", a.duration);
  spec.period_s = seconds_of("--period", a.period);
  spec.rate = a.rate;
  spec.amplitude = a.amplitude;
  spec.files = a.files;
  spec.zipf_exponent = a.zipf;
  spec.seed = a.seed;
  if (!a.sizes.empty()) {
    spec.sizes.clear();
    for (const std::string& s : a.sizes) spec.sizes.push_back(size_class(s));
  }
  if (a.output == "-") {
    const std::uint64_t lines = models::generate_log(spec, std::cout);
    std::cerr << fmt::format("clerk gen-log: {} lines\n", lines);
    return 0;
  }
  common::check_output_path(a.output);
  std::string temp = a.output + ".XXXXXX";
  const int fd = mkstemp(temp.data());
  if (fd < 0) throw common::OutputError(a.output, std::strerror(errno));
  std::uint64_t lines = 0;
  {
    __gnu_cxx::stdio_filebuf<char> buf(fd, std::ios::out);
    std::ostream out(&buf);
    lines = models::generate_log(spec, out);
    out.flush();
    if (!out || fsync(fd) != 0) {
      const std::string why = std::strerror(errno);
      std::remove(temp.c_str());
      throw common::OutputError(a.output, why);
    }
  }  // closes fd
  if (std::rename(temp.c_str(), a.output.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temp.c_str());
    throw common::OutputError(a.output, why);
  }
  std::cout << fmt::format("wrote {}: {} lines over {:g} s (expected {:.0f})\n", a.output, lines, spec.duration_s,
                           models::expected_requests(spec));
  return 0;
}

}  // namespace

void add_gen_log_command(CLI::App& clerk, Commands& commands) {
  auto args = std::make_shared<GenLogArgs>();
  CLI::App* cmd = clerk.add_subcommand(
      "gen-log", "Write a sample access log (combined format: Zipf popularity, a size mix, a diurnal rate)");
  GenLogArgs& a = *args;
  cmd->add_option("-o,--output", a.output, "the log to write (\"-\": standard output)")->required()->check(file_name_check());
  cmd->add_option("--duration", a.duration, "the log's span, like \"600s\" or \"2h\"")->capture_default_str();
  cmd->add_option("--rate", a.rate, "mean requests a second")->check(CLI::Range(1e-3, 1e6))->capture_default_str();
  cmd->add_option("--amplitude", a.amplitude, "the diurnal swing: rate x (1 + A sin(2 pi t / period)), 0 to 1")
      ->check(CLI::Range(0.0, 1.0))->capture_default_str();
  cmd->add_option("--period", a.period, "the diurnal period")->capture_default_str();
  cmd->add_option("--files", a.files, "distinct paths")->check(CLI::Range(1u, 1u << 24))->capture_default_str();
  cmd->add_option("--zipf", a.zipf, "the Zipf exponent of the paths' popularity (0: uniform)")
      ->check(CLI::Range(0.0, 10.0))->capture_default_str();
  cmd->add_option("--sizes", a.sizes,
                  "the file-size mix, classes MIN-MAX:WEIGHT or SIZE:WEIGHT (default 1k-16k:0.7 16k-256k:0.25 256k-4m:0.05)");
  cmd->add_option("--seed", a.seed, "the seed: the same log, byte for byte")->check(seed_check())->capture_default_str();
  commands.add(cmd, [args] { return gen_log_command(*args); });
}

}  // namespace cli
