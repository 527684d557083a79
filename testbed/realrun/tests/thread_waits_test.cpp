// Where real threads wait: the /proc parsers, the kernel-function mapping,
// and the sampler over a hand-made /proc tree.
#include <catch2/catch.hpp>

#include "common/proc_files.h"
#include "common/tests/fake_tree.h"
#include "testbed/realrun/thread_waits.h"
#include "testbed/realrun/wait_causes.h"

using namespace testbed::realrun;
using common::test::FakeTree;

namespace {

// Stacks as a 6.x kernel prints them in /proc/PID/task/TID/stack (innermost first).
const char* const kSendfileDataWait =
    "[<0>] folio_wait_bit_common+0x13d/0x350\n"
    "[<0>] filemap_get_pages+0x5f1/0x640\n"
    "[<0>] filemap_splice_read+0x15b/0x360\n"
    "[<0>] splice_direct_to_actor+0xb7/0x260\n"
    "[<0>] do_splice_direct+0x76/0xd0\n"
    "[<0>] do_sendfile+0x35c/0x430\n"
    "[<0>] __x64_sys_sendfile64+0xb4/0xd0\n"
    "[<0>] do_syscall_64+0x71/0x290\n"
    "[<0>] entry_SYSCALL_64_after_hwframe+0x76/0x7e\n";
const char* const kOpenInodeRead =
    "[<0>] __wait_on_bit+0x2f/0x90\n"
    "[<0>] out_of_line_wait_on_bit+0x8d/0xb0\n"
    "[<0>] __wait_on_buffer+0x30/0x40\n"
    "[<0>] ext4_read_bh+0x80/0xa0\n"
    "[<0>] __ext4_get_inode_loc+0x1c5/0x4d0\n"
    "[<0>] __ext4_iget+0x10a/0xea0\n"
    "[<0>] ext4_lookup+0xff/0x220\n"
    "[<0>] __lookup_slow+0x84/0x130\n"
    "[<0>] walk_component+0xdb/0x150\n"
    "[<0>] path_openat+0x2a3/0xf40\n"
    "[<0>] do_filp_open+0xb7/0x160\n"
    "[<0>] do_sys_openat2+0x8d/0xc0\n";
const char* const kReadaheadWaitsForTag =
    "[<0>] blk_mq_get_tag+0x11e/0x2a0\n"
    "[<0>] __blk_mq_alloc_requests+0x1d4/0x380\n"
    "[<0>] blk_mq_submit_bio+0x2d0/0x6f0\n"
    "[<0>] ext4_mpage_readpages+0x2a8/0x750\n"
    "[<0>] read_pages+0x6d/0x250\n"
    "[<0>] page_cache_ra_unbounded+0x136/0x1c0\n"
    "[<0>] filemap_get_pages+0x10d/0x640\n";
// A page-cache read that charges its new folio to a cgroup at its limit, and
// reclaim waits for a folio under writeback: a folio wait, but for reclaim.
const char* const kReadInMemcgReclaim =
    "[<0>] folio_wait_bit_common+0x13d/0x350\n"
    "[<0>] shrink_folio_list+0x8a1/0xc30\n"
    "[<0>] shrink_lruvec+0x5c4/0xaf0\n"
    "[<0>] shrink_node+0x2a4/0x6e0\n"
    "[<0>] do_try_to_free_pages+0xd7/0x530\n"
    "[<0>] try_to_free_mem_cgroup_pages+0x10a/0x270\n"
    "[<0>] try_charge_memcg+0x196/0x7a0\n"
    "[<0>] filemap_add_folio+0x4c/0xd0\n"
    "[<0>] page_cache_ra_unbounded+0x8f/0x1c0\n"
    "[<0>] filemap_get_pages+0x10d/0x640\n";
// A data read whose extent block is not cached: metadata first.
const char* const kDataReadsExtentBlock =
    "[<0>] __wait_on_buffer+0x30/0x40\n"
    "[<0>] ext4_read_bh+0x80/0xa0\n"
    "[<0>] __read_extent_tree_block+0xe8/0x1b0\n"
    "[<0>] ext4_find_extent+0x1b5/0x3f0\n"
    "[<0>] ext4_map_blocks+0x93/0x620\n"
    "[<0>] ext4_mpage_readpages+0x3bf/0x750\n"
    "[<0>] read_pages+0x6d/0x250\n"
    "[<0>] filemap_get_pages+0x10d/0x640\n";
const char* const kWritebackThrottle = "[<0>] rq_qos_wait+0xbf/0x130\n[<0>] wbt_wait+0xa1/0x100\n";

std::string stat_line(int tid, const char* comm, char state, int processor) {
  // pid (comm) state, then fields 4..38 as zeros, then processor (39) and a few more.
  std::string s = std::to_string(tid) + " (" + comm + ") " + state;
  for (int f = 4; f <= 38; ++f) s += " 0";
  return s + " " + std::to_string(processor) + " 0 0 0 0 0\n";
}

void put_thread(const FakeTree& tree, int pid, int tid, char state, const std::string& schedstat,
                const std::string& wchan, const std::string& stack) {
  const std::string base = "/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/";
  tree.write(base + "stat", stat_line(tid, "nginx: worker) x", state, 1));
  tree.write(base + "schedstat", schedstat);
  tree.write(base + "wchan", wchan);
  tree.write(base + "stack", stack);
}

}  // namespace

