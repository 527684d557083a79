#include "models/scenario/ifstat.h"

namespace models {

namespace {
constexpr double kFrameHeaders = 66;  // Ethernet 14, IPv4 20, TCP 20 with timestamps 12
constexpr double kRequestBytes = 64;
}  // namespace

void Ifstat::restart(const NicSpec& nic, double payload_sent, std::uint64_t requests) {
  out_.clear();
  in_.clear();
  last_out_ = payload_sent * nic.interface_bytes_per_payload_byte();
  last_payload_ = payload_sent;
  last_requests_ = static_cast<double>(requests);
}

void Ifstat::sample(const NicSpec& nic, double payload_sent, std::uint64_t requests_so_far) {
  const double out = payload_sent * nic.interface_bytes_per_payload_byte();
  const auto requests = static_cast<double>(requests_so_far);
  const double acks = (payload_sent - last_payload_) / (2.0 * nic.mss());
  const double in = (requests - last_requests_) * (kRequestBytes + kFrameHeaders) + acks * kFrameHeaders;
  out_.push_back(out - last_out_);
  in_.push_back(in);
  last_out_ = out;
  last_payload_ = payload_sent;
  last_requests_ = requests;
}

}  // namespace models
