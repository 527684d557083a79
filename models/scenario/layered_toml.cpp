#include "models/scenario/layered_toml.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "common/input_file.h"
#include "models/scenario/config_error.h"
#include "models/scenario/toml_guard.h"

namespace models {

namespace fs = std::filesystem;
using common::InputFileError;
using common::kMaxScenarioFileBytes;
using common::read_input_file;

bool is_hardware_profile(const fs::path& file) {
  for (const auto& part : file.parent_path())
    if (part == "hardware") return true;
  return false;
}

namespace {

// A UTF-8 byte order mark, as Windows editors (Notepad) begin a file: no
// character of the text, skipped as toml++'s own reader skips one (its
// utf8_reader, parser.inl); toml_guard would refuse it as a non-ASCII
// character. It stands before the first line's text: lines keep their numbers.
std::string_view without_bom(std::string_view text) {
  constexpr std::string_view kBom = "\xef\xbb\xbf";
  return text.starts_with(kBom) ? text.substr(kBom.size()) : text;
}

// toml++ on text that passed toml_guard (see toml_guard.h). `source` becomes
// every node's file.
toml::table parse_checked(const std::string& file_text, const std::string& source, const std::string& error_file,
                          const std::string& error_key) {
  const std::string_view text = without_bom(file_text);
  const TomlGuardProblem p = toml_guard(text);
  if (p.line) throw ConfigError(error_file, error_file == "--set" ? 0 : p.line, error_key, p.message);
  try {
    return toml::parse(p.safe_text, source);
  } catch (const toml::parse_error& e) {
    throw ConfigError(error_file, error_file == "--set" ? 0 : static_cast<int>(e.source().begin.line), error_key,
                      std::string(e.description()));
  }
}
// The presets under `dir`, for an error (below).
std::string profile_list(const fs::path& dir);

}  // namespace

toml::table parse_toml_file(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path, kMaxScenarioFileBytes);
  } catch (const InputFileError& e) {
    throw ConfigError(path, 0, "", e.what());
  }
  return parse_checked(text, path, path, "");
}

namespace {
// The file of the preset NAME ("local", "ssd/sata-dc-s3700"): in the
// presets' hardware folder, .toml added. What "@hardware/NAME" in an
// include and a preset's name after --hardware both name.
fs::path preset_file(std::string_view name) {
  fs::path preset = fs::path(presets_dir()) / "hardware" / name;
  if (preset.extension() != ".toml") preset += ".toml";
  return preset;
}
}  // namespace

std::string hardware_profile_file(const std::string& given) {
  constexpr std::string_view kPrefix = "@hardware/";
  if (given.starts_with(kPrefix)) return preset_file(std::string_view(given).substr(kPrefix.size())).string();
  if (given.empty() || given.find('/') != std::string::npos || given.ends_with(".toml")) return given;
  return preset_file(given).string();
}

LayeredToml::LayeredToml(const std::string& path, const std::vector<std::string>& overrides,
                         const std::string& hardware)
    : root_(path), hardware_(hardware_profile_file(hardware)) {
  std::vector<std::string> stack;
  if (hardware_ != hardware) {  // a preset's name: one of them, or the list
    const fs::path dir = fs::path(presets_dir()) / "hardware";
    std::error_code ec;
    if (!fs::is_regular_file(hardware_, ec))
      throw ConfigError(hardware, 0, "",
                        "no hardware preset of that name in " + dir.string() + " (the presets: " + profile_list(dir) +
                            "); name a profile file by its path (./NAME for one here)");
  }
  if (!hardware_.empty()) {
    try {
      read_input_file(hardware_, kMaxScenarioFileBytes);
    } catch (const InputFileError& e) {
      throw ConfigError(hardware_, 0, "", std::string("the hardware profile ") + e.what());
    }
  }
  load(path, stack, nullptr, "", "");
  refuse_unswapped_hardware();
  for (const std::string& o : overrides) apply_override(o);
}

