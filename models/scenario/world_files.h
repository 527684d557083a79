// The files of a scenario as a run finds them at its start, the same in both
// engines: which paths the dentry cache holds, which files the page cache
// holds, and what a client reads for each file.
#pragma once
#include <cstdint>
#include <vector>

#include "models/os/dentry_cache.h"
#include "models/os/filesystem.h"
#include "models/os/page_cache.h"
#include "models/scenario/scenario.h"

namespace models {

// Ties the caches to the files and fills them as the scenario says. The
// caches and files must outlive the run (the dentry cache keeps a hook).
void warm_caches(const Scenario& sc, const Filesystem& files, DentryCache& dentries, PageCache& cache);

// What a client reads for each file: NGINX's response header and the file.
// Nothing for a warm-up to settle (warmup.h): no disk, or every file's data
// fits in the page cache and every path in the dentry cache.
bool nothing_to_settle(const Scenario& sc, const Filesystem& files);
// Every file's data fits in the page cache: it never reclaims.
bool data_fits(const Scenario& sc, const Filesystem& files);

std::vector<std::uint64_t> response_bytes(const Scenario& sc, const Filesystem& files);

// The server's configuration: the scenario's, with each client group's
// recorded placement (clerk realrun) for the listen sockets.
NginxConfig server_config(const Scenario& sc);

}  // namespace models
