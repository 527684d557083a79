#include "engines/simgrid/sg_platform.h"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <string>
#include <xbt/log.h>

#include "common/sanitizer.h"
#include "engines/simgrid/sg_disks.h"
#include "models/scenario/disk_kinds.h"

namespace sgengine {

namespace sg4 = simgrid::s4u;

namespace {
// SimGrid allocates each actor's stack on the heap with a guard page at its
// end made unreadable (mprotect PROT_NONE, SwappedContext). A world given up
// while it is built leaves its actors to SimGrid's skipped cleanup
// (sg_world.h, QuietAbandon): their stacks stay allocated and reachable, and
// LeakSanitizer's scan of the heap at exit reads the guard page, faults and
// aborts the process ("Tracer caught signal 11", exit 134 instead of clerk's
// 2). In a sanitized build the stacks go without a guard page: an actor's
// stack overflow is caught there only where ASan's redzones see it; the
// release build keeps SimGrid's guard.
constexpr bool kUnderLeakSanitizer = common::kAddressSanitizer;
}  // namespace

void configure_engine() {
  xbt_log_control_set("xbt_cfg.thresh:warning");  // no line per setting below
  // Waits of a nanosecond or less (times rounded to the nanosecond, as the
  // native engine keeps them) are below SimGrid's default timing precision,
  // about which it writes a line each time; they are served as no wait.
  xbt_log_control_set("s4u_actor.thresh:warning");
  sg4::Engine::set_config("network/model:CM02");
  // No reverse "ACK" flow per transfer: the clients' direction is not modelled.
  sg4::Engine::set_config("network/crosstraffic:0");
  // Actors here keep shallow stacks; SimGrid's 8 MiB default per actor
  // would reserve gigabytes for the 9x run's thousand actors.
  sg4::Engine::set_config("contexts/stack-size:256");
  if (kUnderLeakSanitizer) sg4::Engine::set_config("contexts/guard-size:0");
}

Platform build_platform(const models::HardwareSpec& hw) {
  Platform p;
  sg4::NetZone* zone = sg4::create_full_zone("lan");
  p.server = zone->create_host("server", kFlopsPerSecond)->set_core_count(static_cast<int>(hw.logical_cpus))->seal();
  p.clients = zone->create_host("clients", kFlopsPerSecond)->seal();
  sg4::SplitDuplexLink* nic = zone->create_split_duplex_link("nic", hw.nic.payload_Bps());
  nic->set_latency(0)->seal();
  zone->add_route(p.server->get_netpoint(), p.clients->get_netpoint(), nullptr, nullptr,
                  {sg4::LinkInRoute(nic, sg4::LinkInRoute::Direction::UP)}, true);
  p.nic = nic->get_link_up();
  // The disk kind's own resources (sg_disks.h).
  if (const SgDiskKind* disk = find_sg_disk_kind(models::disk_kind(hw.disk).name); disk && disk->add_resources)
    disk->add_resources(p, hw.disk);
  zone->seal();
  return p;
}

}  // namespace sgengine
