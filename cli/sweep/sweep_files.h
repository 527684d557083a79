// The files of a sweep and how they are written: whole files to a temporary
// name renamed into place, row files by appending whole lines.
#pragma once
#include <cstdio>
#include <string>

namespace cli::sweep {

// "-o out.csv" (or "out.jsonl", or "out"): out.csv, out.jsonl and out.summary.csv.
struct OutputPaths {
  std::string csv, jsonl, summary;
};
OutputPaths output_paths(const std::string& out);

// Throws SweepError when the file cannot be written; never leaves half a file.
void write_atomically(const std::string& path, const std::string& content);

// Appends whole lines and hands each to the kernel at once, so a killed
// sweep leaves at most its last line cut short.
class LineAppender {
 public:
  explicit LineAppender(const std::string& path);  // throws SweepError
  ~LineAppender();
  LineAppender(const LineAppender&) = delete;
  LineAppender& operator=(const LineAppender&) = delete;
  void append(const std::string& line);  // throws SweepError

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace cli::sweep
