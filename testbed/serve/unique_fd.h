// clerk-serve's file descriptors: common/unique_fd.h's.
#pragma once

#include "common/unique_fd.h"

namespace clerk::serve {

using UniqueFd = common::UniqueFd;

}  // namespace clerk::serve
