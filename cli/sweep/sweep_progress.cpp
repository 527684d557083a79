#include "cli/sweep/sweep_progress.h"

#include <fmt/format.h>
#include <string>

namespace cli::sweep {

namespace {

std::string clock_text(double s) {
  const auto t = static_cast<std::uint64_t>(s + 0.5);
  if (t >= 3600) return fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60);
  return fmt::format("{}:{:02}", t / 60, t % 60);
}

}  // namespace

Progress::Progress(std::uint64_t total, std::uint64_t done, bool draw)
    : total_(total), done_(done), start_done_(done), enabled_(draw), start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {
  this->draw(true);
}

double Progress::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double Progress::rate() const {
  const double t = elapsed_s();
  return t > 0 ? static_cast<double>(done_ - start_done_) / t : 0;
}

void Progress::advance() {
  ++done_;
  draw(done_ == total_);
}

void Progress::finish() {
  if (enabled_) std::fputc('\n', stderr);
  enabled_ = false;
}

void Progress::draw(bool force) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  constexpr int kWidth = 30;
  const double frac = total_ ? static_cast<double>(done_) / static_cast<double>(total_) : 1;
  const int filled = static_cast<int>(frac * kWidth);
  const double r = rate();
  const std::string left = r > 0 ? clock_text(static_cast<double>(total_ - done_) / r) : "-";
  const std::string bar = std::string(static_cast<std::size_t>(filled), '#') + std::string(kWidth - filled, '.');
  std::fputs(fmt::format("\r[{}] {}/{} {:3.0f}%  {:.1f} runs/s  {} left   ", bar, done_, total_, frac * 100, r, left).c_str(),
             stderr);
  std::fflush(stderr);
}

}  // namespace cli::sweep
