// A client group that replays an access log (`[clients.NAME] trace`): an
// open loop whose arrival times, paths and response sizes come from the log
// (log_format.h), over the group's keep-alive connections. A request falls
// due at its line's time (relative to the replay's first line, divided by
// `speed`); it goes out on an idle connection, else waits for one, and its
// latency counts from when it was due, as wrk2's do.
//
// The log is read as a stream, one line at a time, twice per run: once when
// the run is built, to learn the distinct paths and their sizes (the data
// set, below), once as the replay goes. Memory is bounded by the distinct
// paths and by the lines of one second, never by the log's length. A line
// longer than kMaxLineBytes, or one that does not match the format, is
// skipped and counted (the first one's line number and reason reported).
//
// What the log cannot say, and what the replay takes in its place:
// - NGINX writes a line when the response ends ($msec, $time_local are the
//   log time, ngx_http_log_handler), and $request_time is the time since
//   the request's first bytes were read (ngx_http_log_request_time: now
//   minus r->start_msec). With $request_time in the format, a request
//   arrives at its logged time minus its $request_time ("-" counts as 0),
//   and the lines are replayed in arrival order through a reorder buffer:
//   a line leaves it once no later line can arrive earlier, that is once
//   its arrival is at least the largest $request_time seen before the
//   newest logged time. The buffer holds at most kMaxReorderLines lines
//   (the memory bound); past it the earliest leaves at once. Without
//   $request_time the logged time is the arrival, so each request is late
//   by its own response time.
// - $time_local has one-second resolution: the lines of one second are
//   spread evenly over it, in log order (line i of k at i/k s), before
//   $request_time is taken off (a second of more than kMaxLinesPerSecond
//   lines, in blocks, in order: see there). $msec is used as it is.
// - A line earlier than the one before it (lines are written as requests
//   end; with $request_time, one whose arrival comes after the buffer let
//   a later one go) is replayed at the earlier line's time, in order.
// - Every line asks for its path as a GET of the whole file: the file's size
//   is the largest size the log gives for the path (a 304 or a range logs
//   less); a path logged only with 0 bytes is a 1-byte file.
//
// The data set (`dataset`): "add" keeps the scenario's files and maps a
// path of them ("/1/1/1") to its file; every other path becomes a new file
// of its logged size, in new top-level directories of the data set's tree
// shape. "log": the data set is the log's paths alone, in a tree of as many
// top-level directories as the paths have distinct parent directories, the
// paths in sorted order so that a directory's files sit together. Both fill
// the last directory with 1-byte files that nobody asks for, as the tree's
// levels have equal fan-out (filesystem.h).
//
// Sampling keeps each line of the window with probability `sample`, drawn
// from the group's own stream (kStreamTrace in stream_ids.h), the same
// numbers for the scan and the replay.
#pragma once
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/unique_fd.h"
#include "models/clients/log_format.h"
#include "models/os/filesystem.h"
#include "sim/latency_stats.h"
#include "sim/random.h"
#include "sim/time.h"

namespace models {

// The streams a trace group samples its lines from: (kTraceSampleStreams,
// group_stream_index(name)), the same for the scan and the replay.
constexpr std::uint64_t kTraceSampleStreams = 0x7472'6300;  // "trc"

inline constexpr std::size_t kMaxLineBytes = 64 * 1024;
// Lines of one second held to spread them over it; a second with more is
// taken in blocks of this many, each block with more behind it spread over
// half of what the second has left, the last block over the rest (in order).
inline constexpr std::size_t kMaxLinesPerSecond = 1 << 16;
// Lines held to put arrivals in order ($request_time in the format).
inline constexpr std::size_t kMaxReorderLines = 1 << 16;

enum class TraceDataset { kAdd, kLog };

struct TraceSpec {
  std::string file;  // resolved against the scenario's directory
  std::string log_format = kCombinedLogFormat;
  double speed = 1;             // log seconds per simulated second
  double from_s = 0;            // the window, from the log's first line
  double until_s = 1e18;
  double sample = 1;            // the share of the window's lines kept
  double window_s = 10;         // the report's windows
  TraceDataset dataset = TraceDataset::kAdd;
  std::string key_file;  // where the trace key was given, for errors found when the run is built
  int key_line = 0;
  // Set when the run is built (plan_trace): each path's file, and how many
  // files were made for the log.
  std::shared_ptr<const std::unordered_map<std::string, std::uint32_t>> files;
  std::uint64_t new_files = 0, padding = 0;
  bool enabled() const { return !file.empty(); }
};

// What became of the log's lines, as the reader judged them. Every line read
// is in one place: lines = malformed + before_window + sampled_out +
// past_until + (handed out by next()) + TraceReader::read_ahead() (those
// read and not handed out yet: some kept and held to spread their second,
// the others not judged yet). `kept` are lines of the window handed on, or
// held to be, to the replay or to the scan; the replay tells which of them
// fell due (TraceResult).
struct TraceCounts {
  std::uint64_t lines = 0;        // read
  std::uint64_t malformed = 0;    // skipped: not the format, or too long
  std::uint64_t first_malformed_line = 0;
  std::string first_malformed_why;
  std::uint64_t before_window = 0;  // before `from`
  std::uint64_t sampled_out = 0;
  std::uint64_t kept = 0;           // in the window and the sample: handed on, or held to be (read_ahead)
  // At or past `until`: the line that ended the reading, and the lines read
  // ahead behind it (arrival order, or the rest of its second).
  std::uint64_t past_until = 0;
  std::uint64_t reordered = 0;      // earlier than the line before
  std::uint64_t reorder_held_peak = 0;  // the most lines the reorder buffer held at once
};

struct TraceLine {
  double at_s = 0;            // simulated seconds from the replay's start
  std::string path;
  std::uint64_t bytes = 0;
  double request_time_s = -1; // the log's $request_time, negative when absent
};

class TraceReader {
 public:
  // Opens the log (a ConfigError-worthy std::runtime_error when it cannot);
  // `format` compiled from spec.log_format.
  TraceReader(const TraceSpec& spec, const LogFormat& format, sim::RandomStream sample_rng);
  ~TraceReader();
  TraceReader(const TraceReader&) = delete;
  TraceReader& operator=(const TraceReader&) = delete;