// --hardware that replaced nothing: the run would be the scenario's own, as
// if no profile had been given (probe 6: a scenario whose profile sits in a
// folder not named `hardware`, or that writes its machine inline).
void LayeredToml::refuse_unswapped_hardware() const {
  if (hardware_.empty() || hardware_swapped_) return;
  throw ConfigError(root_, 0, "include",
                    "--hardware " + hardware_ +
                        ": the scenario includes no hardware profile to put it in place of (a whole file, "
                        "included at the top by a name with a folder 'hardware' in it, such as \"@hardware/NAME\" "
                        "or \"../hardware/NAME.toml\"); include the profile that way, or name the file itself");
}

LayeredToml::LayeredToml(FromText, const std::string& text, const std::string& name) : root_(name) {
  auto doc = std::make_unique<toml::table>(parse_checked(text, name, name, ""));
  overlay(*doc, "", name, nullptr);
  documents_.push_back(std::move(doc));
}

std::string presets_dir() {
  if (const char* env = std::getenv("CLERK_SCENARIOS"); env && *env) return env;
  return CLERK_SCENARIOS_DIR;
}

void LayeredToml::apply_override(const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  const std::string key = eq == std::string::npos ? assignment : assignment.substr(0, eq);
  // The files' limit (toml_guard.h), checked first: each part below costs a
  // copy of the key's prefix, so 8,000 parts cost 8,000^2 bytes, and the
  // error then named the first part as an unknown key.
  constexpr std::size_t kMaxKeyParts = 16;
  if (static_cast<std::size_t>(std::count(key.begin(), key.end(), '.')) >= kMaxKeyParts)
    throw ConfigError("--set", 0, key.size() > 64 ? key.substr(0, 64) + "..." : key,
                      "a key of more than 16 dotted parts (scenario keys have at most 4)");
  if (eq == std::string::npos || key.empty() || key.front() == '.' || key.back() == '.' ||
      key.find("..") != std::string::npos || key.find_first_of(" \t[]\"'") != std::string::npos)
    throw ConfigError("--set", 0, key, "an override is KEY=VALUE, with KEY a dotted scenario key like nginx.worker_processes");
  const std::string value = assignment.substr(eq + 1);
  auto doc = std::make_unique<toml::table>();
  if (value.find_first_of("\n\r") != std::string::npos)
    throw ConfigError("--set", 0, key, "the value must be on one line");
  try {
    *doc = parse_checked("v = " + value, "--set", "--set", key);
  } catch (const ConfigError&) {
    // A bare word (off, threads, random) is meant as a string.
    if (value.find_first_of("\"\\") != std::string::npos) throw;
    *doc = parse_checked("v = \"" + value + "\"", "--set", "--set", key);
  }
  if (doc->size() != 1) throw ConfigError("--set", 0, key, "the value must be a single TOML value");
  const toml::node* v = doc->get("v");
  // Register the key in its parent tables, so unknown keys are still caught;
  // a parent that is a value, not a table, cannot take a key.
  std::string parent;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t dot = key.find('.', pos);
    const std::string name = key.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    add_child(parent, name);
    if (dot == std::string::npos) break;
    const std::string prefix = key.substr(0, dot);
    if (const toml::node* above = find(prefix); above && !above->is_table())
      throw ConfigError("--set", 0, key, "'" + prefix + "' is a value, not a table: it has no key '" +
                                           key.substr(dot + 1) + "'");
    set_origins_.emplace(prefix, v);
    parent = prefix;
    pos = dot + 1;
  }
  if (const toml::table* t = v->as_table(); t && t->empty())
    throw ConfigError("--set", 0, key, "an empty inline table sets nothing (--set changes keys; it cannot remove a table)");
  nodes_[key] = v;
  // An inline table (--set nginx.thread_pool={threads=8}) sets its keys one by one.
  if (const toml::table* t = v->as_table()) overlay(*t, key, "--set", nullptr);
  documents_.push_back(std::move(doc));
}

