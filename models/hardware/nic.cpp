#include "models/hardware/nic.h"

namespace models {

Nic::Nic(sim::Engine& engine, const NicSpec& spec) : spec_(spec), share_(engine, spec.payload_Bps()) {}

std::uint32_t Nic::open_flow(FlowListener* listener, std::uint64_t tag) {
  const std::uint32_t f = flows_.take();
  flows_[f] = Flow{sim::FairShare::kNoJob, listener, tag, true};
  return f;
}

void Nic::close_flow(std::uint32_t f) {
  if (flows_[f].job != sim::FairShare::kNoJob) share_.cancel(flows_[f].job);
  flows_[f] = Flow{};
  flows_.release(f);
}

void Nic::send(std::uint32_t f, double bytes) {
  if (bytes <= 0) return;
  Flow& flow = flows_[f];
  if (flow.job == sim::FairShare::kNoJob)
    flow.job = share_.add(bytes, this, f);
  else
    share_.extend(flow.job, bytes);
}

void Nic::send_deferred(std::uint32_t f, double bytes) {
  if (bytes <= 0) return;
  Flow& flow = flows_[f];
  if (flow.job == sim::FairShare::kNoJob)
    flow.job = share_.add(bytes, this, f);
  else
    share_.extend_deferred(flow.job, bytes);
}

double Nic::backlog(std::uint32_t f) {
  const Flow& flow = flows_[f];
  return flow.job == sim::FairShare::kNoJob ? 0.0 : share_.remaining(flow.job);
}

void Nic::notify_below(std::uint32_t f, double bytes) {
  Flow& flow = flows_[f];
  if (flow.job == sim::FairShare::kNoJob || share_.remaining(flow.job) <= bytes) {
    flow.listener->on_flow_below(flow.tag);
    return;
  }
  share_.set_threshold(flow.job, bytes);
}

void Nic::on_share_milestone(std::uint32_t, std::uint64_t tag, double remaining) {
  const auto f = static_cast<std::uint32_t>(tag);
  Flow& flow = flows_[f];
  if (remaining > 0) {
    flow.listener->on_flow_below(flow.tag);
    return;
  }
  flow.job = sim::FairShare::kNoJob;
  flow.listener->on_flow_empty(flow.tag);
}

}  // namespace models
