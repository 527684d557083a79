#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/option_checks.h"
#include "common/finite_range.h"
#include "cli/sweep/plot_command.h"
#include "cli/sweep/sweep_command.h"

namespace cli {

using namespace sweep;

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

namespace {

struct SweepArgsAll {
  SweepArgs sweep;
  MergeArgs merge;
  CLI::App* merge_cmd = nullptr;
};

int run_sweep(const SweepArgsAll& a) {
  if (a.merge_cmd->parsed()) return merge_command(a.merge);
  if (a.sweep.file.empty()) {
    std::cerr << "clerk: sweep needs a file: a sweep spec or a scenario (see clerk sweep --help)\n";
    return 2;
  }
  return sweep_command(a.sweep);
}

}  // namespace

// `sweep` (with `sweep merge` under it) and `plot`.
void add_sweep_commands(CLI::App& clerk, Commands& commands) {
  auto args = std::make_shared<SweepArgsAll>();
  CLI::App* s = clerk.add_subcommand(
      "sweep", "Run a scenario over a grid, zipped axes or random samples of its keys, on every core, to CSV and JSON Lines");
  s->add_option("file", args->sweep.file, "a sweep spec (TOML with a [sweep] table) or a scenario file");
  s->add_option("--set", args->sweep.sets,
                "an axis or a fixed key: KEY=v1,v2,...  KEY=lo..hi:step  KEY=lo..hi:*factor  KEY=value; sizes, times and "
                "rates too, like memory.page_cache=16m..128m:16m, warmup=50ms..70ms:10ms, "
                "nic.line_rate=1Gbit/s..8Gbit/s:*2 (repeatable)");
  s->add_option("--mode", args->sweep.mode, "how axes combine: grid (every combination), zip (in step), random (--samples)");
  s->add_option("--samples", args->sweep.samples, "points to draw in random mode")->check(whole_number());
  s->add_option("--sample-seed", args->sweep.sample_seed, "seed of the random draw of points")
      ->check(seed_check());  // as the spec's sample_seed: -1 wrapped to 2^64-1, 2^64 saturated
  s->add_option("--seeds", args->sweep.seeds, "seeds per point: a count N (seeds 1..N), or a list 1,5,9, or a range 1..20:1");
  s->add_option("--metric", args->sweep.metrics, "a metric to keep, a dotted path into a run's JSON (repeatable)");
  s->add_option("--metrics", args->sweep.table_metrics,
                "the table's columns, comma-separated: metrics of the sweep, by dotted path or a unique ending "
                "(default: the first three; all are in the summary file)");
  s->add_option("--confidence", args->sweep.confidence, "confidence level of the intervals (default 0.95)")
      ->check(common::decimal_number());
  s->add_option("-j,--jobs", args->sweep.jobs, "runs in parallel (default: one per core)")
      ->check(common::whole_range(0u, 1024u));  // one thread a job: 100,000 threads would fail to start, not run faster
  s->add_option("-o,--out", args->sweep.out, "rows to OUT.csv and OUT.jsonl, means to OUT.summary.csv")->check(file_name());
  s->add_option("--shard", args->sweep.shard, "run only part I of N: --shard 2/8");
  s->add_flag("--resume", args->sweep.resume,
              "continue the sweep in the output files: finished runs are kept, not repeated (refused if the spec or "
              "a scenario file changed since)");
  s->add_flag("--overwrite", args->sweep.overwrite, "start again, replacing existing output files");
  s->add_flag("--dry-run", args->sweep.dry_run, "check the sweep and list its points, but run nothing");
  s->add_flag("-q,--quiet", args->sweep.quiet, "no progress bar and no table");

  CLI::App* merge = s->add_subcommand("merge", "Join the outputs of a sweep's shards (or of interrupted parts) into one file");
  args->merge_cmd = merge;
  merge->add_option("inputs", args->merge.inputs, "shard outputs (.csv or .jsonl)")->required();
  merge->add_option("-o,--out", args->merge.out, "the merged file (.csv or .jsonl); its summary goes beside it")
      ->required()
      ->check(file_name());
  merge->add_option("--confidence", args->merge.confidence, "confidence level of the summary's intervals")
      ->check(common::decimal_number());

  commands.add(s, [args] { return run_sweep(*args); });

  auto plot = std::make_shared<PlotArgs>();
  CLI::App* p = clerk.add_subcommand("plot", "Draw a sweep's results with gnuplot, as PNG and SVG");
  p->add_option("results", plot->results, "a sweep's rows (.csv or .jsonl)")->required();
  p->add_option("--x", plot->x, "the axis along x")->required();
  p->add_option("--y", plot->y, "the metric along y, like clients.constant.latency_s.mean")->required();
  p->add_option("--by", plot->by, "one line per value of this axis (or the heat map's second axis)");
  p->add_option("--where", plot->where, "keep only rows with AXIS=VALUE (repeatable)");
  p->add_flag("--heatmap", plot->heatmap, "a heat map of the means over --x and --by instead of lines");
  p->add_flag("--logx", plot->log_x, "logarithmic x axis");
  p->add_flag("--logy", plot->log_y, "logarithmic y axis");
  p->add_option("-o,--out", plot->out, "write OUT.png and OUT.svg (default: named after the results and metric)")
      ->check(file_name());
  p->add_option("--title", plot->title, "the plot's title");
  p->add_option("--confidence", plot->confidence, "confidence level of the bands (default 0.95)")
      ->check(common::decimal_number());
  commands.add(p, [plot] { return plot_command(*plot); });
}

}  // namespace cli
