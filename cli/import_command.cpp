// `clerk import nginx.conf [--hardware PROFILE] -o scenario.toml`: an
// nginx.conf (includes read as NGINX reads them, cli/import/nginx_conf_parser.h)
// as a scenario: its [nginx] keys from the directives (cli/import/nginx_import.h),
// each with the file and line it came from; the machine, the data set and
// the load as `clerk new` writes them (cli/new_command.h), to be described
// next. The text is loaded before it is put in place (rename(2) of a
// finished temporary); a syntax error names file, line and token, exit 2.
#include "cli/import_command.h"
#include "cli/commands.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>

#include "cli/import/nginx_conf_parser.h"
#include "cli/import/nginx_import.h"
#include "common/input_file.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "common/temp_dir.h"
#include "models/scenario/config_error.h"
#include "models/scenario/config_loader.h"
#include "models/server/nginx_versions.h"

namespace cli {

namespace {

// The comment lines of a list, under a heading.
std::string comment_list(const std::string& heading, const std::vector<std::string>& items) {
  if (items.empty()) return "";
  std::string s = "\n# " + heading + "\n";
  for (const std::string& item : items) s += "#   " + item + "\n";  // one line each (nginx_import.h)
  return s;
}

// The CPUs of the machine the scenario includes (worker_processes auto):
// the head loaded with a stand-in [nginx]. `read` gets the files that
// loading read beside the stand-in: the profile --hardware names and its includes.
std::uint32_t profile_cpus(const NewArgs& args, std::vector<std::string>& read) {
  const common::HeldTempDir dir(common::temp_prefix("clerk-import-"));  // no folder left by a Ctrl-C
  const std::string file = dir.file("cpus.toml");
  NewArgs stand_in = args;
  stand_in.file = file;  // its name: not -o's, whose faults are -o's own
  std::ofstream(file) << starter_head(stand_in) << "\n[nginx]\nsendfile = \"on\"\n" << starter_tail(stand_in, "");
  try {
    const models::Scenario sc = models::load_scenario(file);
    std::copy_if(sc.files.begin(), sc.files.end(), std::back_inserter(read), [&](const std::string& f) { return f != file; });
    return sc.hardware.logical_cpus;
  } catch (const models::ConfigError& e) {
    std::string message = e.what();  // about the stand-in's include line: say --hardware
    const std::size_t key = message.find("key 'include': ");
    throw std::invalid_argument("--hardware: " + (key == std::string::npos ? message : message.substr(key + 15)));
  }
}

// The line the main file ends on, for a refusal NGINX makes once it is read.
std::size_t conf_last_line(const std::string& path) {
  // Read as the parser read it (common/input_file.h): never a blocking read.
  return last_line_of(common::read_input_file(path, nginx_conf::kMaxConfFileBytes));
}

}  // namespace

std::string imported_scenario(const ImportArgs& a, std::vector<std::string>* warnings, std::vector<std::string>* notes,
                              std::vector<std::string>* read) {
  if (!models::nginx_release_defaults(a.scenario.nginx))
    throw std::invalid_argument("--nginx: a release like 1.24.0, one of " + models::nginx_known_releases_text() +
                                " (got '" + a.scenario.nginx + "')");
  std::vector<std::string> files;  // every file read: the nginx.conf, its includes, the hardware profile's
  const std::vector<nginx_conf::Directive> conf = nginx_conf::parse_file(a.conf, &files);
  ImportOptions options;
  options.logical_cpus = profile_cpus(a.scenario, files);
  if (read) *read = files;
  options.version = a.scenario.nginx;
  options.conf_file = a.conf;
  options.conf_last_line = conf_last_line(a.conf);
  const ImportedNginx n = import_nginx(conf, options);
  if (warnings) *warnings = n.warnings;
  if (notes) *notes = n.notes;
  std::string s;
  const std::string conf_name = common::shown_text(a.conf);  // one line of UTF-8, as a TOML comment must be
  s += "# Imported by `clerk import` from " + conf_name + ": [nginx] is that file's, each key with\n";
  s += "# the line it came from; the machine, [dataset] and the load are `clerk new`'s defaults:\n";
  s += "# describe yours (docs/scenario-keys.md, `clerk keys TABLE`).\n";
  s += starter_head(a.scenario);
  s += "\n" + n.nginx_toml;
  s += starter_tail(a.scenario, n.dataset_toml);
  s += comment_list("Not modelled (what each would change):", n.warnings);
  s += comment_list("Ignored (they do not change what clerk models):", n.ignored);
  return s;
}

int import_command(const ImportArgs& args) {
  std::string text;
  std::vector<std::string> warnings, notes;
  try {  // the output first: nothing is read for an output that cannot be written
    common::check_output_path(args.scenario.file);
    common::check_not_an_input(args.scenario.file, {args.conf});
  } catch (const common::OutputError& e) {
    std::cerr << "clerk import: " << e.what() << "\n";
    return 2;
  }
  try {
    std::vector<std::string> read;
    text = imported_scenario(args, &warnings, &notes, &read);
    common::check_not_an_input(args.scenario.file, read);  // an include or the hardware profile too
  } catch (const common::OutputError& e) {
    std::cerr << "clerk import: " << e.what() << "\n";
    return 2;
  } catch (const nginx_conf::SyntaxError& e) {
    std::cerr << "clerk import: " << e.what() << " (at \"" << common::shown_text(e.token()) << "\")\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "clerk import: " << common::shown_text(e.what()) << "\n";  // --nginx's value, as typed
    return 2;
  }
  const int status =
      write_scenario(args.scenario.file, text, WriteMode{"import", true, "the imported scenario is one clerk run would refuse"});
  if (status != 0) return status;
  const std::string out = common::shown_text(args.scenario.file);
  std::cout << "wrote " << out << " from " << common::shown_text(args.conf) << "; run it with: clerk run " << out << "\n";
  for (const std::string& w : warnings) std::cerr << "clerk import: not modelled: " << w << "\n";
  for (const std::string& n : notes) std::cerr << "clerk import: note: " << n << "\n";
  return 0;
}

void add_import_command(CLI::App& clerk, Commands& commands) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* cmd = clerk.add_subcommand("import", "Write a scenario from an nginx.conf (its includes too)");
  ImportArgs& a = *args;
  cmd->add_option("conf", a.conf, "the nginx.conf to read")->required();
  cmd->add_option("-o,--output", a.scenario.file, "the scenario file to write (replaced if it exists)")->required();
  cmd->add_option("--hardware", a.scenario.hardware,
                  "a preset of scenarios/hardware/ by name, or a profile file (clerk calibrate's); default: clerk new's");
  cmd->add_option("--nginx", a.scenario.nginx, "the NGINX release whose defaults fill what the file does not set");
  commands.add(cmd, [args] { return import_command(*args); });
}

}  // namespace cli
