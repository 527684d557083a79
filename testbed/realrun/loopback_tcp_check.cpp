#include "testbed/realrun/loopback_tcp_check.h"

#include <fmt/format.h>

#include "models/os/tcp_pacing.h"

namespace testbed {

namespace {
bool differs(const std::string& profile, const std::string& running) {
  return !profile.empty() && !running.empty() && profile != running;
}
}  // namespace

std::string describe_loopback_tcp(const std::string& congestion_control, const std::string& lo_qdisc) {
  const std::string cc = congestion_control.empty() ? "unknown" : congestion_control;
  const std::string q = lo_qdisc.empty() ? "unknown" : lo_qdisc;
  const std::string pacing = congestion_control.empty() || lo_qdisc.empty()
                                 ? models::describe_pacing("")
                                 : models::describe_pacing(models::loopback_pacing(congestion_control, lo_qdisc));
  return fmt::format("TCP {} on lo's {} qdisc ({})", cc, q, pacing);
}

std::string loopback_tcp_warning(const models::KernelSpec& profile, const common::LoopbackTcp& running) {
  if (!differs(profile.tcp_congestion_control, running.congestion_control) &&
      !differs(profile.lo_qdisc, running.lo_qdisc))
    return "";
  return fmt::format("warning: this kernel runs {}, but the hardware profile's [cpu] costs were measured under {}: "
                     "the prediction's CPU costs are the profile's, not this kernel's",
                     describe_loopback_tcp(running.congestion_control, running.lo_qdisc),
                     describe_loopback_tcp(profile.tcp_congestion_control, profile.lo_qdisc));
}

}  // namespace testbed
