#include "cli/sweep/sweep_cli.h"

#include <iostream>

namespace cli::sweep {

namespace {
// An empty -o was taken as no -o at all.
CLI::Validator file_name() {
  return CLI::Validator([](std::string& text) { return text.empty() ? std::string("needs a file name") : std::string(); },
                        "OUT");
}
// CLI::PositiveNumber's message printed DBL_MAX in 309 digits; the cap on
// samples is checked with the spec's.
CLI::Validator whole_number() {
  return CLI::Validator(
      [](std::string& text) {
        return !text.empty() && text.size() < 20 && text.find_first_not_of("0123456789") == std::string::npos &&
                       text.find_first_not_of('0') != std::string::npos
                   ? std::string()
                   : std::string("must be a whole number of at least 1");
      },
      "N");
}
}  // namespace

SweepCli::SweepCli(CLI::App& app) {
  sweep_cmd_ = app.add_subcommand(
      "sweep", "Run a scenario over a grid, zipped axes or random samples of its keys, on every core, to CSV and JSON Lines");
  auto* s = sweep_cmd_;
  s->add_option("file", sweep_.file, "a sweep spec (TOML with a [sweep] table) or a scenario file");
  s->add_option("--set", sweep_.sets,
                "an axis or a fixed key: KEY=v1,v2,...  KEY=lo..hi:step  KEY=lo..hi:*factor  KEY=value (repeatable)");
  s->add_option("--mode", sweep_.mode, "how axes combine: grid (every combination), zip (in step), random (--samples)");
  s->add_option("--samples", sweep_.samples, "points to draw in random mode")->check(whole_number());
  s->add_option("--sample-seed", sweep_.sample_seed, "seed of the random draw of points");
  s->add_option("--seeds", sweep_.seeds, "seeds per point: a count N (seeds 1..N), or a list 1,5,9, or a range 1..20:1");
  s->add_option("--metric", sweep_.metrics, "a metric to keep, a dotted path into a run's JSON (repeatable)");
  s->add_option("--metrics", sweep_.table_metrics,
                "the table's columns, comma-separated: metrics of the sweep, by dotted path or a unique ending "
                "(default: the first three; all are in the summary file)");
  s->add_option("--confidence", sweep_.confidence, "confidence level of the intervals (default 0.95)");
  s->add_option("-j,--jobs", sweep_.jobs, "runs in parallel (default: one per core)")
      ->check(CLI::Range(0u, 1024u));  // one thread a job: 100,000 threads would fail to start, not run faster
  s->add_option("-o,--out", sweep_.out, "rows to OUT.csv and OUT.jsonl, means to OUT.summary.csv")->check(file_name());
  s->add_option("--shard", sweep_.shard, "run only part I of N: --shard 2/8");
  s->add_flag("--resume", sweep_.resume, "continue the sweep in the output files: finished runs are kept, not repeated");
  s->add_flag("--overwrite", sweep_.overwrite, "start again, replacing existing output files");
  s->add_flag("--dry-run", sweep_.dry_run, "check the sweep and list its points, but run nothing");
  s->add_flag("-q,--quiet", sweep_.quiet, "no progress bar and no table");

  merge_cmd_ = s->add_subcommand("merge", "Join the outputs of a sweep's shards (or of interrupted parts) into one file");
  merge_cmd_->add_option("inputs", merge_.inputs, "shard outputs (.csv or .jsonl)")->required();
  merge_cmd_->add_option("-o,--out", merge_.out, "the merged file (.csv or .jsonl); its summary goes beside it")
      ->required()
      ->check(file_name());
  merge_cmd_->add_option("--confidence", merge_.confidence, "confidence level of the summary's intervals");

  plot_cmd_ = app.add_subcommand("plot", "Draw a sweep's results with gnuplot, as PNG and SVG");
  auto* p = plot_cmd_;
  p->add_option("results", plot_.results, "a sweep's rows (.csv or .jsonl)")->required();
  p->add_option("--x", plot_.x, "the axis along x")->required();
  p->add_option("--y", plot_.y, "the metric along y, like clients.constant.latency_s.mean")->required();
  p->add_option("--by", plot_.by, "one line per value of this axis (or the heat map's second axis)");
  p->add_option("--where", plot_.where, "keep only rows with AXIS=VALUE (repeatable)");
  p->add_flag("--heatmap", plot_.heatmap, "a heat map of the means over --x and --by instead of lines");
  p->add_flag("--logx", plot_.log_x, "logarithmic x axis");
  p->add_flag("--logy", plot_.log_y, "logarithmic y axis");
  p->add_option("-o,--out", plot_.out, "write OUT.png and OUT.svg (default: named after the results and metric)")
      ->check(file_name());
  p->add_option("--title", plot_.title, "the plot's title");
  p->add_option("--confidence", plot_.confidence, "confidence level of the bands (default 0.95)");
}

bool SweepCli::chosen() const { return *sweep_cmd_ || *plot_cmd_; }

int SweepCli::run() const {
  if (*merge_cmd_) return merge_command(merge_);
  if (*plot_cmd_) return plot_command(plot_);
  if (sweep_.file.empty()) {
    std::cerr << "clerk: sweep needs a file: a sweep spec or a scenario (see clerk sweep --help)\n";
    return 2;
  }
  return sweep_command(sweep_);
}

}  // namespace cli::sweep
