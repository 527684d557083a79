// A merged view of a TOML file and the files it includes, without copying
// nodes (a copied toml++ node forgets where it came from): every dotted key
// maps to the node that wins, which still knows its file and line.
//
// `include = "file.toml"` (or a list) may stand at the top of a file or in
// any table: the included file's keys land in that table, as defaults that
// the including table's own keys override. A name is relative to the
// including file, or "@hardware/NAME" (".toml" optional): a profile among
// the hardware presets (presets_dir()/hardware). A missing file, a cycle and
// a chain deeper than 64 files are ConfigErrors naming the include line.
#pragma once
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <toml++/toml.h>

namespace models {

// One TOML file as every scenario file is read: a regular file of at most
// common::kMaxScenarioFileBytes, checked by toml_guard, parsed by toml++. Throws
// ConfigError (file, line, what is wrong). For files that are not scenarios
// but are read like them (sweep specs): a FIFO blocked for ever and a key of
// 50,000 dotted parts overflowed the stack when toml++ read them directly.
toml::table parse_toml_file(const std::string& path);

// A hardware profile lives in a folder named `hardware` (scenarios/hardware/,
// or wherever `clerk calibrate --out` put one).
bool is_hardware_profile(const std::filesystem::path& file);

// The file --hardware names: a path as given, or a preset by name as
// clerk new and clerk import take it ("local", "@hardware/local": the
// presets' folder, .toml added); a bare name is a preset (./NAME for a
// file here without .toml). Probe 7: clerk run took no preset's name.
std::string hardware_profile_file(const std::string& given);

// The folder of the presets "@hardware/..." reaches: $CLERK_SCENARIOS when
// set, else the source tree's scenarios/ (where clerk was built from).
std::string presets_dir();

// The most files one scenario loads, itself and every include counted as
// often as it is included: as clerk import caps an nginx.conf's includes
// (cli/import/nginx_conf_parser.h, kMaxIncludedFiles). Each include is
// overlaid where it stands, so ten includes of a file that includes ten of
// the next one, six deep, are a million loads; the committed scenarios load
// fewer than ten.
inline constexpr std::size_t kMaxIncludeLoads = 4096;

class LayeredToml {
 public:
  // Parses `path` and, first, everything it includes; then applies the
  // overrides, each "dotted.key=VALUE" with VALUE in TOML syntax (a bare word
  // is taken as a string). Throws ConfigError.
  // `hardware`, when set, is read in place of every hardware profile the
  // scenario includes (an included file in a folder named `hardware`), as
  // `clerk realrun --hardware` swaps in a calibrated profile; a scenario
  // that includes none is a ConfigError, since nothing would change.
  explicit LayeredToml(const std::string& path, const std::vector<std::string>& overrides = {},
                       const std::string& hardware = "");
  // A document given as text, named `name` in errors; it may not include files.
  struct FromText {};
  LayeredToml(FromText, const std::string& text, const std::string& name);

  const toml::node* find(const std::string& dotted) const;
  // The node an error about `dotted` should point at: the node itself, or
  // for a table that only a --set override created, that override's value.
  const toml::node* locate(const std::string& dotted) const;
  // Child keys of a table, in first-seen order.
  std::vector<std::string> children(const std::string& table) const;
  const std::string& root_file() const { return root_; }
  // Every file read, each once, in the order they were read: the root file
  // first, then its includes depth first (an include's own includes before
  // the next include). Outputs may overwrite none of them; a sweep hashes them.
  const std::vector<std::string>& files() const { return files_; }
  // The file and line a node came from (the root file and 0 for none).
  std::string file_of(const toml::node* node) const;
  static int line_of(const toml::node* node);

 private:
  void load(const std::string& path, std::vector<std::string>& stack, const toml::node* included_from,
            const std::string& from_file, const std::string& prefix);
  // `stack` is null for --set's inline tables, which may not include.
  void overlay(const toml::table& table, const std::string& prefix, const std::string& file,
               std::vector<std::string>* stack);
  void load_includes(const toml::node& include, const std::string& prefix, const std::string& file,
                     std::vector<std::string>& stack);
  std::string include_target(const toml::node& item, const std::string& file, const std::string& prefix) const;
  void apply_override(const std::string& assignment);
  void refuse_unswapped_hardware() const;
  void note_hardware_replaced(const std::filesystem::path& replaced, const std::string& file, int line,
                              const std::string& key) const;
  void add_child(const std::string& table, const std::string& name);

  struct Children {
    std::vector<std::string> order;  // first-seen order, for messages and client groups
    std::unordered_set<std::string> seen;
  };

  std::string root_;
  std::string hardware_;
  // Whether `hardware_` took the place of an include: --hardware on a
  // scenario that includes no profile would change nothing (probe 6).
  mutable bool hardware_swapped_ = false;
  // The include it took the place of, as the scenario names it and as the
  // file it is (weakly_canonical: one file however it is reached, probe 7):
  // a second, different file would be swapped for the same profile (probe 6).
  mutable std::string hardware_replaced_, hardware_replaced_file_;
  // The files included as hardware profiles, and what they include in turn
  // (by the name each was loaded by): their own includes are parts of the
  // profile, never swapped.
  mutable std::unordered_set<std::string> profile_files_;
  std::vector<std::unique_ptr<toml::table>> documents_;
  // Each included file parsed once, by the name it was loaded by (that name
  // is every node's source): a file included again is overlaid again (a
  // later include overrides what came between), not read and parsed again.
  std::unordered_map<std::string, const toml::table*> parsed_;
  std::vector<std::string> files_;  // files(): each name in parsed_, in read order
  std::size_t loads_ = 0;  // files loaded (the scenario and every include, counting repeats)
  std::map<std::string, const toml::node*> nodes_;
  std::unordered_map<std::string, Children> children_;
  std::map<std::string, const toml::node*> set_origins_;  // tables that only --set created
};

}  // namespace models
