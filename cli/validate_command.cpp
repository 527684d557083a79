#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <map>

#include "cli/commands.h"
#include "cli/engine_choice.h"
#include "cli/option_checks.h"
#include "common/json_text.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "engines/run_scenario.h"
#include "models/scenario/resource_estimate.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/layered_toml.h"
#include "models/scenario/result_json.h"

namespace cli {

namespace {

// scenarios/ of the working folder, else of the source tree clerk was built from.
std::string default_scenarios_dir() {
  if (std::filesystem::is_directory("scenarios")) return "scenarios";
  return std::string(CLERK_SOURCE_DIR) + "/scenarios";
}

std::vector<std::string> discover(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().extension() != ".toml") continue;
    // The non-throwing form: a .toml that is a link in a loop is refused
    // naming it (exit 2), not a filesystem_error (exit 3).
    std::error_code kind;
    const bool regular = it->is_regular_file(kind);
    // A dangling link (an editor's lock file, .#name.toml) is skipped, as before.
    if (kind && kind != std::errc::no_such_file_or_directory)
      throw models::ConfigError(it->path().string(), 0, "", "cannot be read: " + kind.message());
    if (regular) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string number(double v) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  const double a = std::fabs(v);
  if (a != 0 && (a < 0.01 || a >= 1e6)) return fmt::format("{:.3g}", v);
  return fmt::format("{:.3f}", v);
}

// Runs a scenario as written on the chosen engine; its figures as JSON
// (wall time taken out into `wall`).
nlohmann::ordered_json run_json(const ValidateArgs& args, const models::Scenario& sc, double& wall) {
  nlohmann::ordered_json json = engines::run_scenario_json(sc, engines::as_written(sc, args.engine));
  wall = json.value("wall_s", 0.0);
  json.erase("wall_s");
  return json;
}

// The files `file` was read from: itself and its includes. A file that does
// not load is left to the runs' loop, which reports it (exit 2) before
// anything is written.
std::vector<std::string> files_read(const std::string& file) {
  try {
    return models::LayeredToml(file).files();
  } catch (const models::ConfigError&) {
    return {file};
  }
}

// The scenarios the figures of `file` are relative to (none for a file that
// is not a scenario, a profile or a shared part, or a bad one the runs' loop
// reports).
std::vector<std::string> references_of(const std::string& file) {
  std::vector<std::string> out;
  try {
    for (const models::Expectation& e : models::load_scenario(file).expect)
      if (!e.relative_to.empty()) out.push_back(e.relative_to);
  } catch (const models::ConfigError&) {
  }
  return out;
}

// Every file the runs read, so an output overwrites none of them: each
// scenario's files and those of the scenarios its figures are relative to.
std::vector<std::string> inputs_of(const std::vector<std::string>& files) {
  std::vector<std::string> out;
  const auto add = [&out](const std::string& file) {
    const std::vector<std::string> read = files_read(file);
    out.insert(out.end(), read.begin(), read.end());
  };
  for (const std::string& file : files) {
    add(file);
    for (const std::string& other : references_of(file)) add(other);
  }
  return out;
}

// Every file loaded and its memory estimated before any runs (README,
// "Limits and safe output"), and each scenario its figures are relative to:
// a bad or too large file N is exit 2 before files 1..N-1 have run.
// Discovered files without documented figures are left out; one named on the
// command line is exit 2 (validating nothing is no pass). 0, or the exit
// status; `out`: the files to validate (loaded again one at a time as they
// run, so that a folder of scenarios is not held in memory all at once).
int check_all(const std::vector<std::string>& files, bool discovered, std::vector<std::string>& out) {
  try {
    for (const std::string& file : files) {
      // Hardware profiles and shared parts are not scenarios: only files
      // with documented figures are validated.
      if (discovered && !models::LayeredToml(file).find("expect")) continue;
      models::Scenario sc = models::load_scenario(file);
      models::check_fits_machine(sc, sc.duration_s, file);  // as clerk run
      if (sc.expect.empty()) {
        if (discovered) continue;
        std::cerr << "clerk: " << common::shown_text(file) << ": no documented figures ([[expect]]) to validate\n";
        return 2;
      }
      for (const models::Expectation& e : sc.expect)
        if (!e.relative_to.empty()) {
          const models::Scenario other = models::load_scenario(e.relative_to);
          models::check_fits_machine(other, other.duration_s, e.relative_to);
        }
      out.push_back(file);
    }
  } catch (const models::ConfigError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace

int validate_command(const ValidateArgs& args) {
  // Figures of scenarios that others are compared with (relative_to), by file.
  std::map<std::string, nlohmann::ordered_json> references;
  std::vector<std::string> files = args.files;
  if (files.empty()) {
    const std::string dir = args.scenarios_dir.empty() ? default_scenarios_dir() : args.scenarios_dir;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
      std::cerr << "clerk: --scenarios: '" << common::shown_text(dir) << "' is not a folder\n";
      return 2;
    }
    try {
      files = discover(dir);
    } catch (const models::ConfigError& e) {
      std::cerr << "clerk: --scenarios: " << e.what() << "\n";
      return 2;
    }
    if (files.empty()) {
      std::cerr << "clerk: --scenarios: '" << common::shown_text(dir) << "' holds no scenario files (*.toml)\n";
      return 2;
    }
  }
  if (!args.json_path.empty()) {  // before any run
    common::check_output_path(args.json_path);
    common::check_not_an_input(args.json_path, inputs_of(files));
  }
  std::vector<std::string> checked_files;
  if (const int status = check_all(files, args.files.empty(), checked_files)) return status;
  nlohmann::ordered_json report = nlohmann::ordered_json::array();
  int failures = 0, known = 0, checked = 0, scenarios = 0, skipped = 0;
  for (const std::string& file : checked_files) {
    const models::Scenario sc = models::load_scenario(file);  // checked above
    const std::vector<std::string> cannot = engines::cannot_run(sc, args.engine);
    if (!cannot.empty()) {
      std::cout << fmt::format("\n{}  ({}): skipped, the {} engine cannot run it:\n", common::shown_text(sc.name),
                               common::shown_text(file),
                               engines::engine_name(args.engine));
      for (const std::string& why : cannot) std::cout << "  - " << common::shown_lines(why) << "\n";
      ++skipped;
      continue;
    }
    ++scenarios;
    double wall = 0;
    nlohmann::ordered_json json;
    try {
      json = run_json(args, sc, wall);
    } catch (const common::BadInput& e) {  // bad input met as it ran (an access log rewritten)
      std::cerr << "clerk: " << e.what() << "\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "clerk: internal error running " << common::shown_text(file) << ": " << e.what()
                << "; please report this bug with the command line and the scenario\n";
      return 3;
    }
    std::cout << fmt::format("\n{}  ({}, seed {}, {:g} s simulated in {:.2f} s)\n", common::shown_text(sc.name),
                             common::shown_text(file), sc.seed,
                             sc.duration_s, wall);
    if (json.contains("warmup")) {
      const auto& w = json["warmup"];
      std::cout << fmt::format("  warm-up {}: {:.0f} s, {}\n", w.value("mode", std::string()), w.value("took_s", 0.0),
                               w.value("status", std::string()));
    }
    std::cout << fmt::format("  {:<44} {:>11} {:>11} {:>17} {:>8}  {}\n", "metric", "documented", "simulated",
                             "accepted range", "error", "verdict");
    for (const models::Expectation& e : sc.expect) {
      auto value = models::json_metric(json, e.metric);
      if (value && !e.relative_to.empty()) {
        // The figure is a ratio: this scenario's metric over the other's.
        const std::string key = std::filesystem::weakly_canonical(e.relative_to).string();
        if (!references.count(key)) {
          try {
            const models::Scenario other = models::load_scenario(e.relative_to);
            double unused = 0;
            references[key] = run_json(args, other, unused);
          } catch (const models::ConfigError& err) {
            std::cerr << "clerk: " << err.what() << "\n";
            return 2;
          }
        }
        const auto base = models::json_metric(references[key], e.metric);
        if (!base || *base == 0) {
          std::cerr << "clerk: " << common::shown_text(e.file) << ":" << e.line << ": key 'expect.relative_to': metric '"
                    << common::shown_text(e.metric) << "' is missing or zero in " << common::shown_text(e.relative_to) << "\n";
          return 2;
        }
        value = *value / *base;
      }
      if (!value) {
        std::cerr << "clerk: " << common::shown_text(e.file) << ":" << e.line << ": key 'expect.metric': no metric '"
                  << common::shown_text(e.metric) << "' in the run's JSON\n";
        return 2;
      }
      ++checked;
      const bool inside = *value >= e.min && *value <= e.max;
      std::string verdict = inside ? "ok" : "FAIL";
      if (!e.known_miss.empty()) {
        verdict = inside ? "ok (marked known miss: remove the mark)" : "known miss";
        ++known;
      } else if (!inside) {
        ++failures;
      }
      const std::string error =
          std::isnan(e.documented) || e.documented == 0 ? "-" : fmt::format("{:+.0f}%", (*value / e.documented - 1) * 100);
      // The metric, and the stem of the file a ratio is relative to, as the
      // scenario wrote them: shown escaped, as the texts below.
      const std::string label = common::shown_text(
          e.relative_to.empty() ? e.metric
                                : e.metric + " / " + std::filesystem::path(e.relative_to).stem().string());
      std::cout << fmt::format("  {:<44} {:>11} {:>11} {:>17} {:>8}  {}\n", label, number(e.documented),
                               number(*value), "[" + number(e.min) + ", " + number(e.max) + "]", error, verdict);
      // Prose from the scenario: its line breaks and tabs kept, as a
      // description's, any other control shown escaped (probe 6: an ESC or
      // OSC here rewrote the terminal).
      if (!e.note.empty()) std::cout << "      documented: " << common::shown_prose(e.note) << "\n";
      if (!e.known_miss.empty() && !inside)
        std::cout << "      known miss: " << common::shown_prose(e.known_miss) << "\n";
      report.push_back({{"scenario", sc.name}, {"file", file}, {"metric", e.metric}, {"documented", e.documented},
                        {"simulated", *value}, {"min", e.min}, {"max", e.max}, {"inside", inside},
                        {"known_miss", e.known_miss}, {"relative_to", e.relative_to}});
    }
  }
  if (scenarios + skipped == 0) {
    std::cerr << "clerk: --scenarios: no scenario there has documented figures ([[expect]]) to validate\n";
    return 2;
  }
  std::cout << fmt::format("\nvalidate: {} scenarios, {} figures: {} outside tolerance, {} known misses\n", scenarios,
                           checked, failures, known);
  if (skipped) std::cout << fmt::format("validate: {} scenarios skipped: the {} engine cannot run them\n", skipped,
                                        engines::engine_name(args.engine));
  if (!args.json_path.empty()) common::write_file_atomically(args.json_path, common::json_text(report, 2) + "\n");
  return failures ? 1 : 0;
}

void add_validate_command(CLI::App& clerk, Commands& commands) {
  auto args = std::make_shared<ValidateArgs>();
  ValidateArgs& a = *args;
  CLI::App* cmd =
      clerk.add_subcommand("validate", "Run every scenario with an [expect] table against its documented figures");
  cmd->add_option("files", a.files, "scenario files (default: all under scenarios/)");
  cmd->add_option("--scenarios", a.scenarios_dir, "folder to search for scenarios");
  cmd->add_option("--json", a.json_path, "write the comparison as JSON to this file")->check(file_name_check());
  add_engine_option(cmd, a.engine);
  commands.add(cmd, [args] { return validate_command(*args); });
}

}  // namespace cli
