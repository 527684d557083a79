// `clerk compare A.toml B.toml ...`: every scenario on the same seed (the
// same random draws), one table, and with --json and --figure the same
// figures as JSON and as a gnuplot figure (cli/compare_table.h). Every file
// is loaded and every output checked before anything runs; the figure's
// pictures and the JSON are written together, all or none
// (common::OutputSet), so a failure on one leaves none of them.
#include <fmt/format.h>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/compare_table.h"
#include "cli/option_checks.h"
#include "cli/sweep/plot_command.h"
#include "cli/sweep/sweep_error.h"
#include "common/json_text.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "engines/run_scenario.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/limits.h"
#include "models/scenario/resource_estimate.h"

namespace cli {

namespace {

struct Loaded {
  std::string file;
  models::Scenario scenario;
  double duration_s = 0;
};

// Every file, loaded and checked, before any runs: a bad file is exit 2
// (ConfigError: file, line and key) with nothing run and nothing written.
std::vector<Loaded> load_all(const CompareArgs& args) {
  std::vector<Loaded> out;
  for (const std::string& file : args.files) {
    Loaded l{file, models::load_scenario(file, args.overrides), 0};
    l.duration_s = models::limits::check_run_duration(args.duration_s.value_or(l.scenario.duration_s), "--duration");
    models::check_fits_machine(l.scenario, l.duration_s, file);
    out.push_back(std::move(l));
  }
  return out;
}

// Every file the scenarios were read from, their includes too.
std::vector<std::string> inputs_of(const std::vector<Loaded>& loaded) {
  std::vector<std::string> files;
  for (const Loaded& l : loaded) files.insert(files.end(), l.scenario.files.begin(), l.scenario.files.end());
  return files;
}

void check_outputs(const CompareArgs& args, const std::vector<std::string>& inputs) {
  std::vector<std::pair<std::string, std::string>> outputs;
  if (!args.json_path.empty()) outputs.emplace_back("--json", args.json_path);
  if (!args.figure.empty())
    for (const char* ext : {".png", ".svg"}) outputs.emplace_back("--figure", args.figure + ext);
  check_distinct_outputs(outputs);
  if (!args.json_path.empty()) {
    common::check_output_path(args.json_path);
    common::check_not_an_input(args.json_path, inputs);
  }
  if (!args.figure.empty()) {
    sweep::check_figure_prefix(args.figure, "--figure");
    sweep::check_gnuplot("--figure");
    for (const char* ext : {".png", ".svg"}) {
      common::check_output_path(args.figure + ext);
      common::check_not_an_input(args.figure + ext, inputs);
    }
  }
}

// One scenario file named twice (hits.toml and ./hits.toml, or a link to
// it): two identical columns, as a sweep's repeated value would be, which
// it refuses (probe 7). "" when each is given once.
std::string scenario_given_twice(const std::vector<std::string>& files) {
  for (std::size_t i = 0; i < files.size(); ++i)
    for (std::size_t j = i + 1; j < files.size(); ++j)
      if (common::same_output_file(files[i], files[j]))
        return "'" + common::shown_text(files[j]) + "' is '" + common::shown_text(files[i]) +
               "' again: the same scenario twice makes two identical columns (name each once)";
  return "";
}

// "out.png" and "out.svg" name the prefix "out" (both files are written).
std::string figure_prefix(std::string figure) {
  for (const char* ext : {".png", ".svg"})
    if (figure.size() > 4 && figure.ends_with(ext)) figure.resize(figure.size() - 4);
  return figure;
}

}  // namespace

int compare_command(const CompareArgs& given) {
  CompareArgs args = given;
  args.figure = args.figure.empty() ? "" : figure_prefix(args.figure);
  if (const std::string twice = scenario_given_twice(args.files); !twice.empty()) {
    std::cerr << "clerk: compare: " << twice << "\n";
    return 2;
  }
  std::vector<Loaded> loaded;
  try {
    loaded = load_all(args);
    check_outputs(args, inputs_of(loaded));
  } catch (const models::ConfigError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  } catch (const sweep::SweepError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  }
  // One seed for all: --seed, else the first scenario's.
  const std::uint64_t seed = args.seed.value_or(loaded.front().scenario.seed);
  std::vector<CompareFigures> runs;
  for (const Loaded& l : loaded)
    runs.push_back(figures_of(engines::run_scenario(l.scenario, {seed, l.duration_s, engines::Engine::kNative, {}})));
  common::OutputSet json;
  if (!args.json_path.empty()) json.add(args.json_path, common::json_text(compare_json(runs, seed), 2) + "\n");
  if (!args.figure.empty()) {
    const sweep::BarChart chart = compare_chart(runs, seed);
    int status = 0;
    try {
      status = sweep::draw_figure(
          [&](const std::string& png, const std::string& svg) { return sweep::bar_chart_script(chart, png, svg); },
          args.figure, "gnuplot", std::move(json));
    } catch (const sweep::SweepError& e) {
      std::cerr << "clerk: " << e.what() << "\n";
      return 2;
    }
    if (status != 0) {  // the table all the same; no JSON, so no output file is left without its figure
      std::cout << compare_table(runs, seed);
      return status;
    }
  } else {
    json.write();
  }
  std::cout << compare_table(runs, seed);
  return 0;
}

void add_compare_command(CLI::App& clerk, Commands& commands) {
  auto args = std::make_shared<CompareArgs>();
  CompareArgs& a = *args;
  CLI::App* cmd = clerk.add_subcommand(
      "compare", "Run scenarios on the same seed and print their figures side by side (and as JSON and a figure)");
  cmd->add_option("files", a.files, "scenario files")->required();
  cmd->add_option("--seed", a.seed, "random seed for every scenario (default: the first scenario's)")
      ->check(seed_check());
  cmd->add_option("--duration", a.duration_s, "simulated seconds")->check(duration_check());
  cmd->add_option("--set", a.overrides, "KEY=VALUE over every scenario, as clerk run --set (repeatable)");
  cmd->add_option("--json", a.json_path, "write the figures as JSON (SI units) to this file")->check(file_name_check());
  cmd->add_option("--figure", a.figure,
                  "draw the figures with gnuplot into OUT.png and OUT.svg (a trailing .png or .svg is dropped)")
      ->check(file_name_check());
  commands.add(cmd, [args] { return compare_command(*args); });
}

}  // namespace cli
