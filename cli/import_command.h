// `clerk import nginx.conf -o scenario.toml` (cli/import_command.cpp).
#pragma once
#include <string>
#include <vector>

#include "cli/new_command.h"

namespace cli {

struct ImportArgs {
  std::string conf;   // the nginx.conf
  NewArgs scenario;   // file: the scenario written; hardware and nginx: the options; the rest: clerk new's defaults
};

// The scenario's text (for tests), with the directives not modelled in
// `warnings` and the importer's notes (defaults it wrote) in `notes`; throws nginx_conf::SyntaxError or std::invalid_argument (an
// option, or the hardware profile --hardware names).
std::string imported_scenario(const ImportArgs& args, std::vector<std::string>* warnings = nullptr,
                              std::vector<std::string>* notes = nullptr, std::vector<std::string>* read = nullptr);
// (`read`: every file it read, the main file, its includes, empty ones too,
// and the hardware profile with its includes, for the output check that
// refuses writing over one of them.)

// Writes the scenario; the exit status (cli/commands.h).
int import_command(const ImportArgs& args);

}  // namespace cli
