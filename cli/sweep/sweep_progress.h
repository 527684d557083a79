// The progress bar on stderr: runs done of the total, runs per second and
// the time left. Drawn only when stderr is a terminal, at most ten times a
// second, so logs and CI output stay clean.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>

namespace cli::sweep {

class Progress {
 public:
  // `done`: runs finished before this start (a resumed sweep's).
  Progress(std::uint64_t total, std::uint64_t done, bool draw);
  void advance();  // one more run finished
  void finish();
  std::uint64_t done() const { return done_; }
  double elapsed_s() const;
  double rate() const;  // runs per second in this start

 private:
  void draw(bool force);
  std::uint64_t total_, done_, start_done_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace cli::sweep