  // The next kept line, in replay order; false at the log's (or window's) end.
  bool next(TraceLine& out);
  const TraceCounts& counts() const { return counts_; }
  // Lines read and not handed out by next() yet, held to spread a second or
  // to put arrivals in order: some already kept, the others not judged yet.
  std::uint64_t read_ahead() const;

 private:
  // One second's lines spread over it (log order), and the line read ahead of the next second.
  struct Spread {
    std::deque<TraceLine> lines;
    TraceLine ahead;
    bool have_ahead = false;
    bool more_of_second = false;  // `ahead` is more of the second just spread (past kMaxLinesPerSecond)
    double second_from = 0;       // where in its second the next block starts (0 for a new second)
  };
  struct Held {  // a line in the reorder buffer
    TraceLine line;
    std::uint64_t seq = 0;  // log order, for equal arrivals
  };
  using Source = bool (TraceReader::*)(TraceLine&);

  bool read_line(std::string& line);  // false at end of file
  bool next_parsed(TraceLine& out);   // the next line that parses, its time the log's
  bool next_ended(TraceLine& out);    // the same, $time_local spread over its second
  bool next_arrival(TraceLine& out);  // the next line in arrival order (reorder buffer)
  bool next_kept(TraceLine& out);     // the next kept line, its time the log's (or arrival)
  bool next_spread(Spread& s, Source source, TraceLine& out);  // `source`'s lines, each second spread
  void stop_at_until();  // a line at or past `until`: it and the unjudged lines behind it counted, dropped

  TraceSpec spec_;
  const LogFormat& format_;
  sim::RandomStream rng_;
  common::UniqueFd fd_;  // O_NONBLOCK (common/input_file.h): a log that blocks is refused, not waited on
  std::vector<char> buffer_;
  std::size_t pos_ = 0;  // the next unread byte of buffer_
  TraceCounts counts_;
  bool have_first_ = false;
  double first_s_ = 0;
  double last_s_ = -1e300;
  bool ended_ = false;
  Spread kept_;   // kept lines, spread (no $request_time)
  Spread ended_lines_;  // parsed lines, spread before $request_time is taken off
  std::vector<Held> held_;  // the reorder buffer, a min-heap by arrival
  std::uint64_t held_seq_ = 0;
  double newest_end_s_ = -1e300;   // the latest logged time read
  double longest_s_ = 0;           // the largest $request_time read
  bool parsed_all_ = false;
};

// One window of the replay (by when requests fell due): the simulated
// latency, TTFB and NGINX $request_time of the requests due in it, beside
// the $request_time the log gave for the same lines.
struct TraceWindow {
  std::uint64_t due = 0;
  sim::LatencyStats latency, ttfb, request_time, logged;
};

struct TraceWindowFigures {
  double start_s = 0;
  std::uint64_t due = 0, responses = 0, logged = 0;
  double latency_p50_s = NAN, latency_p99_s = NAN, ttfb_p50_s = NAN, ttfb_p99_s = NAN;
  double request_time_p50_s = NAN, request_time_p99_s = NAN;  // the simulated NGINX's
  double logged_p50_s = NAN, logged_p99_s = NAN;              // the log's
};
TraceWindowFigures window_figures(const TraceWindow& w, double start_s);

// What a trace group reports beside wrk's figures.
// Every line read is in one count: counts.lines = counts.malformed +
// counts.before_window + counts.sampled_out + counts.past_until + replayed +
// not_due_at_end. Each line replayed is one request issued (WrkResult::
// issued), so replayed = complete + failed + in_flight at the end, and the
// `waiting` are among those in flight.
struct TraceResult {
  TraceCounts counts;
  std::uint64_t replayed = 0;        // fell due before the run ended: each one request
  std::uint64_t not_due_at_end = 0;  // read (kept or not judged yet), not due when the run ended
  bool log_finished = false;   // every kept line fell due before the run ended (not_due_at_end = 0)
  std::uint64_t waiting = 0;   // due at the end, no connection free to send them
  sim::LatencyStats logged;    // the log's $request_time of the lines replayed
  std::vector<TraceWindowFigures> windows;
};

// The data set a trace group asks for: the distinct paths, each with its
// file; and the data set grown (or replaced) to hold them.
struct TracePlan {
  std::unordered_map<std::string, std::uint32_t> files;
  FilesystemSpec filesystem;
  std::uint64_t new_files = 0;    // files made for the log's paths
  std::uint64_t padding = 0;      // 1-byte files that fill the tree
  TraceCounts counts;             // of the scan
};

// Reads the whole log once (as a stream) and plans the data set: `spec`'s
// dataset mode over `base`, whose files have the sizes `base_sizes`
// (draw_file_sizes). Throws std::runtime_error naming the file and, when no
// line parses, the first line's reason.
TracePlan plan_trace(const TraceSpec& spec, const FilesystemSpec& base, const std::vector<std::uint64_t>& base_sizes,
                     sim::RandomStream sample_rng);

// Why nothing of the log would be replayed ("no line matches log_format;
// line 1: ...", or how many lines the window and the sampling left out);
// empty when a line was kept.
std::string nothing_parsed(const std::string& file, const TraceCounts& c);

}  // namespace models