TEST_CASE("task stat: state and processor after a name holding ') '", "[thread_waits]") {
  const auto t = parse_task_stat(stat_line(7, "a) b", 'D', 3));
  REQUIRE(t);
  CHECK(t->state == 'D');
  CHECK(t->processor == 3);
  CHECK_FALSE(parse_task_stat(""));
  CHECK_FALSE(parse_task_stat("7 (x) DD 1"));
  const auto s = parse_schedstat("371404557 782164390 261\n");
  REQUIRE(s);
  CHECK(s->on_cpu_ns == 371404557);
  CHECK(s->run_queue_ns == 782164390);
  CHECK(s->timeslices == 261);
  CHECK_FALSE(parse_schedstat("12 x"));
  CHECK(parse_wchan("0") == "");
  CHECK(parse_wchan("ep_poll") == "ep_poll");
  CHECK(parse_wchan("") == "");
}

TEST_CASE("stack lines: function names without offsets or compiler suffixes", "[thread_waits]") {
  CHECK(frame_function("[<0>] folio_wait_bit_common+0x13d/0x350") == "folio_wait_bit_common");
  CHECK(frame_function("[<0>] poll_schedule_timeout.constprop.0+0x37/0x90") == "poll_schedule_timeout");
  CHECK(frame_function("[<ffffffff811a2b3c>] sleep_on_page+0xe/0x20") == "sleep_on_page");  // 3.13's format
  const auto f = stack_functions(kSendfileDataWait);
  REQUIRE(f.size() == 9);
  CHECK(f.front() == "folio_wait_bit_common");
  CHECK(f.back() == "entry_SYSCALL_64_after_hwframe");
}

TEST_CASE("D stacks map to their cause, reclaim before request slots before metadata before data", "[thread_waits]") {
  CHECK(cause_of_stack(stack_functions(kSendfileDataWait)) == BlockCause::kDiskData);
  CHECK(cause_of_stack(stack_functions(kOpenInodeRead)) == BlockCause::kDiskMetadata);
  CHECK(cause_of_stack(stack_functions(kReadaheadWaitsForTag)) == BlockCause::kRequestSlot);
  CHECK(cause_of_stack(stack_functions(kReadInMemcgReclaim)) == BlockCause::kReclaim);
  CHECK(cause_of_stack(stack_functions(kDataReadsExtentBlock)) == BlockCause::kDiskMetadata);
  CHECK(cause_of_stack(stack_functions(kWritebackThrottle)) == BlockCause::kOther);
  CHECK(cause_of_stack({}) == BlockCause::kOther);
  // The wchan alone, as 3.13 shows it.
  CHECK(cause_of_stack({"sleep_on_page"}) == BlockCause::kDiskData);
  CHECK(cause_of_stack({"sleep_on_buffer"}) == BlockCause::kDiskMetadata);
  CHECK(cause_of_stack({"get_request"}) == BlockCause::kRequestSlot);
  CHECK(cause_of_stack({"shrink_slab"}) == BlockCause::kReclaim);
  CHECK(std::string(block_cause_key(BlockCause::kDiskMetadata)) == "disk_metadata");
}

TEST_CASE("every row of the mapping decides its own function (none shadowed by another cause)", "[thread_waits]") {
  for (const CauseRule& r : cause_rules()) {
    std::string name = r.function;
    if (name.back() == '*') name.replace(name.size() - 1, 1, "something");
    INFO(r.function);
    CHECK(cause_of_function(name) == r.cause);
  }
}

