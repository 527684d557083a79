// split_clients (ngx_http_split_clients_module.c): a variable whose value is
// chosen by hashing a string (here the request's URI, $request_uri) with
// MurmurHash2 (ngx_murmur_hash2, src/core/ngx_murmurhash.c) and looking the
// 32-bit hash up in cumulative shares of 2^32 - 1.
//
// At configuration time (ngx_conf_split_clients_block) each line's share is
// read with ngx_atofp(..., 2): hundredths of a percent, at most two
// decimals, more than zero; "*" takes what is left. The running total may not
// pass 100% ("percent total is greater than 100%"; a "*" counts as reaching
// it). Each share becomes the cumulative bound
// last += percent * 0xffffffff / 10000 (64-bit arithmetic, truncated).
// At run time (ngx_http_split_clients_variable) the first line with
// hash < bound, or a "*" line, gives the value; none: the empty string.
//
// MurmurHash2 is written here (about 20 lines, as nginx carries its own): it
// is Austin Appleby's MurmurHash2 with seed 0, reading the bytes
// little-endian whatever the host (ngx_murmur_hash2 builds each 32-bit word
// from bytes), so that a path hashes the same everywhere.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace models {

// ngx_murmur_hash2(data, len).
std::uint32_t murmur_hash2(std::string_view data);

// One line of the block: `percent` in hundredths of a percent (3330 for
// "33.3%"), 0 for "*"; `value` the variable's value.
struct SplitPart {
  std::uint32_t percent = 0;
  std::string value;
};

// Reads "33.3%" or "*" as ngx_http_split_clients does (ngx_atofp with two
// decimals); false for anything else (no %, zero, three decimals, ...).
bool parse_split_share(const std::string& text, std::uint32_t& hundredths);

struct SplitClientsSpec {
  std::string key = "$request_uri";  // split_clients STRING $variable: the string hashed
  std::string variable;              // "$disk"; empty: no split_clients
  std::vector<SplitPart> parts;
  bool enabled() const { return !variable.empty(); }
};

class SplitClients {
 public:
  // Throws std::invalid_argument when the shares pass 100% (the loader
  // checks first, naming the key).
  explicit SplitClients(const std::vector<SplitPart>& parts);
  // The index of the part `key` falls in, or parts.size() for none (the
  // empty value).
  std::size_t part_of(std::string_view key) const;
  // The cumulative bounds (0 for a "*" line), as nginx stores them.
  const std::vector<std::uint32_t>& bounds() const { return bounds_; }

 private:
  std::vector<std::uint32_t> bounds_;
};

// True when the shares' running total passes 100% as nginx counts it.
bool split_shares_exceed_100(const std::vector<SplitPart>& parts);

}  // namespace models
