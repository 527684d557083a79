#include "models/clients/trace.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>

#include "common/bad_input.h"
#include "common/input_file.h"

namespace models {

namespace {
constexpr std::size_t kReadChunk = 1 << 20;
}  // namespace

TraceReader::TraceReader(const TraceSpec& spec, const LogFormat& format, sim::RandomStream sample_rng)
    : spec_(spec), format_(format), rng_(sample_rng) {
  try {
    fd_ = common::open_input_file(spec.file);
  } catch (const common::InputFileError& e) {
    throw common::BadInput("the access log '" + spec.file + "' " + e.what());
  }
}

TraceReader::~TraceReader() = default;

// One line without its "\n" (or "\r\n"), read through a fixed chunk: false
// at the end of the file. A line longer than kMaxLineBytes comes back
// cut to that length plus one byte, which the caller counts as malformed.
bool TraceReader::read_line(std::string& line) {
  line.clear();
  bool any = false;
  for (;;) {
    if (pos_ == buffer_.size()) {
      buffer_.resize(kReadChunk);
      std::size_t n = 0;
      try {
        n = common::read_input_some(fd_.get(), buffer_.data(), kReadChunk);
      } catch (const common::InputFileError& e) {
        throw common::BadInput("the access log '" + spec_.file + "' " + e.what());
      }
      buffer_.resize(n);
      pos_ = 0;
      if (n == 0) {
        if (any && !line.empty() && line.back() == '\r') line.pop_back();
        return any;
      }
    }
    any = true;
    const char* begin = buffer_.data() + pos_;
    const std::size_t left = buffer_.size() - pos_;
    const auto* nl = static_cast<const char*>(std::memchr(begin, '\n', left));
    const std::size_t take = nl ? static_cast<std::size_t>(nl - begin) : left;
    if (line.size() <= kMaxLineBytes) line.append(begin, std::min(take, kMaxLineBytes + 1 - line.size()));
    pos_ += nl ? take + 1 : take;
    if (nl) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return true;
    }
  }
}

bool TraceReader::next_parsed(TraceLine& out) {
  std::string line;
  LogFields f;
  std::string why;
  while (read_line(line)) {
    ++counts_.lines;
    if (line.size() > kMaxLineBytes) why = "longer than " + std::to_string(kMaxLineBytes) + " bytes";
    if (line.size() > kMaxLineBytes || !format_.parse(line, f, why)) {
      if (counts_.malformed++ == 0) {
        counts_.first_malformed_line = counts_.lines;
        counts_.first_malformed_why = why;
      }
      continue;
    }
    out.at_s = f.time_s;
    out.path.assign(f.path);
    out.bytes = f.bytes;
    out.request_time_s = f.request_time_s;
    return true;
  }
  return false;
}

bool TraceReader::next_ended(TraceLine& out) {
  return format_.precise_time() ? next_parsed(out) : next_spread(ended_lines_, &TraceReader::next_parsed, out);
}

namespace {
// The reorder buffer's heap order: the earliest arrival on top, log order among equals.
template <typename Held>
bool later(const Held& a, const Held& b) {
  return a.line.at_s != b.line.at_s ? a.line.at_s > b.line.at_s : a.seq > b.seq;
}
}  // namespace

// Reads ahead until the earliest arrival held can no longer be preceded: a
// line still unread ends at or after newest_end_s_ and took at most
// longest_s_ (the largest $request_time so far), so it arrives at or after
// newest_end_s_ - longest_s_.
bool TraceReader::next_arrival(TraceLine& out) {
  if (!format_.has_request_time()) return next_ended(out);
  const auto order = later<Held>;
  while (!parsed_all_ && held_.size() < kMaxReorderLines &&
         (held_.empty() || held_.front().line.at_s > newest_end_s_ - longest_s_)) {
    TraceLine line;
    if (!next_ended(line)) {
      parsed_all_ = true;
      break;
    }
    const double took = std::max(0.0, line.request_time_s);  // "-": 0
    newest_end_s_ = std::max(newest_end_s_, line.at_s);
    longest_s_ = std::max(longest_s_, took);
    line.at_s -= took;
    held_.push_back({std::move(line), held_seq_++});
    std::push_heap(held_.begin(), held_.end(), order);
    counts_.reorder_held_peak = std::max<std::uint64_t>(counts_.reorder_held_peak, held_.size());
  }
  if (held_.empty()) return false;
  std::pop_heap(held_.begin(), held_.end(), order);
  out = std::move(held_.back().line);
  held_.pop_back();
  return true;
}

