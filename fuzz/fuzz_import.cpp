// libFuzzer target: `clerk import`'s nginx.conf reader and its mapping to
// scenario keys (cli/import/). The input is up to kMaxFiles files separated
// by lines "%%": the first is nginx.conf, the others 1.conf, 2.conf...,
// which `include` reaches by name or by glob (fnmatch over those names), so
// that includes, globs and include loops are fuzzed without the file system.
//
// Contract on every input:
//   - parsing and importing either succeed or throw nginx_conf::SyntaxError
//     naming one of the input's files, a line within it (or just past its
//     end) and a token, with a message; anything else thrown is a finding;
//   - an import that succeeds loads: its [nginx] and [dataset] lines, its
//     warnings and ignored list as comments, behind a committed hardware
//     preset, are a scenario the loader takes (a ConfigError is a finding).
#include <fnmatch.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include <fmt/format.h>

#include "cli/import/nginx_conf_parser.h"
#include "cli/import/nginx_import.h"
#include "fuzz/contract.h"
#include "fuzz/scenario_sandbox.h"
#include "models/scenario/config_error.h"
#include "models/scenario/config_loader.h"

namespace {

constexpr std::size_t kMaxFiles = 8;

std::vector<nginx_conf::Source> split_files(std::string_view in) {
  constexpr std::string_view kSeparator = "\n%%\n";
  std::vector<nginx_conf::Source> files;
  while (files.size() + 1 < kMaxFiles) {
    const std::size_t at = in.find(kSeparator);
    if (at == std::string_view::npos) break;
    files.push_back({"", "", std::string(in.substr(0, at + 1))});
    in.remove_prefix(at + kSeparator.size());
  }
  files.push_back({"", "", std::string(in)});
  for (std::size_t i = 0; i < files.size(); ++i)
    files[i].name = files[i].key = i == 0 ? "nginx.conf" : std::to_string(i) + ".conf";
  return files;
}

std::size_t lines_of(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1; }

void check_error(const nginx_conf::SyntaxError& e, const std::vector<nginx_conf::Source>& files) {
  const auto file = std::find_if(files.begin(), files.end(), [&](const auto& f) { return f.name == e.file(); });
  if (file == files.end()) fuzz::breach("a syntax error naming no input file: " + std::string(e.what()));
  if (e.line() < 1 || e.line() > lines_of(file->text))
    fuzz::breach(fmt::format("a syntax error at line {} of {} ({} lines): {}", e.line(), e.file(), lines_of(file->text), e.what()));
  const std::string message = e.what();
  if (message.empty()) fuzz::breach("a syntax error with no message");
  // An empty word (`keepalive_requests "";`, `max=`) is a token too: then the
  // message must show it, as "".
  if (e.token().empty() && message.find("\"\"") == std::string::npos)
    fuzz::breach("a syntax error with no token, and a message that does not show the empty word: " + message);
}

std::string scenario_of(const cli::ImportedNginx& n) {
  std::string s = "include = \"../hardware/edge-sata-ssd.toml\"\n" + n.nginx_toml;
  s += "\n[dataset]\n" + n.dataset_toml + "files = 10\nfile_size = 4096\n";
  s += "\n[clients.c]\nthreads = 1\nconnections = 1\npath = \"random\"\n";
  for (const std::string& w : n.warnings) s += "# " + w + "\n";
  for (const std::string& i : n.ignored) s += "# " + i + "\n";
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<nginx_conf::Source> files =
      split_files(std::string_view(reinterpret_cast<const char*>(data), size));
  const nginx_conf::IncludeResolver includes = [&files](const std::string& pattern, const nginx_conf::Directive&) {
    std::vector<nginx_conf::Source> out;
    for (const auto& f : files)
      if (fnmatch(pattern.c_str(), f.name.c_str(), 0) == 0) out.push_back(f);
    if (out.empty() && pattern.find_first_of("*?[") == std::string::npos)
      throw nginx_conf::SyntaxError("nginx.conf", 1, pattern, "cannot open \"" + pattern + "\"");
    return out;
  };
  cli::ImportedNginx imported;
  try {
    cli::ImportOptions options;
    options.logical_cpus = 4;
    options.conf_file = files.front().name;
    options.conf_last_line = cli::last_line_of(files.front().text);
    imported = cli::import_nginx(nginx_conf::parse(files.front(), includes), options);
  } catch (const nginx_conf::SyntaxError& e) {
    check_error(e, files);
    return 0;
  } catch (const std::exception& e) {
    fuzz::breach(fmt::format("import threw {} (not a SyntaxError): {}", typeid(e).name(), e.what()));
  }
  const std::string& path = fuzz::sandbox().write(scenario_of(imported));
  try {
    fuzz::check_loaded(models::load_scenario(path));
  } catch (const models::ConfigError& e) {
    fuzz::breach(std::string("an import the loader refuses: ") + e.what());
  }
  return 0;
}
