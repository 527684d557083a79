// A solid-state drive on the event heap: the drive itself (units, queue,
// draws, counters) is SsdDrive (ssd_drive.h, where the model is described);
// this class only keeps its time on the engine, as Hdd does for HddDrive.
#pragma once
#include <cstdint>

#include "models/hardware/block_device.h"
#include "models/hardware/ssd_drive.h"
#include "sim/engine.h"

namespace models {

class Ssd final : public BlockDevice, public sim::EventTarget {
 public:
  Ssd(sim::Engine& engine, const SsdSpec& spec, sim::RandomStream rng) : engine_(engine), drive_(spec, rng) {}

  void submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener, std::uint64_t tag) override {
    if (const auto started = drive_.submit(engine_.now(), offset, length, listener, tag)) wait(*started);
  }
  std::uint64_t capacity() const override { return drive_.capacity(); }
  std::uint64_t readahead_bytes() const override { return drive_.spec().readahead_bytes; }
  DiskStats stats() const override { return drive_.stats(engine_.now()); }
  void reset_peaks() override { drive_.reset_peaks(); }
  std::vector<DriveView> drive_views() const override { return {{outstanding(), nullptr}}; }
  DriveWords drive_words(std::uint32_t) const override {
    return {{{DriveLine::Style::kServer, "reads at the SSD: up to `parallelism` served at once by its internal units, "
                                         "the rest wait in arrival order."},
             {DriveLine::Style::kText, printed("in service: %u of %u units; waiting: %zu", in_service(),
                                               spec().parallelism, outstanding() - in_service())}},
            {}};
  }
  // The read in unit `arg` is done.
  void on_event(std::uint64_t arg) override {
    std::optional<SsdDrive::Started> next;
    const SsdDrive::Read done = drive_.complete(engine_.now(), static_cast<std::uint32_t>(arg), next);
    if (next) wait(*next);
    done.listener->on_io_done(done.tag);
  }

  // Public for tests and front ends (the visualizer).
  double sample_access_s() { return drive_.sample_access_s(); }
  double bandwidth_at(double depth) const { return drive_.bandwidth_at(depth); }
  double sequential_bandwidth_at(double depth) const { return drive_.sequential_bandwidth_at(depth); }
  std::size_t outstanding() const { return drive_.outstanding(); }
  std::uint64_t sequential_reads() const { return drive_.sequential_reads(); }
  static constexpr std::size_t kRememberedEnds = SsdDrive::kRememberedEnds;
  std::uint32_t in_service() const { return drive_.in_service(); }
  const SsdSpec& spec() const { return drive_.spec(); }

 private:
  void wait(const SsdDrive::Started& s) { engine_.schedule_in(s.service, this, s.slot); }

  sim::Engine& engine_;
  SsdDrive drive_;
};

}  // namespace models
