// Why a real thread is in D: the kernel functions on its stack
// (/proc/PID/task/TID/stack, or its wchan when the stack cannot be read),
// mapped to the causes the model reports in `blocked_by_cause`. The whole
// mapping is the table in wait_causes.cpp, one row per kernel function (or
// family of functions, by prefix), with where it sits in the kernel.
//
// A stack can hold functions of several causes; the cause is the first of
// these that appears anywhere on it, in this order:
//   1. reclaim       the thread is reclaiming memory (direct or memcg reclaim,
//                    shrinkers) and sleeps inside it: whatever it waits for,
//                    it waits because memory ran short;
//   2. request_slot  it waits for a block request (blk_mq_get_tag; the legacy
//                    queue's get_request): the device queue is full;
//   3. disk_metadata it waits for a buffer_head (__wait_on_buffer), a journal
//                    (jbd2) or inside the path walk / ext4's inode and
//                    directory reads: a metadata read;
//   4. disk_data     it waits for a page-cache folio of file data
//                    (folio_wait_bit_common, filemap_*, readahead).
// So a data read that first reads an extent block waits for metadata, and a
// metadata read stuck behind a full queue waits for a request slot.
// A D stack that matches nothing is `other`, listed by its wchan.
#pragma once
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace testbed::realrun {

// The D causes, in the order above, then `other`. Keys as the model's JSON.
enum class BlockCause { kReclaim, kRequestSlot, kDiskMetadata, kDiskData, kOther, kCount };
inline constexpr std::size_t kBlockCauses = static_cast<std::size_t>(BlockCause::kCount);
const char* block_cause_key(BlockCause cause);  // "reclaim", "request_slot", "disk_metadata", "disk_data", "other"

struct CauseRule {
  const char* function;  // a kernel function name, or a prefix of names ending in '*'
  BlockCause cause;
  const char* where;     // the kernel file and role, for the reader of the table
};
std::span<const CauseRule> cause_rules();

// "[<0>] folio_wait_bit_common+0x12c/0x2f0" -> "folio_wait_bit_common";
// compiler suffixes go: "poll_schedule_timeout.constprop.0" -> "poll_schedule_timeout".
std::string frame_function(const std::string& stack_line);
// The functions of a /proc/.../stack text, innermost first.
std::vector<std::string> stack_functions(const std::string& stack_text);

// The cause of one function (kOther if no rule names it).
BlockCause cause_of_function(const std::string& function);
// The cause of a D stack (innermost first), by the order above.
BlockCause cause_of_stack(const std::vector<std::string>& functions);

}  // namespace testbed::realrun
