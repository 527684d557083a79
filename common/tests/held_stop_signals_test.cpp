// Stop signals held while the writer has a temporary file (probe 5, finding
// 4), and outputs written together, all or none (finding 9). Each signal is
// raised in a forked child, whose end the parent reads.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>

#include "common/output_file.h"
#include "common/stop_signals.h"

namespace fs = std::filesystem;

namespace {

// Runs `body` in a child; its wait status. `body` returns the child's exit code.
int status_of(const std::function<int()>& body) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // As in clerk: the default actions (Catch2's own handlers would report
    // the child's signal as a failure of the test).
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, SIG_DFL);
    int code = 99;
    try {
      code = body();
    } catch (...) {
    }
    ::_exit(code);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return status;
}

bool killed_by(int status, int sig) { return WIFSIGNALED(status) && WTERMSIG(status) == sig; }
bool exited(int status, int code) { return WIFEXITED(status) && WEXITSTATUS(status) == code; }

std::string text_of(const fs::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Folder {
  fs::path path = fs::temp_directory_path() / ("clerk-output-set-test-" + std::to_string(::getpid()));
  Folder() { fs::create_directories(path); }
  ~Folder() { fs::remove_all(path); }
  std::size_t entries() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(path), {})); }
};

}  // namespace

TEST_CASE("output temporaries: a stop signal during a hold ends the process when the hold ends", "[output_set]") {
  // Alive inside the hold (exit 3 would say the signal was lost), killed at its end.
  CHECK(killed_by(status_of([] {
                    {
                      common::HeldStopSignals hold;
                      std::raise(SIGTERM);
                      if (!hold.stop_noted()) return 4;
                    }
                    return 3;
                  }),
                  SIGTERM));
  // Nested: the inner hold's end raises nothing; the outer's does.
  CHECK(killed_by(status_of([] {
                    common::HeldStopSignals outer;
                    {
                      common::HeldStopSignals inner;
                      std::raise(SIGINT);
                    }
                    if (outer.release() != 0) return 3;  // unreachable: SIGINT's default ends the process
                    return 5;
                  }),
                  SIGINT));
  // A signal ignored before (nohup) stays ignored.
  CHECK(exited(status_of([] {
                 std::signal(SIGHUP, SIG_IGN);
                 common::HeldStopSignals hold;
                 std::raise(SIGHUP);
                 return hold.stop_noted() ? 4 : 0;
               }),
               0));
  // Inside a DeferredStopSignals guard the hold sees the signal (the holder
  // gives up) but raises nothing: the guard's command does, once it is gone.
  CHECK(exited(status_of([] {
                 const common::DeferredStopSignals guard;
                 {
                   common::HeldStopSignals hold;
                   std::raise(SIGTERM);
                   if (!hold.stop_noted()) return 4;
                   if (hold.release() != SIGTERM) return 6;
                 }
                 return common::take_stop_signal() == SIGTERM ? 0 : 5;
               }),
               0));
  // A handler that lets the process live on: release() says which signal it raised.
  CHECK(exited(status_of([] {
                 static volatile std::sig_atomic_t seen = 0;
                 std::signal(SIGTERM, [](int) { seen = 1; });
                 common::HeldStopSignals hold;
                 std::raise(SIGTERM);
                 if (seen) return 4;  // not yet: held
                 return hold.release() == SIGTERM && seen ? 0 : 5;
               }),
               0));
}

TEST_CASE("output set: every output written together, or none replaced", "[output_set]") {
  Folder dir;
  const std::string a = (dir.path / "a.json").string(), b = (dir.path / "b.svg").string();
  std::ofstream(a) << "old";
  {
    common::OutputSet set;
    set.add(a, "new a");
    set.add(b, "new b");
    set.write();
  }
  CHECK(text_of(a) == "new a");
  CHECK(text_of(b) == "new b");
  // A special file that fails (a link to /dev/full): written first, so nothing else is.
  fs::create_symlink("/dev/full", dir.path / "full.png");
  {
    common::OutputSet set;
    set.add(a, "newer a");
    set.add((dir.path / "full.png").string(), "x");
    set.add((dir.path / "c.json").string(), "c");
    try {
      set.write();
      FAIL("a write onto /dev/full passed");
    } catch (const common::OutputError& e) {
      CHECK(e.path().find("full.png") != std::string::npos);
      CHECK(e.reason().find("No space left") != std::string::npos);
    }
  }
  CHECK(text_of(a) == "new a");
  CHECK_FALSE(fs::exists(dir.path / "c.json"));
  CHECK(dir.entries() == 3);  // a.json, b.svg, the link: no temporary
  // A regular output whose temporary cannot be made (/proc takes no file):
  // the one staged before it is removed, not renamed.
  {
    common::OutputSet set;
    set.add(a, "newest a");
    set.add("/proc/clerk-output-set-test.json", "x");
    CHECK_THROWS_AS(set.write(), common::OutputError);
  }
  CHECK(text_of(a) == "new a");
  CHECK(dir.entries() == 3);
}

