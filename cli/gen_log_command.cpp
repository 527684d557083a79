// clerk gen-log: a sample access log for trace replay
// (models/clients/log_generator.h), NGINX's combined format, the same bytes
// for the same options and seed. The log is written as it is generated (a
// log of millions of lines is never held whole) by the project's output
// writer (common::StreamedOutput: a temporary file in the output's folder,
// renamed over the output at the end; a FIFO or a character device written
// directly; a link to a regular file refused), so nothing half-written is
// left under its name. A write that fails stops it at once (exit 2), and
// SIGINT, SIGTERM or SIGHUP remove the temporary before clerk ends as the
// signal would have ended it.
#include <CLI/CLI.hpp>
#include <array>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <streambuf>
#include <iostream>
#include <memory>
#include <ostream>
#include <string>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/option_checks.h"
#include "common/finite_range.h"
#include "common/bad_input.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "common/stop_signals.h"
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

// The most lines a log may be expected to have: a bound on the disk a
// mistyped option fills (at about 150 bytes a line, some 15 GB), not a model
// parameter. A trace replay holds at most kMaxLinesPerSecond lines of a
// logged second (models/clients/trace.h) whatever the log's length.
constexpr double kMaxExpectedLines = 1e8;

// SIGINT, SIGTERM and SIGHUP while the log is written are noted, not obeyed
// at once (common/stop_signals.h): the writer stops at its next write, its
// temporary is removed, then the signal ends clerk as it would have.

// An ostream's buffer that hands each 64 KiB to the writer, which throws on
// the first failed write (the ostream is set to rethrow it).
class OutputBuf : public std::streambuf {
 public:
  explicit OutputBuf(common::StreamedOutput& out) : out_(out) { setp(buf_.data(), buf_.data() + buf_.size()); }
  int sync() override {
    out_.write(std::string_view(pbase(), static_cast<std::size_t>(pptr() - pbase())), common::stop_signal_noted);
    setp(buf_.data(), buf_.data() + buf_.size());
    return 0;
  }
  int_type overflow(int_type ch) override {
    sync();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) sputc(traits_type::to_char_type(ch));
    return traits_type::not_eof(ch);
  }

 private:
  common::StreamedOutput& out_;
  std::array<char, 1 << 16> buf_{};
};

// Generates the log into `path` ("-": standard output); the number of lines.
std::uint64_t write_log(const models::LogGenSpec& spec, const std::string& path) {
  const common::DeferredStopSignals guard;
  std::uint64_t lines = 0;
  try {
    common::StreamedOutput file(path);
    OutputBuf buf(file);
    std::ostream out(&buf);
    out.exceptions(std::ios::badbit);
    lines = models::generate_log(spec, out);
    out.flush();
    file.commit();
  } catch (const common::StreamedOutput::Stopped&) {
    // the temporary is gone (StreamedOutput's destructor)
  }
  if (const int sig = common::take_stop_signal()) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
  return lines;
}

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
    // Drawn against the weights' total, as the loader's file_sizes.
    double total = 0;
    for (const models::SizeClass& c : spec.sizes) total += c.weight;
    if (!std::isfinite(total))
      bad("--sizes: the weights add up to more than a double holds; scale them down (only their ratios count)");
  }
  const double expected = models::expected_requests(spec);
  if (!(expected <= kMaxExpectedLines))
    bad(fmt::format("--duration {} at --rate {:g} makes about {:.3g} lines; at most {:g} (about 15 GB): "
                    "shorten the log or lower the rate",
                    a.duration, a.rate, expected, kMaxExpectedLines));
  if (a.output == "-") {
    std::cout.flush();
    const std::uint64_t lines = write_log(spec, a.output);
    std::cerr << fmt::format("clerk gen-log: {} lines\n", lines);
    return 0;
  }
  common::check_output_path(a.output);
  const std::uint64_t lines = write_log(spec, a.output);
  std::cout << fmt::format("wrote {}: {} lines over {:g} s (expected {:.0f})\n", common::shown_text(a.output), lines,
                           spec.duration_s,
                           expected);
  return 0;
}

}  // namespace

void add_gen_log_command(CLI::App& clerk, Commands& commands) {
  auto args = std::make_shared<GenLogArgs>();
  CLI::App* cmd = clerk.add_subcommand(
      "gen-log", "Write a sample access log (combined format: Zipf popularity, a size mix, a diurnal rate)");
  GenLogArgs& a = *args;
  cmd->add_option("-o,--output", a.output, "the log to write (\"-\": standard output); at most 1e8 lines expected (--duration x --rate)")->required()->check(file_name_check());
  cmd->add_option("--duration", a.duration, "the log's span, like \"600s\" or \"2h\"")->capture_default_str();
  cmd->add_option("--rate", a.rate, "mean requests a second")->check(common::finite_range(1e-3, 1e6))->capture_default_str();
  cmd->add_option("--amplitude", a.amplitude, "the diurnal swing: rate x (1 + A sin(2 pi t / period)), 0 to 1")
      ->check(common::finite_range(0.0, 1.0))->capture_default_str();
  cmd->add_option("--period", a.period, "the diurnal period")->capture_default_str();
  cmd->add_option("--files", a.files, "distinct paths")->check(common::whole_range(1u, 1u << 24))->capture_default_str();
  cmd->add_option("--zipf", a.zipf, "the Zipf exponent of the paths' popularity (0: uniform)")
      ->check(common::finite_range(0.0, 10.0))->capture_default_str();
  cmd->add_option("--sizes", a.sizes,
                  "the file-size mix, classes MIN-MAX:WEIGHT or SIZE:WEIGHT (default 1k-16k:0.7 16k-256k:0.25 256k-4m:0.05)");
  cmd->add_option("--seed", a.seed, "the seed: the same log, byte for byte")->check(seed_check())->capture_default_str();
  commands.add(cmd, [args] { return gen_log_command(*args); });
}

}  // namespace cli
