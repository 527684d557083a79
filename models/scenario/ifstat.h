// ifstat's once-a-second line on the server: interface bytes out, and
// interface bytes in, which the model does not carry and so estimates from
// what the server receives: a request segment per request, and a bare ACK
// for every two full segments it sends (delayed ACK), each with Ethernet,
// IPv4 and TCP headers with timestamps.
#pragma once
#include <cstdint>
#include <vector>

#include "models/hardware/nic.h"

namespace models {

class Ifstat {
 public:
  // The second that just ended, from the NIC's payload sent so far and the
  // server's requests so far.
  void sample(const NicSpec& nic, double payload_sent, std::uint64_t requests);
  // The measured window begins: samples so far are dropped, the next one
  // counts from these totals.
  void restart(const NicSpec& nic, double payload_sent, std::uint64_t requests);
  const std::vector<double>& out_bytes_per_s() const { return out_; }
  const std::vector<double>& in_bytes_per_s() const { return in_; }

 private:
  std::vector<double> out_;
  std::vector<double> in_;
  double last_out_ = 0;
  double last_payload_ = 0;
  double last_requests_ = 0;
};

}  // namespace models
