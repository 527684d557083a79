// The files of a sweep and how they are written and read: whole files through
// common::write_file_atomically (common/output_file.h: an exclusive temporary file renamed into
// place; special files written directly; links to regular files refused),
// row files by appending whole lines, and every input read with a size limit.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "common/output_file.h"

namespace cli::sweep {

// "-o out.csv" (or "out.jsonl", or "out"): out.csv, out.jsonl and out.summary.csv.
// Throws SweepError when OUT names a folder ("dir/", "dir/.csv", an existing
// folder): the files would be hidden ones named ".csv"; give a file name.
struct OutputPaths {
  std::string csv, jsonl, summary;
};
OutputPaths output_paths(const std::string& out);

// Throws SweepError when the file cannot be written; never leaves half a file.
void write_atomically(const std::string& path, const std::string& content);

// The files of `set` written together, all or none (common::OutputSet).
// Throws SweepError naming the file that failed, `hint` added to the reason.
void write_together(const common::OutputSet& set, const std::string& hint = "");

// Throws SweepError when `path` could not be written by write_atomically
// (see common::check_output_path): called before anything is computed.
void check_writable(const std::string& path);
// ... and is not the same file as one of `inputs` (common::check_not_an_input).
void check_writable(const std::string& path, const std::vector<std::string>& inputs);

// The largest results file plot, merge and --resume read: 256 MiB, about a
// million rows. More is refused (a mistyped path like /dev/zero would
// otherwise be read until the memory runs out).
inline constexpr std::size_t kMaxResultsBytes = std::size_t{256} << 20;

// The whole of `path` (a regular file, a FIFO or a device), at most `limit`
// bytes. Throws SweepError: a folder, unreadable, or longer than `limit`.
std::string read_limited(const std::string& path, std::size_t limit = kMaxResultsBytes);

// Appends whole lines and hands each to the kernel at once, so a killed
// sweep leaves at most its last line cut short. Opens with O_NOFOLLOW: a
// link planted at the name after the header was written is not followed.
class LineAppender {
 public:
  explicit LineAppender(const std::string& path);  // throws SweepError
  ~LineAppender();
  LineAppender(const LineAppender&) = delete;
  LineAppender& operator=(const LineAppender&) = delete;
  void append(const std::string& line);  // throws SweepError

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace cli::sweep
