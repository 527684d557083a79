#include "cli/engine_choice.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

#if defined(CLERK_HAVE_SIMGRID) || defined(CLERK_SIMGRID_HELPER)
#include "engines/simgrid/sg_run.h"
#endif

namespace cli {

namespace {
std::vector<std::string> command_line;
}

void remember_command_line(int argc, char** argv) { command_line.assign(argv, argv + argc); }

std::vector<std::string> engine_cannot_run(const std::string& engine, const models::Scenario& sc) {
  if (engine != "simgrid") return {};
#if defined(CLERK_HAVE_SIMGRID) || defined(CLERK_SIMGRID_HELPER)
  return sgengine::unsupported(sc);
#else
  (void)sc;
  return {"this clerk was built without SimGrid (install libsimgrid-dev, then rebuild)"};
#endif
}

#if defined(CLERK_HAVE_SIMGRID)

models::RunResult run_on_simgrid(const models::Scenario& sc, std::uint64_t seed, double duration_s) {
  return sgengine::run(sc, seed, duration_s);
}

nlohmann::ordered_json simgrid_json(const models::Scenario& sc) {
  return sgengine::run_in_child(sc, sc.seed, sc.duration_s);
}

#elif defined(CLERK_SIMGRID_HELPER)

namespace {
std::vector<char*> c_args(std::vector<std::string>& args) {
  std::vector<char*> out;
  for (std::string& a : args) out.push_back(a.data());
  out.push_back(nullptr);
  return out;
}
}  // namespace

models::RunResult run_on_simgrid(const models::Scenario&, std::uint64_t, double) {
  std::vector<std::string> args = command_line;
  args.at(0) = CLERK_SIMGRID_HELPER;
  std::fflush(nullptr);
  ::execv(CLERK_SIMGRID_HELPER, c_args(args).data());
  throw std::runtime_error(std::string("cannot run ") + CLERK_SIMGRID_HELPER);
}

nlohmann::ordered_json simgrid_json(const models::Scenario& sc) {
  char path[] = "/tmp/clerk-simgrid-XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file");
  ::close(fd);
  std::vector<std::string> args = {CLERK_SIMGRID_HELPER, "run", sc.file, "--engine", "simgrid", "-q", "--json", path};
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("cannot fork");
  if (pid == 0) {
    ::execv(CLERK_SIMGRID_HELPER, c_args(args).data());
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("the SimGrid run failed (clerk-simgrid exit status " + std::to_string(status) + ")");
  return nlohmann::ordered_json::parse(text.str());
}

#else

models::RunResult run_on_simgrid(const models::Scenario&, std::uint64_t, double) {
  throw std::logic_error("built without SimGrid");
}

nlohmann::ordered_json simgrid_json(const models::Scenario&) { throw std::logic_error("built without SimGrid"); }

#endif

}  // namespace cli
