// A bad scenario: which file, which line, which key, and what is wrong.
// The message is shown on a terminal: the file's name, the key and the
// values quoted in it come from the scenario, so they are shown escaped
// (common/shown_text.h); file() and key() stay as they are.
#pragma once
#include <stdexcept>
#include <string>

#include "common/bad_input.h"
#include "common/shown_text.h"

namespace models {

// Bad input (common/bad_input.h): every command exits 2 on it.
class ConfigError : public common::BadInput {
 public:
  ConfigError(std::string file, int line, std::string key, const std::string& message)
      : common::BadInput(compose(file, line, key, message)),
        file_(std::move(file)),
        line_(line),
        key_(std::move(key)) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& key() const { return key_; }

 private:
  static std::string compose(const std::string& file, int line, const std::string& key, const std::string& message) {
    std::string out = file;
    if (line > 0) out += ":" + std::to_string(line);
    out += ": ";
    // A value or key megabytes long is shown cut, with its length (probe 8, M7).
    if (!key.empty()) out += "key '" + common::cut_long(key) + "': ";
    return common::shown_text(out + common::cut_long_message(message));
  }
  std::string file_;
  int line_;
  std::string key_;
};

}  // namespace models