TEST_CASE("the sampler on a fake /proc: states, causes, run-queue wait, pool threads in turn", "[thread_waits]") {
  FakeTree tree;
  const auto files = common::files_under(tree.root());
  // Worker 100: its main thread and two pool threads.
  put_thread(tree, 100, 100, 'D', "1000000000 500000000 10\n", "folio_wait_bit_common", kSendfileDataWait);
  put_thread(tree, 100, 101, 'S', "0 0 0\n", "futex_wait_queue", "");
  put_thread(tree, 100, 102, 'D', "0 0 0\n", "__wait_on_bit", kOpenInodeRead);
  WaitSampler sampler(*files, {100}, 1);  // one pool thread a tick

  sampler.sample(0);  // main D (data), pool 101 S
  // One second later: the main thread is runnable; it ran 0.5 s and waited 0.25 s for a CPU.
  put_thread(tree, 100, 100, 'R', "1500000000 750000000 20\n", "0", "");
  sampler.sample(1'000'000'000);  // main R, pool 102 D (metadata)
  // Thread 101 exits; the next pool look falls on 102 again (after a relist it would be dropped).
  tree.remove("/proc/100/task/101");
  put_thread(tree, 100, 100, 'D', "1600000000 800000000 21\n", "rq_qos_wait", kWritebackThrottle);
  sampler.sample(2'000'000'000);  // main D (other); pool: 101 gone, then 102 D

  const auto main = sampler.group(TaskGroup::kMain);
  CHECK(main.threads == 1);
  CHECK(main.samples == 3);
  CHECK(main.running == 1);
  CHECK(main.disk_wait == 2);
  CHECK(main.blocked[static_cast<std::size_t>(BlockCause::kDiskData)] == 1);
  CHECK(main.blocked[static_cast<std::size_t>(BlockCause::kOther)] == 1);
  CHECK(main.other.at("rq_qos_wait") == 1);
  CHECK(main.observed_s == Approx(2.0));
  CHECK(main.on_cpu_s == Approx(0.6));
  CHECK(main.cpu_wait_s == Approx(0.3));

  const auto pool = sampler.group(TaskGroup::kPool);
  CHECK(pool.threads == 2);
  CHECK(pool.samples == 3);  // 101 once, 102 twice
  CHECK(pool.sleeping == 1);
  CHECK(pool.blocked[static_cast<std::size_t>(BlockCause::kDiskMetadata)] == 2);
  CHECK(pool.wchans.at("S futex_wait_queue") == 1);
  CHECK(pool.wchans.at("D __wait_on_bit") == 2);

  const auto s = sampler.summaries();
  REQUIRE(s.size() == 2);
  CHECK(s[0].group == "main");
  CHECK(s[0].blocked_by_cause.at("disk_data") == Approx(1.0 / 3));
  CHECK(s[0].blocked_by_cause.at("other") == Approx(1.0 / 3));
  CHECK(s[0].blocked_by_cause.at("disk_metadata") == 0);
  CHECK(s[0].cpu_wait == Approx(0.15));
  CHECK(s[0].blocked_by_cause.at("cpu_wait") == Approx(0.15));
  CHECK(s[0].on_cpu == Approx(0.3));
  CHECK(s[0].running == Approx(1.0 / 3));
  REQUIRE_FALSE(s[0].other_wchans.empty());
  CHECK(s[0].other_wchans.front().first == "rq_qos_wait");
  CHECK(s[1].blocked_by_cause.at("disk_metadata") == Approx(2.0 / 3));
  CHECK(s[1].top_wchans.front().first == "D __wait_on_bit");
  CHECK(s[1].schedstat);  // 102 was seen over 1 s: on no CPU, waiting for none
  CHECK(s[1].cpu_wait == 0);
}

TEST_CASE("a gone worker is no sample, the wchan read in D counts beside a stack read too late", "[thread_waits]") {
  FakeTree tree;
  const auto files = common::files_under(tree.root());
  put_thread(tree, 200, 200, 'D', "0 0 0\n", "filemap_fault", "");  // stack unreadable
  // Woke between the wchan and the stack: the stack shows its next sleep.
  put_thread(tree, 400, 400, 'D', "0 0 0\n", "folio_wait_bit_common",
             "[<0>] ep_poll+0x4a5/0x4d0\n[<0>] do_epoll_wait+0xd8/0x100\n");
  WaitSampler sampler(*files, {200, 300, 400});
  sampler.sample(0);
  const auto main = sampler.group(TaskGroup::kMain);
  CHECK(main.threads == 2);  // 300 has no /proc entry
  CHECK(main.samples == 2);
  CHECK(main.blocked[static_cast<std::size_t>(BlockCause::kDiskData)] == 2);
  CHECK(main.other.empty());
}
