#include "models/scenario/layered_toml.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "models/scenario/config_error.h"

namespace models {

namespace fs = std::filesystem;

namespace {
// A hardware profile lives in a folder named `hardware` (scenarios/hardware/,
// or wherever `clerk calibrate --out` put one).
bool is_hardware_profile(const fs::path& file) {
  for (const auto& part : file.parent_path())
    if (part == "hardware") return true;
  return false;
}
}  // namespace

LayeredToml::LayeredToml(const std::string& path, const std::vector<std::string>& overrides,
                         const std::string& hardware)
    : root_(path), hardware_(hardware) {
  std::vector<std::string> stack;
  if (!hardware_.empty() && !std::ifstream(hardware_))
    throw ConfigError(hardware_, 0, "", "cannot read the hardware profile");
  load(path, stack, nullptr, "");
  for (const std::string& o : overrides) apply_override(o);
}

void LayeredToml::apply_override(const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  const std::string key = eq == std::string::npos ? assignment : assignment.substr(0, eq);
  if (eq == std::string::npos || key.empty() || key.find_first_of(" \t[]\"") != std::string::npos)
    throw ConfigError("--set", 0, key, "an override is KEY=VALUE, with KEY a dotted scenario key like nginx.worker_processes");
  std::string value = assignment.substr(eq + 1);
  auto doc = std::make_unique<toml::table>();
  try {
    *doc = toml::parse("v = " + value, std::string("--set"));
  } catch (const toml::parse_error&) {
    // A bare word (off, threads, random) is meant as a string.
    try {
      *doc = toml::parse("v = \"" + value + "\"", std::string("--set"));
    } catch (const toml::parse_error& e) {
      throw ConfigError("--set", 0, key, "cannot read the value '" + value + "': " + std::string(e.description()));
    }
  }
  const toml::node* v = doc->get("v");
  // Register the key in its parent tables, so unknown keys are still caught.
  std::string parent;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t dot = key.find('.', pos);
    const std::string name = key.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    auto& kids = children_[parent];
    if (std::find(kids.begin(), kids.end(), name) == kids.end()) kids.push_back(name);
    if (dot == std::string::npos) break;
    parent = key.substr(0, dot);
    pos = dot + 1;
  }
  nodes_[key] = v;
  documents_.push_back(std::move(doc));
}

void LayeredToml::load(const std::string& path, std::vector<std::string>& stack, const toml::node* included_from,
                       const std::string& from_file) {
  const int from_line = line_of(included_from);
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(path, ec);
  const std::string key = ec ? path : canonical.string();
  if (std::find(stack.begin(), stack.end(), key) != stack.end()) {
    std::string chain;
    for (const auto& s : stack) chain += fs::path(s).filename().string() + " -> ";
    throw ConfigError(from_file, from_line, "include", "include cycle: " + chain + fs::path(key).filename().string());
  }
  std::ifstream probe(path);
  if (!probe) {
    if (included_from) throw ConfigError(from_file, from_line, "include", "cannot read included file '" + path + "'");
    throw ConfigError(path, 0, "", "cannot read the file");
  }
  if (fs::is_directory(path, ec)) throw ConfigError(path, 0, "", "is a directory, not a scenario file");
  auto doc = std::make_unique<toml::table>();
  try {
    *doc = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    throw ConfigError(path, static_cast<int>(e.source().begin.line), "", std::string(e.description()));
  }
  stack.push_back(key);
  if (const toml::node* inc = doc->get("include")) {
    std::vector<const toml::node*> items;
    if (inc->is_string()) {
      items.push_back(inc);
    } else if (const toml::array* arr = inc->as_array()) {
      for (const toml::node& n : *arr) items.push_back(&n);
    } else {
      throw ConfigError(path, line_of(inc), "include", "must be a file name or a list of file names");
    }
    for (const toml::node* item : items) {
      if (!item->is_string()) throw ConfigError(path, line_of(item), "include", "must be a file name");
      fs::path target = fs::path(path).parent_path() / item->value<std::string>().value();
      if (!hardware_.empty() && is_hardware_profile(target) && !is_hardware_profile(path)) target = hardware_;
      load(target.string(), stack, item, path);
    }
  }
  stack.pop_back();
  overlay(*doc, "");
  documents_.push_back(std::move(doc));
}

void LayeredToml::overlay(const toml::table& table, const std::string& prefix) {
  for (auto&& [k, v] : table) {
    const std::string name(k.str());
    if (prefix.empty() && name == "include") continue;
    const std::string dotted = prefix.empty() ? name : prefix + "." + name;
    auto& kids = children_[prefix];
    if (std::find(kids.begin(), kids.end(), name) == kids.end()) kids.push_back(name);
    nodes_[dotted] = &v;
    if (const toml::table* sub = v.as_table()) overlay(*sub, dotted);
  }
}

const toml::node* LayeredToml::find(const std::string& dotted) const {
  auto it = nodes_.find(dotted);
  return it == nodes_.end() ? nullptr : it->second;
}

std::vector<std::string> LayeredToml::children(const std::string& table) const {
  auto it = children_.find(table);
  return it == children_.end() ? std::vector<std::string>{} : it->second;
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
