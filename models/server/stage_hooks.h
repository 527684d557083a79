// The server's side of the request stage clocks (models/net/request_stages.h):
// which stage a handler's D wait is, by its wait channel.
#pragma once
#include "models/net/request_stages.h"
#include "models/os/task_states.h"

namespace models {

constexpr Stage disk_stage(WaitCause cause) {
  switch (cause) {
    case WaitCause::kDiskMetadata:
      return Stage::kDiskMetadata;
    case WaitCause::kRequestSlot:
      return Stage::kDiskSlot;
    case WaitCause::kReclaim:
      return Stage::kReclaim;
    default:
      return Stage::kDiskData;
  }
}

}  // namespace models