void LayeredToml::load(const std::string& path, std::vector<std::string>& stack, const toml::node* included_from,
                       const std::string& from_file, const std::string& prefix) {
  const int from_line = line_of(included_from);
  const std::string include_key = prefix.empty() ? "include" : prefix + ".include";
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(path, ec);
  const std::string key = ec ? path : canonical.string();
  if (std::find(stack.begin(), stack.end(), key) != stack.end()) {
    std::string chain;
    for (const auto& s : stack) chain += fs::path(s).filename().string() + " -> ";
    throw ConfigError(from_file, from_line, include_key, "include cycle: " + chain + fs::path(key).filename().string());
  }
  // Each level of includes is a level of recursion here: a chain of 30,000
  // files overflowed the stack (SIGSEGV). Scenarios nest 3 deep.
  constexpr std::size_t kMaxIncludeDepth = 64;
  if (stack.size() >= kMaxIncludeDepth)
    throw ConfigError(from_file, from_line, include_key,
                      "includes nested more than " + std::to_string(kMaxIncludeDepth) + " files deep");
  if (++loads_ > kMaxIncludeLoads)
    throw ConfigError(from_file, from_line, include_key,
                      "more than " + std::to_string(kMaxIncludeLoads) +
                          " files included in all (each include counted, repeats too)");
  const toml::table* doc = parsed_[path];
  if (!doc) {
    std::string text;
    try {
      text = read_input_file(path, kMaxScenarioFileBytes);
    } catch (const InputFileError& e) {
      if (included_from) throw ConfigError(from_file, from_line, include_key, "the included file '" + path + "' " + e.what());
      throw ConfigError(path, 0, "", e.what());
    }
    documents_.push_back(std::make_unique<toml::table>(parse_checked(text, path, path, "")));
    doc = parsed_[path] = documents_.back().get();
    files_.push_back(path);
  }
  stack.push_back(key);
  overlay(*doc, prefix, path, &stack);
  stack.pop_back();
}

// A table's includes first (their keys are its defaults), then its own keys.
void LayeredToml::overlay(const toml::table& table, const std::string& prefix, const std::string& file,
                          std::vector<std::string>* stack) {
  if (const toml::node* inc = table.get("include")) {
    if (!stack)
      throw ConfigError(file, file == "--set" ? 0 : line_of(inc), prefix.empty() ? "include" : prefix + ".include",
                        file == "--set" ? "--set cannot include files" : "a scenario given as text cannot include files");
    load_includes(*inc, prefix, file, *stack);
  }
  for (auto&& [k, v] : table) {
    const std::string name(k.str());
    if (name == "include") continue;
    const std::string dotted = prefix.empty() ? name : prefix + "." + name;
    add_child(prefix, name);
    nodes_[dotted] = &v;
    if (const toml::table* sub = v.as_table()) overlay(*sub, dotted, file, stack);
  }
}

void LayeredToml::load_includes(const toml::node& inc, const std::string& prefix, const std::string& file,
                                std::vector<std::string>& stack) {
  const std::string key = prefix.empty() ? "include" : prefix + ".include";
  std::vector<const toml::node*> items;
  if (inc.is_string()) {
    items.push_back(&inc);
  } else if (const toml::array* arr = inc.as_array()) {
    for (const toml::node& n : *arr) items.push_back(&n);
  } else {
    throw ConfigError(file, line_of(&inc), key, "must be a file name or a list of file names");
  }
  for (const toml::node* item : items) {
    if (!item->is_string()) throw ConfigError(file, line_of(item), key, "must be a file name");
    load(include_target(*item, file, prefix), stack, item, file, prefix);
  }
}

namespace {
// The profiles under `dir`, as "@hardware/..." names them, for an error.
std::string profile_list(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".toml") names.push_back(fs::relative(it->path(), dir, ec).replace_extension().string());
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}
}  // namespace

// --hardware replaces one profile: two different files that each would be
// replaced are a scenario whose machine is not one file, and swapping both
// for the profile would drop the other's keys (probe 6: a client file kept
// in a folder named hardware was replaced too). The same file reached twice
// (a common file included by two) is one profile.
void LayeredToml::note_hardware_replaced(const fs::path& replaced, const std::string& file, int line,
                                         const std::string& key) const {
  std::error_code ec;
  fs::path identity = fs::weakly_canonical(replaced, ec);
  if (ec) identity = fs::absolute(replaced, ec).lexically_normal();
  if (hardware_swapped_ && identity.string() != hardware_replaced_file_)
    throw ConfigError(file, line, key,
                      "--hardware " + hardware_ + " would replace both '" + hardware_replaced_ + "' and '" +
                          replaced.lexically_normal().string() +
                          "' (each included at the top of a scenario file by a name with a folder 'hardware' in "
                          "it): a scenario run with --hardware includes one hardware profile");
  hardware_swapped_ = true;
  hardware_replaced_ = replaced.lexically_normal().string();
  hardware_replaced_file_ = identity.string();
}

