// Reading a file that a person wrote or another run produced (a scenario, an
// include, an nginx.conf, a sweep spec, a results file, an access log, a
// lesson's answers): only a regular file. A FIFO would block forever,
// /dev/zero never ends, and a folder has no text: each is refused at once
// with a message. The file is opened O_NONBLOCK, so neither opening a FIFO
// nor reading a file that only looks regular and blocks (a tracefs pipe like
// /sys/kernel/debug/tracing/trace_pipe) waits: such a read says EAGAIN, and
// that is refused too. Read whole, a file larger than the stated limit is
// refused before it is all in memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/unique_fd.h"

namespace common {

class InputFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;  // the message names no file: the caller's error does
};

// Scenario files and their includes: the largest committed one is 6 KB; a
// generated scenario with a placement for every worker stays far below this.
inline constexpr std::uint64_t kMaxScenarioFileBytes = 16u << 20;
// Results files of sweeps (rows of about 200-500 bytes): about two million runs.
inline constexpr std::uint64_t kMaxResultsFileBytes = 1u << 30;

// Why a file cannot be opened, from open(2)'s errno: the system's text, and
// for ELOOP what it means ("a symbolic link loop (Too many levels of
// symbolic links)"): a link that leads back to itself is no missing file.
std::string open_failure_text(int err);

// The file opened for reading, O_NONBLOCK; throws InputFileError ("is a FIFO,
// not a regular file", the system's reason for an unreadable file).
UniqueFd open_input_file(const std::string& path);

// Up to `size` bytes from an fd open_input_file gave: 0 at the end of the file.
// Throws InputFileError when the read fails or would block (EAGAIN).
std::size_t read_input_some(int fd, char* into, std::size_t size);

// The whole file; throws InputFileError ("is a FIFO, not a regular file",
// "is larger than 16 MiB", "blocks when read ...", the system's reason for an
// unreadable file).
std::string read_input_file(const std::string& path, std::uint64_t max_bytes);

}  // namespace common
