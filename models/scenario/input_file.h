// Reading a file that a person wrote or another run produced (a scenario, an
// include, a sweep spec, a results file): only a regular file, and at most a
// stated number of bytes. A FIFO would block forever, /dev/zero never ends,
// and a folder has no text: each is refused at once with a message, as is a
// file larger than the limit, before anything is read into memory.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace models {

class InputFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;  // the message names no file: the caller's error does
};

// Scenario files and their includes: the largest committed one is 6 KB; a
// generated scenario with a placement for every worker stays far below this.
inline constexpr std::uint64_t kMaxScenarioFileBytes = 16u << 20;
// Results files of sweeps (rows of about 200-500 bytes): about two million runs.
inline constexpr std::uint64_t kMaxResultsFileBytes = 1u << 30;

// The whole file; throws InputFileError ("is a FIFO, not a regular file",
// "is larger than 16 MiB", the system's reason for an unreadable file).
std::string read_input_file(const std::string& path, std::uint64_t max_bytes);

}  // namespace models
