// `clerk realrun` without its command line (cli/realrun_command.cpp parses
// that): real servers and real wrk, beside the simulator's prediction.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace testbed {

struct RealrunRequest {
  std::vector<std::string> files;
  std::string server = "nginx";  // nginx, clerk-serve or both
  unsigned repeat = 3;
  double duration_s = 0;  // 0: the scenario's
  std::string hardware;
  std::string data_dir = "/var/tmp/clerk-data";
  std::uint16_t port = 18080;
  std::string json_path;
  std::vector<std::string> overrides;
  std::string serve_binary;  // "": the clerk-serve built beside clerk
  std::string disk = "real";  // real, or emulated: clerk-disk's mount of the scenario's disk (emulated_disk.h)
  std::string disk_binary;    // "": the clerk-disk built beside clerk
  bool check = false;
  bool verbose = false;
};

// Exit status: 0 ok, 1 failed (or --check missed), 2 bad input, 3 internal
// error, 130 interrupted; every exception is caught here.
int realrun_command(const RealrunRequest& request);

}  // namespace testbed