bool TraceReader::next_kept(TraceLine& out) {
  TraceLine line;
  while (!ended_ && next_arrival(line)) {
    if (!have_first_) {
      have_first_ = true;
      first_s_ = line.at_s;
    }
    double t = line.at_s;
    if (t < last_s_) {
      ++counts_.reordered;
      t = last_s_;
    }
    last_s_ = t;  // every line read moves the log's clock, kept or not
    const double offset = t - first_s_;
    if (offset < spec_.from_s) {
      ++counts_.before_window;
      continue;
    }
    if (offset >= spec_.until_s) {
      stop_at_until();
      break;
    }
    if (spec_.sample < 1 && !(rng_.uniform() < spec_.sample)) {
      ++counts_.sampled_out;
      continue;
    }
    ++counts_.kept;
    out = std::move(line);
    out.at_s = t;
    return true;
  }
  ended_ = true;
  return false;
}

// The reading ends at the first line at or past `until` (in replay order):
// the lines read behind it, not judged yet, are past it too and never
// handed out. The kept lines held to spread their second stay (read_ahead).
void TraceReader::stop_at_until() {
  counts_.past_until = 1 + ended_lines_.lines.size() + (ended_lines_.have_ahead ? 1 : 0) + held_.size();
  ended_lines_ = Spread{};
  held_.clear();
  ended_ = true;
}

std::uint64_t TraceReader::read_ahead() const {
  auto held = [](const Spread& s) { return s.lines.size() + (s.have_ahead ? 1 : 0); };
  return held(ended_lines_) + held_.size() + held(kept_);
}

// The next of `source`'s lines, those of one second each at i/k of it (log
// time). A second of more than kMaxLinesPerSecond lines (the memory bound) is
// taken in blocks of that many, its total unknown until its last block: a
// block with more lines behind it takes half of what is left of the second,
// as if as many lines again followed, and the last block the rest, each
// block's lines evenly over its share, in log order. So every line of the
// second is in it, later than the one before: 100,000 lines take 65,536 in
// the first half and 34,464 in the second.
bool TraceReader::next_spread(Spread& s, Source source, TraceLine& out) {
  if (s.lines.empty()) {
    TraceLine line;
    if (!s.have_ahead) {
      if (!(this->*source)(line)) return false;
      s.ahead = std::move(line);
      s.more_of_second = false;
    }
    s.have_ahead = false;
    const double second = std::floor(s.ahead.at_s);
    if (!s.more_of_second) s.second_from = 0;  // a new second
    s.more_of_second = false;
    s.lines.push_back(std::move(s.ahead));
    while ((this->*source)(line)) {
      const bool same = std::floor(line.at_s) == second;
      if (!same || s.lines.size() == kMaxLinesPerSecond) {
        s.ahead = std::move(line);
        s.have_ahead = true;
        s.more_of_second = same;
        break;
      }
      s.lines.push_back(std::move(line));
    }
    const double share = s.more_of_second ? (1 - s.second_from) / 2 : 1 - s.second_from;
    const double k = static_cast<double>(s.lines.size());
    for (std::size_t i = 0; i < s.lines.size(); ++i)
      s.lines[i].at_s = second + s.second_from + share * static_cast<double>(i) / k;
    s.second_from += share;
  }
  out = std::move(s.lines.front());
  s.lines.pop_front();
  return true;
}

bool TraceReader::next(TraceLine& out) {
  // With $request_time the seconds were spread before it was taken off (next_ended).
  if (format_.precise_time() || format_.has_request_time()) {
    if (!next_kept(out)) return false;
  } else if (!next_spread(kept_, &TraceReader::next_kept, out)) {
    return false;
  }
  out.at_s = std::max(0.0, out.at_s - first_s_ - spec_.from_s) / spec_.speed;
  return true;
}

TraceWindowFigures window_figures(const TraceWindow& w, double start_s) {
  TraceWindowFigures f;
  f.start_s = start_s;
  f.due = w.due;
  f.responses = w.latency.count();
  f.logged = w.logged.count();
  auto two = [](const sim::LatencyStats& s, double& p50, double& p99) {
    if (s.count() == 0) return;
    p50 = s.percentile(50);
    p99 = s.percentile(99);
  };
  two(w.latency, f.latency_p50_s, f.latency_p99_s);
  two(w.ttfb, f.ttfb_p50_s, f.ttfb_p99_s);
  two(w.request_time, f.request_time_p50_s, f.request_time_p99_s);
  two(w.logged, f.logged_p50_s, f.logged_p99_s);
  return f;
}

