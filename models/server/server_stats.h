// What an NGINX server counts, on either engine.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace models {

struct ServerStats {
  std::uint64_t connections = 0;
  std::uint64_t requests = 0;
  std::uint64_t responses = 0;
  std::map<std::string, std::uint64_t> failed;
  std::uint64_t responses_delayed = 0;  // responses with any wait behind a blocked loop
  double blocked_wait_s = 0;            // those waits, summed
  double blocked_before_first_byte_s = 0;  // the part of them before each response's header
  double ttfb_s = 0;  // server-side time to first byte (request arrived to header queued), summed
  std::vector<std::string> log;       // error.log lines (the first few)
  std::uint64_t log_lines = 0;
};

}  // namespace models
