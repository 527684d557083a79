// What the SimGrid engine can run: a check on the scenario alone, kept apart
// from SimGrid itself so that clerk can answer it without loading SimGrid.
#include "engines/simgrid/sg_run.h"

#include "engines/simgrid/sg_actors.h"
#include "models/scenario/disk_kinds.h"

namespace sgengine {

std::vector<std::string> unsupported(const models::Scenario& sc) {
  std::vector<std::string> out;
  for (const models::WrkGroupSpec& g : sc.clients)
    if (g.trace.enabled())
      out.push_back("clients." + g.name + ".trace: a replayed access log (models/clients/trace.h; not expressed on SimGrid yet)");
  for (const models::WrkGroupSpec& g : sc.clients)
    if (g.network.internet)
      out.push_back("clients." + g.name + ".rtt and bandwidth: internet clients, with TCP slow start per connection "
                    "(models/os/tcp_sender.h; not expressed on SimGrid yet)");
  const models::DiskKind& disk = models::disk_kind(sc.hardware.disk);
  if (disk.simgrid_refusal) out.push_back("disk.type = \"" + std::string(disk.name) + "\": " + disk.simgrid_refusal);
  if (const models::DiskKind* member = disk.member ? disk.member(sc.hardware.disk) : nullptr)
    if (member->simgrid_refusal)
      out.push_back("disk.member.type = \"" + std::string(member->name) + "\" (in an md " + disk.brief + "): " +
                    member->simgrid_refusal);
  if (sc.kernel.sched.policy != "processor-sharing")
    out.push_back("kernel.scheduler = \"" + sc.kernel.sched.policy +
                  "\": per-CPU run queues with the kernel's policy (not expressed on SimGrid, whose CPUs share "
                  "by processor sharing; set kernel.scheduler = \"processor-sharing\")");
  if (sc.hardware.costs.cache_fill_byte > 0)
    out.push_back("cpu.cache_fill_byte: the kernel's CPU time for reads into the page cache (not expressed on SimGrid yet)");
  if (sc.hardware.costs.cache_fill_reader_byte >= 0)
    out.push_back("cpu.cache_fill_reader_byte: the reader's part of the page cache's fill, the rest in the block completion "
                  "(not expressed on SimGrid yet)");
  if (sc.nginx.aio->simgrid_refusal)
    out.push_back("nginx.aio = \"" + std::string(sc.nginx.aio->name) + "\": " + sc.nginx.aio->simgrid_refusal);
  if (sc.nginx.freebsd)
    out.push_back("nginx.os = \"freebsd\": sendfile(SF_NODISKIO) with its preload (models/server/worker.cpp; not "
                  "expressed on SimGrid yet)");
  if (sc.nginx.directio)
    out.push_back("nginx.directio: O_DIRECT reads through output_buffers (models/os/direct_io.h; not expressed on "
                  "SimGrid yet)");
  if (sc.nginx.aio_nowait)
    out.push_back("nginx.aio_nowait: the RWF_NOWAIT probe before the pool (models/server/nowait_probe.h; not "
                  "expressed on SimGrid yet)");
  if (sc.nginx.open_file_cache.enabled)
    out.push_back("nginx.open_file_cache: each worker's cache of open files (models/server/open_file_cache.h; not "
                  "expressed on SimGrid yet)");
  if (!sc.hardware.disks.empty())
    out.push_back("disks." + sc.hardware.disks.front().name + ": several independent disks under one page cache "
                  "(models/hardware/disk_set.h; not expressed on SimGrid yet)");
  if (!sc.nginx.more_thread_pools.empty())
    out.push_back("nginx.thread_pool: several named pools, each request's reads to the pool aio threads=NAME names "
                  "(models/server/pool_choice.h; not expressed on SimGrid yet)");
  if (sc.nginx.split_clients.enabled())
    out.push_back("nginx.split_clients: a per-request variable from MurmurHash2 of the URI "
                  "(models/server/split_clients.h; not expressed on SimGrid yet)");
  if (std::optional<std::string> why = too_many_actors(sc, max_map_count())) out.push_back(std::move(*why));
  return out;
}

}  // namespace sgengine
