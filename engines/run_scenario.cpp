#include "engines/run_scenario.h"

#include <chrono>
#include <stdexcept>

#include "models/scenario/resource_estimate.h"
#include "models/scenario/result_json.h"
#include "models/scenario/world.h"

namespace engines {

namespace {

std::vector<std::string> not_built(const models::Scenario&) {
  return {"this program was built without SimGrid (install libsimgrid-dev, then rebuild)"};
}
models::RunResult no_run(const models::Scenario&, std::uint64_t, double) {
  throw std::logic_error("the SimGrid engine is not available in this program");
}
nlohmann::ordered_json no_json(const models::Scenario&, std::uint64_t, double) {
  throw std::logic_error("the SimGrid engine is not available in this program");
}

SimGridBackend g_simgrid{not_built, no_run, no_json};

models::RunResult run_native(const models::Scenario& sc, const RunRequest& request) {
  const auto t0 = std::chrono::steady_clock::now();
  models::World world(sc, request.seed, request.duration_s);
  if (request.hooks.built) request.hooks.built();
  world.run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (request.hooks.ran) request.hooks.ran(world);
  return world.result(wall);
}

}  // namespace

Engine parse_engine(std::string_view name) {
  if (name == "native") return Engine::kNative;
  if (name == "simgrid") return Engine::kSimGrid;
  throw std::invalid_argument("unknown engine '" + std::string(name) + "': native or simgrid");
}

std::string_view engine_name(Engine engine) {
  switch (engine) {
    case Engine::kNative:
      return "native";
    case Engine::kSimGrid:
      return "simgrid";
  }
  return "?";
}

RunRequest as_written(const models::Scenario& sc, Engine engine) { return {sc.seed, sc.duration_s, engine, {}}; }

std::vector<std::string> cannot_run(const models::Scenario& sc, Engine engine) {
  switch (engine) {
    case Engine::kNative:
      return {};
    case Engine::kSimGrid:
      return g_simgrid.cannot_run(sc);
  }
  return {};
}

models::RunResult run_scenario(const models::Scenario& sc, const RunRequest& request) {
  models::check_fits_machine(sc, request.duration_s, sc.file);
  switch (request.engine) {
    case Engine::kNative:
      return run_native(sc, request);
    case Engine::kSimGrid:
      return g_simgrid.run(sc, request.seed, request.duration_s);
  }
  throw std::logic_error("unknown engine");
}

nlohmann::ordered_json run_scenario_json(const models::Scenario& sc, const RunRequest& request) {
  models::check_fits_machine(sc, request.duration_s, sc.file);
  switch (request.engine) {
    case Engine::kNative:
      return models::to_json(run_native(sc, request), true);
    case Engine::kSimGrid:
      return g_simgrid.run_json(sc, request.seed, request.duration_s);
  }
  throw std::logic_error("unknown engine");
}

void use_simgrid(const SimGridBackend& backend) { g_simgrid = backend; }

}  // namespace engines
