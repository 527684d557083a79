// How new connections reach the workers: one registry row per accept
// policy (as disk kinds are, in models/scenario/disk_kinds.h). A policy is
// its row in accept_policies.cpp and the mechanisms its flags select
// (listen_sockets.h, event_loop.h, the workers of both engines); nothing
// else names it (tests/registry_test.sh checks that).
//  - accept_mutex on: workers take turns listening (ngx_trylock_accept_mutex
//    in ngx_event_accept.c), one shared listening socket;
//  - accept_mutex off: every worker listens on the shared socket (with
//    EPOLLEXCLUSIVE from 1.11.3 a connection wakes one of them);
//  - reuseport: `listen ... reuseport` (1.9.1+), a socket per worker that
//    the kernel hashes connections onto (SO_REUSEPORT).
// The scenario chooses one by two keys, [nginx] accept_mutex and reuseport.
#pragma once
#include <string>
#include <vector>

namespace models {

struct AcceptPolicy {
  const char* name;   // its words in titles and errors
  const char* label;  // clerk-ui's menu
  const char* brief;  // a title's words
  // Workers take ngx_accept_mutex before epoll_wait, and one that lost it
  // waits accept_mutex_delay (nginx.conf's accept_mutex on).
  bool accept_mutex = false;
  // A listening socket per worker, the kernel hashing connections onto them.
  bool reuseport = false;
  // Why the SimGrid engine cannot run this policy; null when it can.
  const char* simgrid_refusal = nullptr;

  // Every worker sleeps on one shared socket without the mutex: where NGINX
  // (1.11.3+, Linux 4.5+) sets EPOLLEXCLUSIVE.
  bool shared_without_mutex() const { return !accept_mutex && !reuseport; }
};

// Every policy; the first is the default.
const std::vector<const AcceptPolicy*>& accept_policies();
// The policy [nginx] accept_mutex and reuseport choose: reuseport gives
// every worker its own socket, whatever accept_mutex says.
const AcceptPolicy& accept_policy(bool accept_mutex, bool reuseport);
// The index of `policy` in accept_policies().
std::size_t accept_policy_index(const AcceptPolicy* policy);

}  // namespace models
