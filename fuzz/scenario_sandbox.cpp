#include "fuzz/scenario_sandbox.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace fuzz {

namespace fs = std::filesystem;

namespace {

fs::path make_temp_folder() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/clerk-fuzz-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()))
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
  return fs::path(buf.data());
}

void link_subfolders(const fs::path& scenarios, const fs::path& root) {
  if (!fs::is_directory(scenarios))
    throw std::runtime_error("fuzz: no scenarios folder at " + scenarios.string() + " (set CLERK_FUZZ_SCENARIOS)");
  for (const fs::directory_entry& e : fs::directory_iterator(scenarios))
    if (e.is_directory()) fs::create_directory_symlink(fs::absolute(e.path()), root / e.path().filename());
}

}  // namespace

ScenarioSandbox::ScenarioSandbox(const fs::path& scenarios_dir) : root_(make_temp_folder()) {
  link_subfolders(scenarios_dir, root_);
  fs::create_directory(root_ / "fuzz");
  input_ = (root_ / "fuzz" / "input.toml").string();
}

ScenarioSandbox::~ScenarioSandbox() {
  std::error_code ec;  // nothing to report at exit: a leftover folder is harmless
  fs::remove_all(root_, ec);  // remove_all removes symlinks, not their targets
}

namespace {
// A new file each time, not the old one truncated: ext4 (auto_da_alloc)
// starts writing back, on close, a file that was truncated to nothing while
// it had unwritten data, so truncating the last input made every execution
// write to the disk (3% of fuzz_sweep's time, ext4_release_file in perf);
// a removed file's unwritten pages are just dropped.
void write_file(const std::string& path, std::string_view text) {
  std::error_code ec;
  fs::remove(path, ec);  // none yet is fine; one that cannot go is reported by the write below
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) throw std::runtime_error("fuzz: cannot write " + path);
}
}  // namespace

const std::string& ScenarioSandbox::write(std::string_view text) {
  write_file(input_, text);
  return input_;
}

std::string ScenarioSandbox::write_named(const std::string& name, std::string_view text) {
  const std::string path = (root_ / "fuzz" / name).string();
  write_file(path, text);
  return path;
}

ScenarioSandbox& sandbox() {
  static ScenarioSandbox box([] {
    const char* env = std::getenv("CLERK_FUZZ_SCENARIOS");
    return fs::path(env && *env ? env : CLERK_SCENARIOS_DIR);
  }());
  return box;
}

}  // namespace fuzz
