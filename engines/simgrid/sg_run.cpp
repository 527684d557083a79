#include "engines/simgrid/sg_run.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

#include "engines/simgrid/sg_world.h"
#include "models/scenario/limits.h"
#include "models/scenario/result_json.h"

namespace sgengine {

models::RunResult run(const models::Scenario& sc, std::uint64_t seed, double duration_s) {
  // SimGrid's clock is a double in seconds: a run longer than the models'
  // nanosecond clock can hold would end at a time no sim::Time represents.
  models::limits::check_run_duration(duration_s, "duration");
  const auto t0 = std::chrono::steady_clock::now();
  SgWorld world(sc, seed, duration_s);
  world.run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return world.result(wall);
}

namespace {

bool write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

nlohmann::ordered_json run_in_child(const models::Scenario& sc, std::uint64_t seed, double duration_s) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("simgrid engine: cannot create a pipe");
  std::fflush(nullptr);  // nothing buffered may be written twice
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("simgrid engine: cannot fork");
  if (pid == 0) {
    ::close(fds[0]);
    int status = 0;
    try {
      const std::string json = models::to_json(run(sc, seed, duration_s), true).dump();
      if (!write_all(fds[1], json)) status = 3;
    } catch (const std::exception& e) {
      write_all(fds[1], std::string("\x01") + e.what());
      status = 4;
    }
    ::close(fds[1]);
    ::_exit(status);
  }
  ::close(fds[1]);
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!out.empty() && out[0] == '\x01') throw std::runtime_error("simgrid engine: " + out.substr(1));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("simgrid engine: the run's process failed (status " + std::to_string(status) + ")");
  return nlohmann::ordered_json::parse(out);
}

}  // namespace sgengine
