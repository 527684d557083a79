// Where a fuzzed scenario text is written so that its includes resolve as the
// committed scenarios' do.
//
// One folder per process, made with mkdtemp under $TMPDIR (scripts/fuzz points
// TMPDIR into the build folder and empties it afterwards):
//   ROOT/<sub>          a symlink to scenarios/<sub>, for every folder there
//   ROOT/fuzz/input.toml  the text being tried (a lesson: ROOT/fuzz/1-fuzz.toml)
// so `include = "../hardware/local.toml"` reads the committed profile. The
// seed corpus is written with every include made relative to ROOT/fuzz
// ("common.toml" in scenarios/local/ becomes "../local/common.toml"), so each
// committed scenario loads from here exactly as from its own folder.
// Per process, so that libFuzzer's -fork and -jobs workers never share a file.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace fuzz {

class ScenarioSandbox {
 public:
  explicit ScenarioSandbox(const std::filesystem::path& scenarios_dir);
  ScenarioSandbox(const ScenarioSandbox&) = delete;
  ScenarioSandbox& operator=(const ScenarioSandbox&) = delete;
  ~ScenarioSandbox();  // removes the folder: the links, never what they point to

  // Replaces ROOT/fuzz/input.toml with `text`; returns its path.
  const std::string& write(std::string_view text);
  // Replaces ROOT/fuzz/<name> (a plain file name) with `text`; returns its
  // path: a lesson must be named N-name.toml.
  std::string write_named(const std::string& name, std::string_view text);

 private:
  std::filesystem::path root_;
  std::string input_;
};

// The process's sandbox, made on first use, over $CLERK_FUZZ_SCENARIOS or the
// source tree's scenarios/ folder.
ScenarioSandbox& sandbox();

}  // namespace fuzz
