#include "cli/sweep/sweep_command.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <set>
#include <thread>
#include <unistd.h>

#include "cli/sweep/sweep_error.h"
#include "cli/sweep/sweep_files.h"
#include "cli/sweep/sweep_plan.h"
#include "cli/sweep/sweep_progress.h"
#include "cli/sweep/sweep_rows.h"
#include "cli/sweep/sweep_runner.h"
#include "cli/sweep/sweep_summary.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "models/scenario/config_error.h"

namespace cli::sweep {

namespace fs = std::filesystem;

namespace {

// A run that failed after the sweep started: its files hold the rows so far.
class RunFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

SweepSpec build_spec(const SweepArgs& args) {
  SweepSpec spec;
  if (is_sweep_file(args.file)) {
    spec = read_spec(args.file);
  } else {
    spec.origin = args.file;
    spec.scenario = args.file;
  }
  if (!args.mode.empty()) spec.mode = parse_mode(args.mode, "--mode");
  if (args.samples) {
    check_cap("--samples", "", *args.samples, kMaxSamples, "points");
    spec.samples = *args.samples;
  }
  if (args.sample_seed) spec.sample_seed = *args.sample_seed;
  if (!args.seeds.empty()) spec.seeds = parse_seeds(args.seeds, "--seeds");
  if (!args.metrics.empty()) spec.metrics = args.metrics;
  if (args.confidence) spec.confidence = check_confidence(*args.confidence, "--confidence");
  for (const std::string& s : args.sets) apply_set(spec, s);
  return spec;
}

std::string default_out(const std::string& file, const std::string& shard_text, const Shard& shard) {
  std::string stem = fs::path(file).stem().string();
  if (!shard_text.empty()) stem += fmt::format(".shard-{}-of-{}", shard.index, shard.count);
  return stem + ".csv";
}

// "a.toml, b.toml or c.toml": the files whose bytes the fingerprint holds.
std::string input_list(const Plan& plan) {
  std::string out;
  for (std::size_t i = 0; i < plan.inputs.size(); ++i)
    out += (i == 0 ? "" : i + 1 == plan.inputs.size() ? " or " : ", ") + common::shown_text(plan.inputs[i]);
  return out;
}

// The rows a file already holds for this sweep and shard, by run id.
std::map<std::uint64_t, Row> existing_rows(const std::string& path, const Plan& plan, const Columns& columns,
                                           const std::set<std::uint64_t>& mine) {
  std::map<std::uint64_t, Row> rows;
  if (!fs::exists(path)) return rows;
  const RowFile file = read_rows(path);
  if (file.has_columns && !(file.columns == columns))
    throw SweepError(path, "", "its columns are not this sweep's: continue it with the spec that wrote it, or choose another -o");
  for (const Row& r : file.rows) {
    if (r.sweep != plan.fingerprint)
      throw SweepError(path, "", fmt::format("holds rows of another sweep ({}, this one is {}): the inputs changed "
                                             "since the rows were written (the bytes of {}, or the options --set, "
                                             "--seeds, --metrics); choose another -o, or undo the change",
                                             r.sweep, plan.fingerprint, input_list(plan)));
    if (!mine.count(r.run)) throw SweepError(path, "", fmt::format("run {} is not part of this shard", r.run));
    rows.emplace(r.run, r);
  }
  return rows;
}

std::string file_text(Format f, const Columns& c, const std::vector<Row>& rows) {
  std::string text = header(f, c);
  for (const Row& r : rows) text += line(f, c, r);
  return text;
}

void print_plan(const Plan& plan, const std::vector<RunRef>& runs) {
  std::cout << fmt::format("sweep {}: {} points x {} seeds = {} runs; this part: {} runs\n", plan.fingerprint,
                           plan.points.size(), plan.seeds.size(), plan.total_runs(), runs.size());
  std::uint64_t last = UINT64_MAX;
  for (const RunRef& r : runs) {
    if (r.point == last) continue;
    last = r.point;
    std::string values;
    for (const std::string& o : plan.overrides(plan.points[r.point])) values += " " + o;
    if (const std::string hw = plan.hardware(plan.points[r.point]); !hw.empty()) values += " (hardware " + hw + ")";
    std::cout << fmt::format("  point {}:{}\n", r.point, values);
  }
}

// The runs missing before the last one: counted, and the first ten named
// (never listed whole: a run id can be as large as 2^64 - 1).
void report_missing(const std::vector<Row>& all) {
  if (all.empty()) return;
  const std::uint64_t missing = all.back().run - (all.size() - 1);  // ids are distinct and sorted
  if (missing == 0) return;
  std::string list;
  std::size_t named = 0;
  for (std::uint64_t id = 0, i = 0; i < all.size() && named < 10; ++id) {
    if (all[i].run == id) {
      ++i;
    } else {
      list += " " + std::to_string(id);
      ++named;
    }
  }
  std::cerr << fmt::format("merge: {} runs missing before the last one:{}{}\n", missing, list, missing > 10 ? " ..." : "");
}

}  // namespace

int sweep_command(const SweepArgs& args) {
  try {
    if (args.resume && args.overwrite)
      throw SweepError("--resume and --overwrite", "", "contradict each other: --resume keeps the finished runs, "
                                                        "--overwrite starts again; give one");
    const SweepSpec spec = build_spec(args);
    const Shard shard = args.shard.empty() ? Shard{} : parse_shard(args.shard);
    const Plan plan = make_plan(spec, shard);
    const std::vector<RunRef> runs = plan.runs(shard);
    const std::vector<std::size_t> table = table_columns(plan.metrics, args.table_metrics);  // before anything runs
    if (args.dry_run) {
      print_plan(plan, runs);
      return 0;
    }
    check_jobs_fit(plan, runs, args.jobs, spec.origin);  // before any file is written
    const OutputPaths paths = output_paths(args.out.empty() ? default_out(args.file, args.shard, shard) : args.out);
    const Columns columns = columns_of(plan);
    for (const std::string& p : {paths.csv, paths.jsonl, paths.summary})
      check_writable(p, plan.inputs);  // before any file is written

    // The summary too: it is another sweep's means until this one replaces it.
    if (!args.resume && !args.overwrite)
      for (const std::string& p : {paths.csv, paths.jsonl, paths.summary})
        if (fs::exists(p))
          throw SweepError(p, "", "exists: --resume continues that sweep, --overwrite starts it again");
    // --resume with no results to continue: a summary there is not this sweep's.
    if (args.resume && !fs::exists(paths.csv) && !fs::exists(paths.jsonl) && fs::exists(paths.summary))
      throw SweepError(paths.summary, "", "exists, and there is no sweep here to resume: --overwrite replaces it");
    std::set<std::uint64_t> mine;
    for (const RunRef& r : runs) mine.insert(r.id);
    std::vector<Row> kept;  // finished runs, in id order
    if (args.resume) {
      // A kill between the two appends leaves one file a row ahead; a row
      // read from either file writes both lines again exactly.
      auto found = existing_rows(paths.csv, plan, columns, mine);
      found.merge(existing_rows(paths.jsonl, plan, columns, mine));
      for (auto& [id, row] : found) kept.push_back(std::move(row));
    }
    // Both files start over as header + finished rows, written whole and
    // together (neither replaced if the other cannot be): a cut last line
    // goes, and a kill from here on loses at most one line.
    {
      common::OutputSet rows;
      rows.add(paths.csv, file_text(Format::kCsv, columns, kept));
      rows.add(paths.jsonl, file_text(Format::kJsonl, columns, kept));
      write_together(rows);
    }

    std::set<std::uint64_t> done;
    for (const Row& r : kept) done.insert(r.run);
    std::vector<RunRef> todo;
    for (const RunRef& r : runs)
      if (!done.count(r.id)) todo.push_back(r);
    // The usual resume continues a prefix; anything else is put in order at the end.
    bool in_order = true;
    for (std::size_t i = 0; i < kept.size(); ++i) in_order = in_order && kept[i].run == runs[i].id;

    const unsigned jobs = args.jobs ? args.jobs : std::max(1u, std::thread::hardware_concurrency());
    Progress progress(runs.size(), kept.size(), !args.quiet && isatty(STDERR_FILENO));
    std::vector<Row> all = kept;
    {
      LineAppender csv(paths.csv), jsonl(paths.jsonl);
      try {
        run_all(plan, todo, jobs, [&](const Row& row) {
          csv.append(line(Format::kCsv, columns, row));
          jsonl.append(line(Format::kJsonl, columns, row));
          all.push_back(row);
          progress.advance();
        });
      } catch (const std::exception& e) {
        progress.finish();
        throw RunFailed(e.what());  // the rows so far are kept: --resume continues
      } catch (...) {
        progress.finish();
        throw;
      }
      progress.finish();
    }
    // What is written at the end, together: the summary, and the rows put
    // in order when a resume ran them out of order. The rows appended during
    // the runs are the runs' record and stay: a failure here (a full disk)
    // loses no run, and --resume writes the end again without running any.
    {
      common::OutputSet end;
      if (!in_order) {
        std::sort(all.begin(), all.end(), [](const Row& a, const Row& b) { return a.run < b.run; });
        end.add(paths.csv, file_text(Format::kCsv, columns, all));
        end.add(paths.jsonl, file_text(Format::kJsonl, columns, all));
      }
      end.add(paths.summary, summary_csv(columns, all, plan.confidence));
      write_together(end, " (every run's row is kept: --resume writes the summary without running them again)");
    }
    if (!args.quiet && plan.points.size() <= 40) std::cout << common::shown_lines(summary_text(columns, all, plan.confidence, table));
    std::cerr << fmt::format("sweep: {} runs ({} from before, {} now) in {:.1f} s, {:.1f} runs/s on {} threads\n"
                             "sweep: rows in {} and {}, means and intervals in {}\n",
                             all.size(), kept.size(), todo.size(), progress.elapsed_s(), progress.rate(), jobs,
                             common::shown_text(paths.csv), common::shown_text(paths.jsonl),
                             common::shown_text(paths.summary));
    return 0;
  } catch (const SweepError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  } catch (const models::ConfigError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  } catch (const RunFailed& e) {
    std::cerr << "clerk: sweep stopped: " << e.what() << " (--resume continues it)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "clerk: internal error in sweep: " << e.what() << "; please report this bug with the command line and the spec\n";
    return 3;
  }
}

int merge_command(const MergeArgs& args) {
  try {
    if (args.inputs.empty()) throw SweepError("clerk sweep merge", "", "needs the files to merge");
    check_confidence(args.confidence, "--confidence");
    // Both outputs, the merged file and its summary, against every input,
    // before anything is read or written: an input named q.summary.csv
    // was replaced by the summary of -o q.csv.
    const std::string summary = output_paths(args.out).summary;
    for (const std::string& out : {args.out, summary}) check_writable(out, args.inputs);
    Columns columns;
    bool has_columns = false;
    std::string fingerprint;
    std::map<std::uint64_t, Row> rows;
    for (const std::string& path : args.inputs) {
      const RowFile file = read_rows(path);
      if (file.cut_short)
        throw SweepError(path, "", "ends in a cut line: that part did not finish (run it again with --resume)");
      if (file.has_columns) {
        if (has_columns && !(file.columns == columns))
          throw SweepError(path, "", "its columns differ from " + common::shown_text(args.inputs.front()) + "'s: not parts of one sweep");
        columns = file.columns;
        has_columns = true;
      }
      for (const Row& r : file.rows) {
        if (fingerprint.empty()) fingerprint = r.sweep;
        if (r.sweep != fingerprint)
          throw SweepError(path, "", fmt::format("run {} belongs to sweep {}, not {}: not parts of one sweep (their "
                                                 "specs, --set options or scenario files differ)",
                                                 r.run, r.sweep, fingerprint));
        auto [it, fresh] = rows.emplace(r.run, r);
        if (!fresh && !(it->second == r))
          throw SweepError(path, "", fmt::format("run {} differs from the same run in another file", r.run));
      }
    }
    if (!has_columns) throw SweepError(args.inputs.front(), "", "no rows to merge");
    std::vector<Row> all;
    for (auto& [id, r] : rows) all.push_back(std::move(r));
    const Format f = format_of(args.out);
    common::OutputSet merged;  // the rows and their summary: both or neither
    merged.add(args.out, file_text(f, columns, all));
    merged.add(summary, summary_csv(columns, all, args.confidence));
    write_together(merged);
    std::cerr << fmt::format("merge: {} runs from {} files into {} (means and intervals in {})\n", all.size(),
                             args.inputs.size(), common::shown_text(args.out), common::shown_text(summary));
    report_missing(all);
    return 0;
  } catch (const SweepError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "clerk: internal error in sweep merge: " << e.what() << "; please report this bug with the command line\n";
    return 3;
  }
}

}  // namespace cli::sweep
