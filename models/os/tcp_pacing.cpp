#include "models/os/tcp_pacing.h"

namespace models {

std::string loopback_pacing(const std::string& congestion_control, const std::string& root_qdisc) {
  if (root_qdisc == "fq") return "fq";                   // fq_classify(): SK_PACING_FQ
  if (congestion_control == "bbr") return "internal";    // bbr_init(): SK_PACING_NEEDED
  return "none";
}

std::string describe_pacing(const std::string& pacing) {
  if (pacing == "fq") return "paced by the fq qdisc";
  if (pacing == "internal") return "paced by TCP itself (hrtimer, tcp_pace_kick)";
  if (pacing == "none") return "not paced";
  return "pacing unknown";
}

}  // namespace models
