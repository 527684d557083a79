#include "cli/engine_choice.h"

#include <stdexcept>

#ifdef CLERK_HAVE_SIMGRID
#include "engines/simgrid/sg_run.h"
#endif

namespace cli {

std::vector<std::string> engine_cannot_run(const std::string& engine, const models::Scenario& sc) {
  if (engine != "simgrid") return {};
#ifdef CLERK_HAVE_SIMGRID
  return sgengine::unsupported(sc);
#else
  (void)sc;
  return {"this clerk was built without SimGrid (install libsimgrid-dev, then rebuild)"};
#endif
}

models::RunResult run_on_simgrid(const models::Scenario& sc, std::uint64_t seed, double duration_s) {
#ifdef CLERK_HAVE_SIMGRID
  return sgengine::run(sc, seed, duration_s);
#else
  (void)sc, (void)seed, (void)duration_s;
  throw std::logic_error("built without SimGrid");
#endif
}

nlohmann::ordered_json simgrid_json(const models::Scenario& sc) {
#ifdef CLERK_HAVE_SIMGRID
  return sgengine::run_in_child(sc, sc.seed, sc.duration_s);
#else
  (void)sc;
  throw std::logic_error("built without SimGrid");
#endif
}

}  // namespace cli