namespace {
// An include that names a hardware profile as it is written: a preset
// ("@hardware/NAME") or a name with a folder `hardware` in it
// ("../hardware/local.toml"). Judged on the name, not on the folders the
// scenario itself sits in (probe 7: a scenario kept under ~/hardware/ had
// none of its includes taken for profiles, or all of them).
bool names_hardware_profile(const std::string& written) {
  return written.starts_with("@hardware/") || is_hardware_profile(fs::path(written));
}
}  // namespace

// A name relative to the including file, or "@hardware/NAME" among the presets.
std::string LayeredToml::include_target(const toml::node& item, const std::string& file,
                                        const std::string& prefix) const {
  const std::string name = item.value<std::string>().value();
  const std::string key = prefix.empty() ? "include" : prefix + ".include";
  // A NUL ends a file name for the system: the file opened would be another
  // than the one written (probe 6: "hits.toml\0x" loaded hits.toml).
  if (const std::size_t nul = name.find('\0'); nul != std::string::npos)
    throw ConfigError(file, line_of(&item), key,
                      "'" + name + "' holds a NUL character (at " + std::to_string(nul + 1) +
                          "), which no file name can hold");
  fs::path target;
  if (!name.empty() && name.front() == '@') {
    const std::string search = "@hardware/";
    const fs::path dir = fs::path(presets_dir()) / "hardware";
    if (name.compare(0, search.size(), search) != 0 || name.size() == search.size())
      throw ConfigError(file, line_of(&item), key,
                        "'" + name + "' is no preset: the one search path is @hardware/NAME, a profile in " +
                            dir.string() + " (" + profile_list(dir) + ")");
    target = preset_file(std::string_view(name).substr(search.size()));
    std::error_code ec;
    const fs::file_status st = fs::status(target, ec);
    // A profile that is there but cannot be reached (a symbolic link loop,
    // ELOOP) is no missing one: the system's reason.
    if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
      throw ConfigError(file, line_of(&item), key,
                        "the hardware profile '" + target.string() + "' cannot be read: " +
                            common::open_failure_text(ec.value()));
    if (!fs::is_regular_file(st))
      throw ConfigError(file, line_of(&item), key,
                        "no hardware profile '" + name.substr(search.size()) + "' in " + dir.string() +
                            " (the profiles there: " + profile_list(dir) + ")");
  } else {
    target = fs::path(file).parent_path() / name;
  }
  // `--hardware`: a whole profile, included at the top of a file that is
  // no profile's own part, is swapped.
  const bool in_profile = profile_files_.count(file) > 0;
  if (!in_profile && !names_hardware_profile(name)) return target.string();
  if (prefix.empty() && !hardware_.empty() && !in_profile) {
    note_hardware_replaced(target, file, line_of(&item), key);
    target = hardware_;
  }
  profile_files_.insert(target.string());
  return target.string();
}

const toml::node* LayeredToml::find(const std::string& dotted) const {
  auto it = nodes_.find(dotted);
  return it == nodes_.end() ? nullptr : it->second;
}

void LayeredToml::add_child(const std::string& table, const std::string& name) {
  Children& kids = children_[table];
  if (kids.seen.insert(name).second) kids.order.push_back(name);
}

std::vector<std::string> LayeredToml::children(const std::string& table) const {
  auto it = children_.find(table);
  return it == children_.end() ? std::vector<std::string>{} : it->second.order;
}

const toml::node* LayeredToml::locate(const std::string& dotted) const {
  if (const toml::node* n = find(dotted)) return n;
  auto it = set_origins_.find(dotted);
  return it == set_origins_.end() ? nullptr : it->second;
}

std::string LayeredToml::file_of(const toml::node* node) const {
  if (node && node->source().path) return *node->source().path;
  return root_;
}

int LayeredToml::line_of(const toml::node* node) {
  if (!node) return 0;
  if (node->source().path && *node->source().path == "--set") return 0;  // a command-line override
  return static_cast<int>(node->source().begin.line);
}

}  // namespace models