// A signal at one of several moments of a set's write (the shell test,
// tests/stop_signal_outputs_test.sh, signals at each temporary exactly):
// whatever the moment, no temporary is left, and the first output is the old
// one with the second absent, or both are the new ones.
TEST_CASE("output set: a stop signal at any moment leaves no temporary and a whole set or none", "[output_set]") {
  for (const useconds_t delay : {0u, 300u, 1000u, 3000u, 10000u, 30000u, 100000u}) {
    Folder dir;
    const std::string a = (dir.path / "a.json").string(), b = (dir.path / "b.json").string();
    std::ofstream(a) << "old";
    const std::string big(std::size_t{32} << 20, 'x');
    const int status = status_of([&] {
      std::signal(SIGALRM, [](int) { ::kill(::getpid(), SIGTERM); });  // kill() is async-signal-safe
      common::OutputSet set;
      set.add(a, big);
      set.add(b, "b");
      if (delay) ::ualarm(delay, 0);
      else ::kill(::getpid(), SIGALRM);
      set.write();
      return 3;  // written before the signal came
    });
    INFO("signal after " << delay << " us");
    CHECK((killed_by(status, SIGTERM) || exited(status, 3)));
    for (const auto& e : fs::directory_iterator(dir.path)) CHECK(e.path().filename().string().front() != '.');
    if (fs::exists(b)) CHECK(text_of(a) == big);
    else CHECK(text_of(a) == "old");
  }
}

// Review of probe 5's fixes, finding 5: calibrate and realrun put a handler of
// their own in place (note the Ctrl-C, stop their children, go on to save
// what they finished, exit 130). A signal during a write under such a
// handler finishes the write, and the handler runs once it is done; under
// the default action the same signal removes the temporary, replaces nothing
// and ends the process. The signal is sent while an outer hold lives (as a
// Ctrl-C during the write's own hold would be), so the moment is certain.
TEST_CASE("output temporaries: under the program's own stop handler a write finishes, then the handler runs",
          "[output_set]") {
  Folder dir;
  const std::string a = (dir.path / "profile.toml").string();
  const std::string b = (dir.path / "other.json").string();
  std::ofstream(a) << "old";
  static volatile std::sig_atomic_t seen = 0;
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    CHECK(exited(status_of([&] {
                   std::signal(sig, [](int) { seen = 1; });
                   common::HeldStopSignals outer;
                   std::raise(sig);
                   if (outer.stopping()) return 4;  // the program's own handler: not stopping
                   common::OutputSet set;
                   set.add(a, "finished");
                   set.add(b, "too");
                   set.write();  // threw "stopped by signal" before the fix
                   if (seen) return 5;  // held until the hold ends
                   outer.release();
                   return seen ? 0 : 6;
                 }),
                 0));
    CHECK(text_of(a) == "finished");
    CHECK(text_of(b) == "too");
    std::ofstream(a) << "old";
    fs::remove(b);
  }
  // clerk new's writer too: the new name is made, then the handler runs.
  const std::string n = (dir.path / "new.toml").string();
  CHECK(exited(status_of([&] {
                 std::signal(SIGINT, [](int) { seen = 1; });
                 common::HeldStopSignals outer;
                 std::raise(SIGINT);
                 common::write_new_file(n, "new");
                 outer.release();
                 return seen ? 0 : 6;
               }),
               0));
  CHECK(text_of(n) == "new");
  CHECK_THROWS_AS(common::write_new_file(n, "again"), common::OutputExists);  // never replaced
  CHECK(text_of(n) == "new");
  // The default action: nothing replaced, no temporary, the process ends.
  CHECK(killed_by(status_of([&] {
                    common::HeldStopSignals outer;
                    std::raise(SIGTERM);
                    if (!outer.stopping()) return 4;
                    try {
                      common::write_file_atomically(a, "finished");
                    } catch (const common::OutputError&) {
                      return 7;  // given up; the outer hold's end then raises the signal
                    }
                    return 3;
                  }),
                  SIGTERM));
  CHECK(text_of(a) == "old");
  for (const auto& e : fs::directory_iterator(dir.path)) CHECK(e.path().filename().string().front() != '.');
}
