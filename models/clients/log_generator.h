// Sample access logs for trace replay (trace.h), so that the README and the
// tests need no real log: NGINX's combined format (log_format.h), one line
// per request, deterministic byte for byte for a seed.
//
// - Files: `files` paths, /g/DDD/NNNNNN.dat (100 to a directory), each with
//   a size drawn from `sizes` (draw_file_sizes, filesystem.h: a class by
//   weight, then a size in its range).
// - Popularity: a Zipf law of exponent `zipf_exponent` over the files in a
//   random order (popularity.h: popularity_ranking, Walker's alias table);
//   Breslau et al. (INFOCOM 1999) found web requests Zipf-like with
//   exponents from 0.64 to 0.83.
// - Arrivals: a Poisson process of rate r(t) = rate (1 + amplitude
//   sin(2 pi t / period)), a diurnal cycle (amplitude 0: constant), drawn by
//   thinning (Lewis and Shedler, 1979): candidates at the peak rate, each
//   kept with probability r(t) / peak.
// - Each line: a client address from 10.0.0.0/16 by draw, the time in
//   $time_local (UTC, one-second resolution, as NGINX writes it), "GET path
//   HTTP/1.1", 200, the file's size, "-" and a fixed user agent.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "models/os/filesystem.h"

namespace models {

struct LogGenSpec {
  double duration_s = 600;
  double rate = 100;              // mean requests a second
  double amplitude = 0;           // 0 to 1
  double period_s = 86400;
  std::uint32_t files = 10000;
  double zipf_exponent = 0.8;
  std::vector<SizeClass> sizes = {SizeClass(1024, 16 * 1024, 0.7), SizeClass(16 * 1024, 256 * 1024, 0.25),
                                  SizeClass(256 * 1024, 4 * 1024 * 1024, 0.05)};
  std::uint64_t seed = 1;
  double start_epoch_s = 1767225600;  // 2026-01-01T00:00:00Z
};

// The generator's files, in file order: path, size, and the probability a
// request asks for it.
struct GeneratedFile {
  std::string path;
  std::uint64_t bytes;
  double probability;
};
std::vector<GeneratedFile> generated_files(const LogGenSpec& spec);

// The expected number of requests: the integral of r(t) over the duration.
double expected_requests(const LogGenSpec& spec);

// Writes the log; returns the number of lines.
std::uint64_t generate_log(const LogGenSpec& spec, std::ostream& out);

// "dd/Mon/yyyy:HH:MM:SS +0000" of a UTC time.
std::string time_local_text(std::int64_t epoch_s);

}  // namespace models
