// Whether TCP paces its segments on loopback, from the two settings that
// decide it: the congestion control new sockets get
// (net.ipv4.tcp_congestion_control) and the root qdisc of `lo`. `clerk
// calibrate` uses the answer: with "internal" it measures the [cpu] costs
// under cubic and pacing's own cost apart ([cpu] loopback_pacing_byte,
// models/os/host.h). A hardware profile records it ([kernel] tcp_pacing,
// models/os/host.h's KernelSpec), and
// `clerk realrun` warns when the running kernel's differs, because the CPU a
// request costs on loopback moves with it (bbr's pacing costs hrtimers and TSQ
// round trips that cubic on noqueue does not).
//
// The kernel's rule (include/net/sock.h's enum sk_pacing, net/ipv4/tcp_output.c):
//  - sk->sk_pacing_status starts SK_PACING_NONE. tcp_update_skb_after_send()
//    advances the socket's earliest departure time (tcp_wstamp_ns) by each
//    skb's length at sk_pacing_rate whenever the status is not NONE.
//  - The fq qdisc (net/sched/sch_fq.c, fq_classify()/fq_enqueue(), with
//    pacing on, its default: rate_enable) sets SK_PACING_FQ on every socket
//    whose skbs it queues and holds each skb until its departure time: fq
//    paces every TCP flow, whatever its congestion control.
//  - BBR asks for pacing in bbr_init() (net/ipv4/tcp_bbr.c: cmpxchg of
//    sk_pacing_status from SK_PACING_NONE to SK_PACING_NEEDED). Without fq
//    in the path nothing overrides it, so tcp_needs_internal_pacing() holds
//    and tcp_pacing_check() defers the next skb to the pacing hrtimer, whose
//    tcp_pace_kick() sends it from tcp_tsq_handler(): TCP paces itself.
//  - Every other congestion control of the mainline tree (cubic, reno,
//    dctcp, ...) leaves the status NONE: no pacing unless the application
//    sets SO_MAX_PACING_RATE (NGINX and wrk do not) or the qdisc is fq.
//  - `lo` is not multiqueue, so its root qdisc is the only one on the path;
//    its default is noqueue (IFF_NO_QUEUE: attach_one_default_qdisc() in
//    net/sched/sch_generic.c), which queues nothing and paces nothing.
// A congestion control module outside the mainline tree may ask for pacing
// as BBR does; this rule answers "none" for it.
#pragma once
#include <string>

namespace models {

// "fq" (the qdisc paces), "internal" (TCP's own pacing timer) or "none",
// for the congestion control's and the root qdisc's names as the kernel
// writes them ("bbr", "noqueue").
std::string loopback_pacing(const std::string& congestion_control, const std::string& root_qdisc);

// "TCP's internal pacing (hrtimer)" and so on, for reports.
std::string describe_pacing(const std::string& pacing);

}  // namespace models
