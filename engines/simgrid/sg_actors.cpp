#include "engines/simgrid/sg_actors.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>

namespace sgengine {

namespace {

// Linux's DEFAULT_MAX_MAP_COUNT (include/linux/mm.h: USHRT_MAX - 5).
constexpr std::uint64_t kLinuxDefaultMapCount = 65530;
// Two mappings per actor: its stack and SimGrid's guard page (sg_actors.h).
constexpr std::uint64_t kMappingsPerActor = 2;
// The mappings of clerk-simgrid that are not actors' stacks, as
// /proc/PID/maps counts them: the program and its libraries (SimGrid, ns-3,
// Boost), its heap and large allocations (the page cache's and the
// scenario's tables). 190 at the peak of scenarios/agreement/slow-disk.toml
// with 32,000 pool threads (64,296 mappings for 32,053 actors), about 200 in
// misses.toml's. The rest is a margin for a shared disk's readahead reads
// beyond the one per reader counted (sg_simple_disk.cpp starts an actor per
// read) and for what a scenario allocates more.
constexpr std::uint64_t kOtherMappings = 1024;

// wrk's sockets: connections / threads per thread (sg_clients.cpp, as wrk 4.0).
std::uint64_t sockets_of(const models::WrkGroupSpec& g) {
  return std::uint64_t{g.threads} * (g.connections / g.threads);
}

// The clients' actors (sg_clients.cpp); adds their sockets to `sockets`.
void count_clients(const models::Scenario& sc, std::vector<ActorCount>& out, std::uint64_t& sockets) {
  for (const models::WrkGroupSpec& g : sc.clients) {
    const std::string key = "clients." + g.name;
    const std::uint64_t n = sockets_of(g);
    sockets += n;
    out.push_back({key + ".connections", n, "wrk sockets"});
    if (g.rate > 0) out.push_back({key + ".rate", n, "wrk2 schedules (one per connection in open loop)"});
    if (g.on_server_host) out.push_back({key + ".host", g.threads, "wrk threads on the server's host"});
  }
}

// Every group's connections key, for the NIC flows they open.
std::string connection_keys(const models::Scenario& sc) {
  std::string keys;
  for (const models::WrkGroupSpec& g : sc.clients) keys += (keys.empty() ? "" : ", ") + ("clients." + g.name + ".connections");
  return keys;
}

// "what: N (keys)", the largest first.
std::string listed(std::vector<ActorCount> counts) {
  std::stable_sort(counts.begin(), counts.end(), [](const ActorCount& a, const ActorCount& b) { return a.actors > b.actors; });
  std::string out;
  for (const ActorCount& c : counts) {
    if (c.actors == 0) continue;
    out += (out.empty() ? "" : ", ") + fmt::format("{}: {}", c.what, c.actors);
    if (!c.keys.empty()) out += " (" + c.keys + ")";
  }
  return out;
}

// The keys to lower first: the largest count's (the list gives the rest).
std::string keys_to_lower(const std::vector<ActorCount>& counts) {
  const ActorCount* largest = nullptr;
  for (const ActorCount& c : counts)
    if (!c.keys.empty() && (!largest || c.actors > largest->actors)) largest = &c;
  return largest ? largest->keys : std::string("the scenario");
}

}  // namespace

std::vector<ActorCount> count_actors(const models::Scenario& sc) {
  std::vector<ActorCount> out;
  std::uint64_t sockets = 0;
  count_clients(sc, out, sockets);
  // sg_nic.cpp: an actor per flow, kept for the next flow once closed; a
  // connection's flow is closed before its socket reconnects
  // (models/server/connection_table.h), so at most one per socket.
  out.push_back({connection_keys(sc), sockets, "NIC flows at most (one per connection)"});
  const std::uint64_t workers = sc.nginx.worker_processes;
  out.push_back({"nginx.worker_processes", workers, "workers"});
  std::uint64_t readers = workers;
  if (sc.nginx.aio->thread_pool) {
    const std::uint64_t threads = workers * sc.nginx.thread_pool.threads;  // a pool per worker (sg_worker.cpp)
    out.push_back({"nginx.thread_pool.threads x nginx.worker_processes", threads, "pool threads"});
    readers += threads;
  }
  // A reader waits for its own read, and serves one request at a time.
  out.push_back(disk_actors(sc.hardware.disk, std::min(readers, sockets)));
  out.push_back({"", 2, "clocks (the run's and the clients' alarms)"});
  return out;
}

std::uint64_t total_actors(const std::vector<ActorCount>& counts) {
  std::uint64_t n = 0;
  for (const ActorCount& c : counts) n += c.actors;
  return n;
}

std::uint64_t actor_limit(std::uint64_t max_map_count) {
  return max_map_count > kOtherMappings ? (max_map_count - kOtherMappings) / kMappingsPerActor : 0;
}

std::uint64_t max_map_count() {
  std::ifstream in("/proc/sys/vm/max_map_count");
  std::uint64_t n = 0;
  return in >> n && n > 0 ? n : kLinuxDefaultMapCount;
}

std::optional<std::string> too_many_actors(const models::Scenario& sc, std::uint64_t max_map_count) {
  const std::vector<ActorCount> counts = count_actors(sc);
  const std::uint64_t total = total_actors(counts), limit = actor_limit(max_map_count);
  if (total <= limit) return std::nullopt;
  return fmt::format(
      "{}: the SimGrid engine would start up to {} actors, more than the {} that vm.max_map_count = {} allows (each "
      "actor's stack takes two memory mappings with SimGrid's guard page, and SimGrid aborts when the kernel refuses "
      "one: engines/simgrid/sg_actors.h); {}; lower them, or raise vm.max_map_count",
      keys_to_lower(counts), total, limit, max_map_count, listed(counts));
}

}  // namespace sgengine
