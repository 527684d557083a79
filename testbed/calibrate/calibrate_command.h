// `clerk calibrate` without its command line (cli/calibrate_command.cpp
// parses that): measure this machine into a hardware profile.
#pragma once
#include <string>

namespace testbed {

struct CalibrateRequest {
  std::string out = "scenarios/hardware/local.toml";
  std::string data = "/var/tmp/clerk-data";
  bool quick = false;
  bool keep = false;
  bool pacing = false;  // only the loopback pacing experiment (loopback_pacing.h): printed, no profile written
};

// Exit status: 0 written, 2 bad input or a tool, the disk or the kernel
// failed, 3 internal error, 130 interrupted (SIGINT, SIGTERM, SIGHUP), as
// clerk realrun; every exception is caught here.
int calibrate_command(const CalibrateRequest& request);

}  // namespace testbed