std::string nothing_parsed(const std::string& file, const TraceCounts& c) {
  if (c.kept > 0) return "";
  if (c.lines == 0) return "the access log '" + file + "' has no lines";
  if (c.malformed == c.lines)
    return "no line of the access log '" + file + "' matches log_format (" + std::to_string(c.malformed) +
           " lines; line " + std::to_string(c.first_malformed_line) + ": " + c.first_malformed_why + ")";
  return "no line of the access log '" + file + "' is replayed: " + std::to_string(c.before_window) +
         " before from, " + std::to_string(c.sampled_out) + " sampled out" +
         (c.past_until ? ", the rest at or past until" : "") + ", " + std::to_string(c.malformed) + " malformed";
}

namespace {

// The top-level directories a tree of `tree`'s shape needs past its own to
// hold `extra` more files, and how many files each holds.
std::uint64_t files_per_top(const std::vector<std::uint32_t>& tree) {
  std::uint64_t per = 1;
  for (std::size_t l = 1; l < tree.size(); ++l) per *= tree[l];
  return per;
}

std::string parent_of(const std::string& path) { return path.substr(0, path.rfind('/')); }

void check_file_count(std::uint64_t files, const std::string& log) {
  if (files > (1u << 30))
    throw common::BadInput("the access log '" + log + "' makes a data set of " + std::to_string(files) +
                             " files, more than [dataset] files allows (2^30)");
}

}  // namespace

TracePlan plan_trace(const TraceSpec& spec, const FilesystemSpec& base, const std::vector<std::uint64_t>& base_sizes,
                     sim::RandomStream sample_rng) {
  std::string error;
  const std::optional<LogFormat> format = LogFormat::compile(spec.log_format, error);
  if (!format) throw std::runtime_error("log_format " + error);
  TraceReader reader(spec, *format, sample_rng);
  std::unordered_map<std::string, std::uint64_t> sizes;  // path: the largest size logged
  TraceLine line;
  while (reader.next(line)) {
    std::uint64_t& s = sizes[line.path];
    s = std::max(s, line.bytes);
  }
  TracePlan plan;
  plan.counts = reader.counts();
  if (const std::string none = nothing_parsed(spec.file, plan.counts); !none.empty()) throw std::runtime_error(none);
  // Sorted, so that file ids follow the paths and not the hash.
  std::map<std::string, std::uint64_t> sorted(sizes.begin(), sizes.end());
  sizes.clear();
  plan.filesystem = base;
  std::vector<std::pair<std::string, std::uint64_t>> added;
  if (spec.dataset == TraceDataset::kAdd) {
    for (auto& [path, bytes] : sorted) {
      const std::int64_t file = resolve_path(base.tree, path);
      if (file >= 0) plan.files.emplace(path, static_cast<std::uint32_t>(file));
      else added.emplace_back(path, bytes);
    }
    if (added.empty()) return plan;
    const std::vector<std::uint32_t> tree = base.tree.empty() ? std::vector<std::uint32_t>{base.files} : base.tree;
    const std::uint64_t per = files_per_top(tree);
    const std::uint64_t tops = (added.size() + per - 1) / per;
    check_file_count(base.files + tops * per, spec.file);
    plan.filesystem.tree = tree;
    plan.filesystem.tree[0] += static_cast<std::uint32_t>(tops);
    plan.filesystem.files = static_cast<std::uint32_t>(base.files + tops * per);
    plan.filesystem.sizes = base_sizes;
  } else {
    std::set<std::string> parents;
    for (const auto& [path, bytes] : sorted) {
      parents.insert(parent_of(path));
      added.emplace_back(path, bytes);
    }
    const std::uint64_t n = added.size(), dirs = parents.size();
    const std::uint64_t fan = (n + dirs - 1) / dirs;
    check_file_count(dirs * fan, spec.file);
    plan.filesystem.tree = dirs <= 1 ? std::vector<std::uint32_t>{static_cast<std::uint32_t>(n)}
                                     : std::vector<std::uint32_t>{static_cast<std::uint32_t>(dirs),
                                                                  static_cast<std::uint32_t>(fan)};
    plan.filesystem.files = static_cast<std::uint32_t>(dirs <= 1 ? n : dirs * fan);
    plan.filesystem.size_mix.clear();
    plan.filesystem.sizes.clear();
  }
  const std::uint32_t first = static_cast<std::uint32_t>(plan.filesystem.sizes.size());
  for (std::size_t i = 0; i < added.size(); ++i) {
    plan.files.emplace(added[i].first, first + static_cast<std::uint32_t>(i));
    plan.filesystem.sizes.push_back(std::max<std::uint64_t>(added[i].second, 1));
  }
  plan.new_files = added.size();
  plan.padding = plan.filesystem.files - plan.filesystem.sizes.size();
  plan.filesystem.sizes.resize(plan.filesystem.files, 1);
  plan.filesystem.file_size = *std::min_element(plan.filesystem.sizes.begin(), plan.filesystem.sizes.end());
  return plan;
}

}  // namespace models
