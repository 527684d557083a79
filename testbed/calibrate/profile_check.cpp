#include "testbed/calibrate/profile_check.h"

#include <filesystem>
#include <stdexcept>

#include "models/scenario/config_loader.h"
#include "common/output_file.h"
#include "testbed/calibrate/profile_writer.h"

namespace testbed::calibrate {

models::Scenario load_profile(const std::string& profile, const std::string& scratch_dir) {
  const std::string path = scratch_dir + "/profile-check.toml";
  common::write_file_atomically(path, "include = " + toml_string(std::filesystem::absolute(profile).string()) +
                                          "\n"
                                          "duration = \"1s\"\n"
                                          "[nginx]\nworker_processes = 1\nsendfile = \"on\"\naio = \"off\"\n"
                                          "[dataset]\nfiles = 16\nfile_size = \"1m\"\ntree = [16]\n"
                                          "[clients.check]\nthreads = 1\nconnections = 1\npath = \"random\"\n");
  models::Scenario sc = models::load_scenario(path);
  std::filesystem::remove(path);
  return sc;
}

}  // namespace testbed::calibrate
