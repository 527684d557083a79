// md RAID10 near-2 layout and read balancing.
#include <catch2/catch.hpp>

#include "models/hardware/raid10.h"

namespace {
models::Raid10Spec four_disks() {
  models::Raid10Spec s;
  s.devices = 4;
  s.near_copies = 2;
  s.chunk_bytes = 512 * 1024;
  s.member.capacity_bytes = 1e12;
  s.member.rpm = 7200;
  s.member.seek_average_s = 8.9e-3;
  s.member.seek_track_s = 2e-3;
  s.member.rate_outer_Bps = 128e6;
  s.member.rate_inner_Bps = 67.5e6;
  return s;
}
struct Count : models::IoListener {
  int done = 0;
  void on_io_done(std::uint64_t) override { ++done; }
};
}  // namespace

TEST_CASE("near-2 layout: chunk k on pair k mod 2 and a 4 MiB file is 2 MiB per pair") {
  sim::Engine e;
  models::Raid10 raid(e, four_disks());
  const std::uint64_t chunk = 512 * 1024;
  CHECK(raid.locate(0, 0).device == 0);
  CHECK(raid.locate(0, 1).device == 1);
  CHECK(raid.locate(chunk, 0).device == 2);
  CHECK(raid.locate(chunk, 1).device == 3);
  CHECK(raid.locate(2 * chunk, 0).device == 0);
  CHECK(raid.locate(2 * chunk, 0).device_offset == chunk);
  // Pair 0 holds chunks 0, 2, 4, 6 of a 4 MiB file back to back.
  for (std::uint64_t k = 0; k < 8; k += 2) CHECK(raid.locate(k * chunk, 0).device_offset == k / 2 * chunk);
  CHECK(raid.capacity() == 2 * (static_cast<std::uint64_t>(1e12) / chunk) * chunk);
  // md raises readahead to two stripes: 2 x (4 x 512 KiB / 2) = 2 MiB.
  CHECK(raid.readahead_bytes() == 2 * 1024 * 1024);
}

TEST_CASE("a read spanning chunks completes once and after all its pieces") {
  sim::Engine e;
  models::Raid10 raid(e, four_disks());
  Count c;
  raid.submit_read(256 * 1024, 1024 * 1024, &c, 0);  // pieces on pairs 0, 1, 0
  e.run_until(sim::seconds(1));
  CHECK(c.done == 1);
  CHECK(raid.stats().reads == 3);
  CHECK(raid.stats().read_bytes == 1024 * 1024);
}

TEST_CASE("read balancing sends a second read to the idle mirror") {
  sim::Engine e;
  models::Raid10 raid(e, four_disks());
  Count c;
  raid.submit_read(0, 4096, &c, 0);
  raid.submit_read(4096, 4096, &c, 1);  // same chunk, disk 0 busy: disk 1 is idle
  e.run_until(sim::seconds(1));
  CHECK(c.done == 2);
  CHECK(raid.member(0).stats().reads == 1);
  CHECK(raid.member(1).stats().reads == 1);
}
