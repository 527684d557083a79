// A hardware profile as TOML text: tables of keys, each value with the
// comment that says where it came from, written atomically (a temporary file
// in the same directory, then rename) so that a failed or interrupted run
// never leaves half a profile.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace testbed::calibrate {

struct ProfileEntry {
  std::string key;
  std::string value;                  // TOML text: "\"17us\"", "24", "[[...]]"
  std::vector<std::string> comment;   // one line each, without '#'
};

struct ProfileTable {
  std::string name;                   // "cpu", "disk"
  std::vector<std::string> comment;   // lines above the table's keys
  std::vector<ProfileEntry> entries;
};

struct Profile {
  std::vector<std::string> header;    // the file's opening comment
  std::vector<ProfileTable> tables;
};

// TOML values in the units config_loader reads (models/scenario/units.cpp).
std::string toml_string(const std::string& s);
std::string duration_value(double seconds);   // "\"17.2us\"", "\"0.235ns\""
std::string duration_text(double seconds);    // the same without quotes
std::string size_value_mib(std::uint64_t bytes);  // "\"23552m\"" (rounded down to whole MiB)
std::string size_value(std::uint64_t bytes);  // "\"1m\"", "\"128k\"" or a plain byte count
std::string rate_value_MBps(double bytes_per_s);  // "\"2345.6MB/s\""

std::string render_profile(const Profile& p);

}  // namespace testbed::calibrate
