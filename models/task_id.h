// A task's id in TaskStates (models/os/task_states.h), as the CPU scheduler
// and the block layer's submitters name it; kNoTask where no task is known
// (kernel threads, wrk threads, a page-cache read submitted for nobody).
#pragma once
#include <cstdint>

namespace models {

inline constexpr std::uint32_t kNoTask = UINT32_MAX;

}  // namespace models
