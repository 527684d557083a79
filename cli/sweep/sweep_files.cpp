#include "cli/sweep/sweep_files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "cli/sweep/sweep_error.h"

namespace cli::sweep {

OutputPaths output_paths(const std::string& out) {
  std::string stem = out;
  for (const char* ext : {".csv", ".jsonl", ".json"}) {
    const std::string e = ext;
    if (stem.size() > e.size() && stem.compare(stem.size() - e.size(), e.size(), e) == 0) {
      stem.resize(stem.size() - e.size());
      break;
    }
  }
  return {stem + ".csv", stem + ".jsonl", stem + ".summary.csv"};
}

void write_atomically(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << content;
    f.close();
    if (!f) {
      std::filesystem::remove(tmp);
      throw SweepError(path, "", "cannot write the file");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw SweepError(path, "", "cannot write the file: " + ec.message());
  }
}

LineAppender::LineAppender(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "ab");
  if (!file_) throw SweepError(path, "", std::string("cannot append to the file: ") + std::strerror(errno));
}

LineAppender::~LineAppender() {
  if (file_) std::fclose(file_);
}

void LineAppender::append(const std::string& line) {
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
    throw SweepError(path_, "", std::string("cannot append to the file: ") + std::strerror(errno));
}

}  // namespace cli::sweep
