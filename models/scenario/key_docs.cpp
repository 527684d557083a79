// What the key reference says of each key the loader reads (key_reference.h):
// { table, when, key, unit, stands for, source of the default, what it models,
//   form (lists), derived default, retired }.
// Type, range and default come from the loader itself (config_loader.cpp);
// a key read there and missing here, or here and no longer read there, fails
// `clerk keys` and the tests. Each table names the model header that uses it.
#include "models/scenario/key_reference.h"

#include <string>

#include "models/scenario/disk_kinds.h"
#include "models/server/aio_modes.h"

namespace models {

namespace {

// [disk] type: the kinds of the registry, each in its row's words.
const char* disk_type_doc() {
  static const std::string doc = [] {
    std::string s = "The device model: ";
    for (const DiskKind* kind : disk_kinds()) s += std::string(kind == disk_kinds().front() ? "" : ", ") + kind->doc;
    return s + ".";
  }();
  return doc.c_str();
}

// [nginx] aio: the modes of the registry (aio_modes.h) that say something.
const char* aio_doc() {
  static const std::string doc = [] {
    std::string s;
    for (const AioMode* m : aio_modes())
      if (*m->doc) s += std::string(s.empty() ? "" : "; ") + "\"" + m->name + "\": " + m->doc;
    return s + ".";
  }();
  return doc.c_str();
}

std::vector<KeyDoc> all_docs() {
  std::vector<KeyDoc> d = {
      // The top level (models/scenario/scenario.h).
      {"", "", "name", "", "", "", "The scenario's name in reports.", "", "the file's path"},
      {"", "", "description", "", "", "", "One line on what the scenario shows, for people."},
      {"", "", "seed", "", "", "", "The random seed: the same seed gives the same output, byte for byte (clerk run --seed overrides it)."},
      {"", "", "duration", "", "wrk -d", "", "Simulated seconds measured, after the warm-up (clerk run --duration overrides it)."},
      {"", "", "warmup", "", "", "", "The load run before the measured window (models/scenario/warmup.h): \"settled\" runs until the caches no longer depend on how they were filled; a time runs that long; \"0s\" is a cold start.", "\"settled\" or a time", "\"settled\""},
      {"", "", "warmup_max", "", "", "30 minutes", "The longest a settled warm-up may run; the report says if it was cut."},
      {"", "", "cpu", "", "", "", "The CPUs and the CPU cost of each operation (models/os/host.h, cpu.h)."},
      {"", "", "memory", "", "", "", "The page cache (models/os/page_cache.h)."},
      {"", "", "disk", "", "", "", "The device the files are read from (models/hardware/): type picks the model, the other keys are its datasheet."},
      {"", "", "disks", "", "", "", "More independent disks of the machine beside [disk], each [disks.NAME] with [disk]'s keys: its own queue and heads, one page cache for all (models/hardware/disk_set.h); a proxy_cache_path under its mount point puts files on it."},
      {"disks", "", "NAME", "", "a drive mounted at its own place", "", "One more disk (any name), with [disk]'s keys; mount defaults to /mnt/NAME."},
      {"", "", "block", "", "", "", "The block layer's request queue in front of each drive (models/hardware/block_queue.h), defaults of Linux 3.13."},
      {"", "", "md", "", "", "", "md's RAID10 read balancing (models/hardware/md_layer.h); RAID1 follows raid1.c's read_balance() of Linux 6.6."},
      {"", "", "nic", "", "", "", "The server's network interface (models/hardware/nic.h)."},
      {"", "", "network", "", "", "", "The path between clients and server."},
      {"", "", "kernel", "", "", "", "Kernel settings: socket and pipe buffers, the CPU scheduler (models/os/sched_policy.h), the dentry and inode caches (models/os/vfs_cache.h)."},
      {"", "", "nginx", "", "", "", "NGINX's configuration, named as in nginx.conf (models/server/nginx_config.h)."},
      {"", "", "dataset", "", "", "", "The files served (models/os/filesystem.h, ext4_layout.h)."},
      {"", "", "preload", "", "cat FILE > /dev/null before the run", "", "Files in the page cache (data and metadata) when the run starts.", "a list of dataset paths, like [\"/1/1/1\"]", "[]"},
      {"", "", "clients", "", "", "", "The client groups, one table each: [clients.NAME]."},
      {"", "", "expect", "", "", "", "Documented figures the run is held to by clerk validate: one [[expect]] table each.", "[[expect]] tables", "none"},

      // [cpu] (models/os/host.h CpuCosts; cpu_scheduler.h).
      {"cpu", "", "logical_cpus", "CPUs", "nproc", "", "CPUs the kernel schedules on (hardware threads)."},
      {"cpu", "", "request", "", "", "0: free (give a measured cost)", "Worker CPU time per request: parse it, build the header, open/stat bookkeeping."},
      {"cpu", "", "sendfile_byte", "", "", "0: free", "Kernel CPU time per byte sendfile() hands to TCP."},
      {"cpu", "", "cache_fill_byte", "", "", "0: free", "Kernel time per byte read from disk into the page cache (page allocation, reclaim, I/O completion), all of it. Processor sharing runs it as a job of no process; a kernel scheduler runs cache_fill_reader_byte of it in the reader and the rest as the block completion."},
      {"cpu", "", "cache_fill_reader_byte", "", "", "all of cache_fill_byte", "The part of cache_fill_byte run by the task whose read starts the fill (page allocation, memory-cgroup charge and reclaim, building the bios). With a kernel scheduler the rest runs as the block completion, in interrupt context on the submitting CPU ahead of its threads, and the reader waits in D until it has run."},
      {"cpu", "", "accept", "", "", "0: free", "accept() plus registering the connection with epoll."},
      {"cpu", "", "wakeup", "", "", "0: free", "A worker woken for a connection another worker accepted."},
      {"cpu", "", "event", "", "", "0: free", "One epoll event a worker handles for nothing (woken for a connection another took); also the default of pool_worker and pool_thread."},
      {"cpu", "", "pool_worker", "", "ngx_thread_task_post + ngx_thread_pool_handler (ngx_thread_pool.c)", "profiles without it: a pool task's two events in the worker, as before the split", "Worker main-thread CPU per thread-pool task: half when posting it, half when handling its completion (the eventfd wake-up, the done list, the task's handler). clerk calibrate measures it per thread (schedstat).", "", "2 x event"},
      {"cpu", "", "pool_thread", "", "ngx_thread_pool_cycle's loop less the task (ngx_thread_pool.c)", "profiles without it: a pool task's one event in its thread, as before the split", "Pool-thread CPU per task beyond its sendfile() bytes (sendfile_byte): the wake-up from the condition variable, the queue's lock, the done list's lock, the eventfd write (ngx_notify).", "", "event"},
      {"cpu", "", "nowait_probe", "", "preadv2(RWF_NOWAIT), Linux 4.14+", "0.55us, measured on the project's machine (models/os/host.h)", "One RWF_NOWAIT probe call of nginx.aio_nowait, in the worker, beside read_copy_byte for what it copies."},
      {"cpu", "", "read_copy_byte", "", "copy_page_to_iter (mm/filemap.c)", "0.04ns, measured on the project's machine (models/os/host.h)", "The page cache's copy into a user buffer, per byte: what the RWF_NOWAIT probe and an io_uring read copy."},
      {"cpu", "", "uring_op", "", "io_uring_enter (io_uring/io_uring.c)", "0.94us, measured on the project's machine (models/os/host.h)", "One io_uring read's SQE and CQE, in the worker (aio = \"io_uring\")."},
      {"cpu", "", "client_connect", "", "", "0: free", "wrk's socket() + connect() + options per connection; paces wrk's connect loop."},
      {"cpu", "", "client_request", "", "", "0: free", "wrk's CPU per request (write it, parse the response), for clients on the server's host."},
      {"cpu", "", "client_byte", "", "", "0: free", "wrk's read() CPU per response byte, for clients on the server's host."},
      {"cpu", "", "loopback_rx_byte", "", "loopback_xmit() -> netif_rx(), tcp_v4_rcv() (net/ipv4/tcp_ipv4.c)", "0: the client always pays it",
       "Loopback's receive path per byte, part of client_byte: the server's send pays it instead when the client on this host has read everything it was sent (calibrate: the paced sendfile() work per byte less sendfile_byte)."},
      {"cpu", "", "loopback_pacing_byte", "", "tcp_pacing_check(), tcp_pace_kick() (net/ipv4/tcp_output.c)", "0: loopback is not paced",
       "TCP's own pacing on loopback per byte (bbr without fq: [kernel] tcp_pacing = \"internal\"), paid by whichever side transmits: the server's send when the client on this host has caught up, else the client's reads. calibrate: bbr's machine CPU per byte over cubic's, on one loopback connection."},
      {"cpu", "", "sockets", "", "lscpu: Socket(s)", "one socket", "CPU sockets."},
      {"cpu", "", "threads_per_core", "", "lscpu: Thread(s) per core", "no SMT", "Hardware threads per core."},
      {"cpu", "", "cores_per_socket", "", "lscpu: Core(s) per socket", "", "Cores per socket; sockets x cores_per_socket x threads_per_core must equal logical_cpus.", "", "logical_cpus / (sockets x threads_per_core)"},

      // [memory] (models/os/page_cache.h).
      {"memory", "", "page_cache", "", "free -b: buff/cache available to files", "", "Memory for cached file data (and the dentries and inodes, which share it)."},
      {"memory", "", "cache_unit", "", "", "64 KiB: a readahead-sized unit", "The unit the page cache tracks and evicts; a multiple of the 4 KiB page (\"4k\" for small files)."},
      {"memory", "", "dentry_cache", "", "", "", "", "", "", true},

      // [disk] (models/hardware/*.h).
      {"disk", "", "type", "", "", "one drive", disk_type_doc()},
      {"disk", "", "mount", "", "mount point (/etc/fstab)", "/ for [disk], /mnt/NAME for [disks.NAME]", "Where the disk is mounted: a proxy_cache_path under it keeps its files there (the longest mount that holds the path)."},
      // Each kind's own keys: disk_kinds.h's registry (models/scenario/disks/).

      // [block] (models/hardware/block_queue.h, elevator.h): Linux 3.13's single-queue layer.
      {"block", "", "request_queue", "", "", "on", "Model the block layer's request queue and elevator in front of each drive (off: the drive's own queue only)."},
      {"block", "", "scheduler", "", "/sys/block/DEV/queue/scheduler", "deadline, the 2015 scenarios' elevator", "The I/O elevator."},
      {"block", "", "nr_requests", "requests", "/sys/block/DEV/queue/nr_requests", "BLKDEV_MAX_RQ = 128", "Requests the queue holds before submitters sleep."},
      {"block", "", "queue_depth", "commands", "/sys/block/DEV/device/queue_depth", "libata: ATA_MAX_QUEUE 32 less the internal tag", "Commands dispatched to the drive at once."},
      {"block", "", "max_sectors_kb", "KiB", "/sys/block/DEV/queue/max_sectors_kb", "512 KiB, the 2015 machine's", "Largest request; longer reads are split."},
      {"block", "", "read_expire", "", "/sys/block/DEV/queue/iosched/read_expire", "deadline-iosched.c: HZ / 2", "A read older than this is served next."},
      {"block", "", "write_expire", "", "/sys/block/DEV/queue/iosched/write_expire", "deadline-iosched.c: 5 * HZ", "The same for writes."},
      {"block", "", "fifo_batch", "requests", "/sys/block/DEV/queue/iosched/fifo_batch", "deadline-iosched.c: 16", "Requests dispatched in one sorted batch."},
      {"block", "", "writes_starved", "", "/sys/block/DEV/queue/iosched/writes_starved", "deadline-iosched.c: 2", "Read batches before writes get a turn."},
      {"block", "", "irq_cpu", "CPU", "/proc/irq/N/effective_affinity_list", "-1: the submitting CPU (a hardware queue per CPU)", "The CPU that takes the data device's completions when it has one hardware queue (/sys/block/DEV/mq holds one) and every CPU shares its last-level cache: the part of cache_fill_byte outside the reader runs there."},

      // [md] (models/hardware/md_layer.h).
      {"md", "", "read_balance", "", "the kernel release", "3.x", "Which kernel's raid10 read_balance() picks the copy a read goes to (RAID10 only; 5.3+ sends reads on SSD members to the copy with the fewest pending)."},

      // [nic], [network] (models/hardware/nic.h).
      {"nic", "", "line_rate", "", "ethtool: Speed", "", "The interface's line rate; responses queue for it."},
      {"nic", "", "mtu", "bytes", "ip link: mtu", "Ethernet's 1500", "Packet size, for per-packet overhead."},
      {"network", "", "one_way_latency", "", "ping's RTT / 2", "a LAN: 50 us", "One-way delay between clients and server."},

      // [kernel] (models/os/host.h, sched_policy.h, kernel_profile.h).
      {"kernel", "", "initial_cwnd", "segments", "ip route ... initcwnd", "TCP_INIT_CWND in include/net/tcp.h: 10 (RFC 6928)", "The congestion window a connection to an internet client (clients.NAME.rtt) starts with."},
      {"kernel", "", "tcp_slow_start_after_idle", "", "sysctl net.ipv4.tcp_slow_start_after_idle", "Linux's default, 1", "Towards internet clients: a keep-alive connection idle for more than an RTO (RTT + 200 ms) halves its window per RTO, down to initial_cwnd (tcp_cwnd_restart)."},
      {"kernel", "", "tcp_wmem_max", "", "sysctl net.ipv4.tcp_wmem (third field)", "Linux's default, 4 MiB", "A socket's largest send buffer: how much of a response the kernel takes at once."},
      {"kernel", "", "pipe_size", "", "fs.pipe-max-size / F_SETPIPE_SZ", "16 pages: 64 KiB", "The pipe sendfile() moves data through."},
      {"kernel", "", "tcp_congestion_control", "", "sysctl net.ipv4.tcp_congestion_control", "", "The congestion control the [cpu] costs were measured under (models/os/tcp_pacing.h). Reported only: the model does not use it; clerk realrun warns when the running kernel's differs.", "", "\"\" (not said)"},
      {"kernel", "", "lo_qdisc", "", "tc qdisc show dev lo (the root qdisc's kind)", "", "Loopback's root qdisc the [cpu] costs were measured under. Reported only, as tcp_congestion_control.", "", "\"\" (not said)"},
      {"kernel", "", "tcp_pacing", "", "sk_pacing_status: bbr_init(), sch_fq", "", "Whether TCP paced on loopback then: \"internal\" (bbr without fq: TCP's own pacing timer), \"fq\" (the fq qdisc paces) or \"none\"; must follow from tcp_congestion_control and lo_qdisc. Reported only.", "", "\"\" (not said)"},
      {"kernel", "", "release", "", "uname -r", "", "The kernel the profile was measured on: for reports, for the keys that need a release (aio_nowait, io_uring), and for CFS, which from 3.15 keeps the slice of a task picked again.", "", "\"\" (none)"},
      {"kernel", "", "scheduler", "", "the kernel release: CFS before 6.6, EEVDF since", "processor-sharing", "The CPU scheduler model: \"processor-sharing\" (ideal sharing), \"cfs\" or \"eevdf\"."},
      {"kernel", "", "sched_latency", "", "sysctl kernel.sched_latency_ns (before scaling by CPU count)", "normalized_sysctl_sched_latency: 6 ms", "CFS's target period."},
      {"kernel", "", "sched_min_granularity", "", "sysctl kernel.sched_min_granularity_ns (before scaling)", "normalized_sysctl_sched_min_granularity: 0.75 ms (3.13)", "CFS's shortest slice."},
      {"kernel", "", "sched_wakeup_granularity", "", "sysctl kernel.sched_wakeup_granularity_ns (before scaling)", "normalized_sysctl_sched_wakeup_granularity: 1 ms (3.13)", "How far ahead a waking task must be to preempt (CFS)."},
      {"kernel", "", "sched_base_slice", "", "/sys/kernel/debug/sched/base_slice_ns (before scaling)", "normalized_sysctl_sched_base_slice: 0.75 ms (6.6)", "EEVDF's request size."},
      {"kernel", "", "sched_nr_latency", "tasks", "sched_nr_latency", "8 (3.13)", "Runnable tasks beyond which CFS's period stretches."},
      {"kernel", "", "hz", "Hz", "CONFIG_HZ", "250", "The scheduler tick rate."},
      {"kernel", "", "sched_tunable_scaling", "", "sysctl kernel.sched_tunable_scaling", "SCHED_TUNABLESCALING_LOG", "How the sched_* values scale with the CPU count: \"log\" (1 + log2 of up to 8 CPUs) or \"none\"."},
      {"kernel", "", "sched_periodic_balance", "", "every SMP kernel balances busy CPUs (scheduler_tick() -> trigger_load_balance())", "true", "Periodic load balancing between busy CPUs, with the kernel's sched-domain intervals (3.13's with cfs, 6.6's with eevdf; models/os/cpu_scheduler.h). false leaves only the newly-idle and nohz idle balance."},
      {"kernel", "", "sched_migration_cost", "", "sysctl kernel.sched_migration_cost_ns (3.13), /sys/kernel/debug/sched/migration_cost_ns (6.6)", "500 us (sysctl_sched_migration_cost)", "A thread that ran less than this ago is cache hot: the periodic balancer leaves it unless the domain's balancing kept failing (can_migrate_task(), task_hot())."},
      {"kernel", "", "preempt", "", "the preempt= boot parameter, or CONFIG_PREEMPT_NONE / _VOLUNTARY / _PREEMPT (dmesg: \"Dynamic Preempt:\", /sys/kernel/debug/sched/preempt)", "full: the model as before the key", "The kernel's preemption model (models/os/cpu_scheduler.h): \"none\" and \"voluntary\" defer a reschedule that finds a thread inside sendfile() to its next cond_resched() (one a pipe fill) or the call's end; \"full\" preempts at once. Only with scheduler cfs or eevdf."},
      {"kernel", "", "vfs_cache_pressure", "", "sysctl vm.vfs_cache_pressure", "Documentation/admin-guide/sysctl/vm.rst: 100", "How hard dentries and inodes are reclaimed against the page cache."},
      {"kernel", "", "dentry_objsize", "", "/proc/slabinfo: dentry objsize", "struct dentry on x86-64: 192 bytes", "Memory one cached dentry takes."},
      {"kernel", "", "inode_objsize", "", "/proc/slabinfo: ext4_inode_cache objsize", "about 1 KiB", "Memory one cached inode takes."},
      {"kernel", "", "inode_readahead_blks", "blocks", "mount -o inode_readahead_blks", "EXT4_DEF_INODE_READAHEAD_BLKS: 32", "Inode-table blocks ext4 reads ahead on an inode miss."},

      // [nginx] (models/server/nginx_config.h): the release's defaults (nginx_versions.h).
      {"nginx", "", "version", "", "nginx -v", "the current stable line's newest release", "The NGINX release modelled: a release from 1.9.0 to 1.31.4 (models/server/nginx_versions.h); the defaults marked \"the release's\" below are its.", "a release from 1.9.0 to 1.31.4, like \"1.24.0\""},
      {"nginx", "", "worker_processes", "processes", "worker_processes", "NGINX's default: 1", "Worker processes, each an event loop."},
      {"nginx", "", "accept_mutex", "", "accept_mutex", "CHANGES 1.11.3: on until 1.11.3, off since", "Workers take turns listening for new connections.", "", "the release's"},
      {"nginx", "", "reuseport", "", "listen ... reuseport (1.9.1+)", "off", "A listening socket per worker; the kernel hashes connections onto them."},
      {"nginx", "", "accept_mutex_delay", "", "accept_mutex_delay", "NGINX's default: 500ms", "How long a worker that lost the mutex waits before trying again."},
      {"nginx", "", "worker_connections", "connections", "events { worker_connections N; }", "NGINX's default: 512 (DEFAULT_CONNECTIONS, ngx_event.c); clerk's: not set", "Connection slots per worker; its listen socket and its channel to the master take one each. After each accept() a worker sets ngx_accept_disabled = N / 8 - free slots; with accept_mutex on, while that is above 0 the worker skips the mutex for a turn and counts it down (keeping the listen socket if it held the mutex last), and with EPOLLEXCLUSIVE ngx_reorder_accept_events re-adds the socket after every accept. A connection accepted with no slot free is closed: failed, \"worker_connections are not enough\" (models/server/listen_sockets.h). At least the listening sockets + 1, as NGINX requires; at most fs.nr_open's default. Not set: no limit, as clerk modelled before, because the existing scenarios do not say theirs; ngx_drain_connections is not modelled: when a worker has at most N / 16 slots free, ngx_get_connection first closes up to 32 of its idle connections (kept alive, or accepted and waiting for a request), the longest idle first, and a client whose next request was on its way sees the connection closed; modelling it needs clients that handle a closed idle connection, so clerk may refuse connections the real server takes by reusing others (clerk realrun notes it when this is set).", "", "not set (no limit)"},
      {"nginx", "", "multi_accept", "", "multi_accept", "NGINX's default: off", "Accept every pending connection per event, not one."},
      {"nginx", "", "epoll_exclusive", "", "EPOLLEXCLUSIVE (NGINX 1.11.3+, Linux 4.5+, with accept_mutex off)", "CHANGES 1.11.3: on with accept_mutex off from 1.11.3", "A new connection wakes one sleeping worker instead of all.", "", "the release's, with accept_mutex off and no reuseport"},
      {"nginx", "", "keepalive_requests", "requests", "keepalive_requests", "CHANGES 1.19.10: 100 until 1.19.10, 1000 since", "Requests on one keep-alive connection before NGINX closes it.", "", "the release's"},
      {"nginx", "", "aio_open", "", "Cloudflare's patch (not upstream NGINX)", "off", "open() runs in the thread pool too, so a dentry or inode miss no longer blocks the event loop."},
      {"nginx", "", "cache_fill_rate", "", "proxy_cache writes", "0", "Share of requests that also write a cache file (open(O_CREAT) and rename()), in the worker."},
      {"nginx", "", "sendfile", "", "sendfile", "NGINX's default is off; only on is modelled", "Responses are sent with sendfile()."},
      {"nginx", "", "sendfile_max_chunk", "", "sendfile_max_chunk", "CHANGES 1.21.4: 0 (no limit) until 1.21.4, 2m since", "Most bytes one sendfile() call sends before the loop moves on; 0: no limit.", "", "the release's"},
      {"nginx", "", "aio", "", "aio", "NGINX's default: off", aio_doc()},
      {"nginx", "", "directio", "", "directio", "NGINX's default: off", "A file of at least this size is read with O_DIRECT through output_buffers, not sendfile(): every read goes to the disk, rounded out to directio_alignment, with no page cache lookup, fill or readahead; the tail under one buffer is read through the page cache, as ngx_output_chain does (models/os/direct_io.h).", "\"off\" or a size, like \"4m\"", "off"},
      {"nginx", "", "directio_alignment", "", "directio_alignment", "NGINX's default: 512 (ngx_http_core_module.c)", "The block O_DIRECT reads are rounded out to (4k for XFS, the NGINX docs say); a power of two."},
      {"nginx", "", "output_buffers", "", "output_buffers", "CHANGES 1.9.5: 1 32k until 1.9.5, 2 32k since", "The buffers a directio file is read into: each read is one buffer, and when the socket is full at most NUMBER buffers are held. With directio set, SIZE must be a multiple of directio_alignment (O_DIRECT reads of other lengths fail with EINVAL).", "\"NUMBER SIZE\", like \"2 32k\"", "the release's"},
      {"nginx", "", "open_file_cache", "", "open_file_cache", "NGINX's default: off; inactive=60s unless given", "Each worker keeps descriptors and stat() results of up to max files: a hit within open_file_cache_valid needs no open(), so no path walk; the least recently used entry is dropped when full, entries unused for inactive at the end of a request (models/server/open_file_cache.h). inactive is whole seconds, as NGINX reads it.", "\"off\" or \"max=N inactive=TIME\", like \"max=1000 inactive=20s\"", "off"},
      {"nginx", "", "open_file_cache_valid", "", "open_file_cache_valid", "NGINX's default: 60s", "How long a cached entry is used before it is checked again with stat() (a path walk); whole seconds, as NGINX reads it and compares it with ngx_time()."},
      {"nginx", "", "open_file_cache_min_uses", "uses", "open_file_cache_min_uses", "NGINX's default: 1", "Uses a file needs for its descriptor to stay open in the cache; below that it is opened again."},
      {"nginx", "", "open_file_cache_errors", "", "open_file_cache_errors", "NGINX's default: off", "Caches failed lookups; every file the model serves exists, so it changes nothing here."},
      {"nginx", "", "events_per_wait", "events", "worker_connections-sized epoll_wait() batch (ngx_epoll_module)", "NGX_EVENTS default: 512", "Events one epoll_wait() returns at most."},
      {"nginx", "", "worker_aio_requests", "reads", "events { worker_aio_requests N; } (ngx_epoll_module.c: io_setup)", "NGINX's default: 32", "With aio = \"on\": O_DIRECT reads a worker may have in flight through io_submit; one more gets EAGAIN and ngx_file_aio_read reads it with a blocking pread() (ngx_linux_aio_read.c)."},
      {"nginx", "", "os", "", "the system NGINX is built for (auto/os/freebsd, ngx_freebsd_sendfile_chain.c)", "linux", "\"freebsd\": sendfile() with SF_NODISKIO, which never blocks the loop on a page not resident (EBUSY). 1.21.5+ (CHANGES: \"now nginx always uses sendfile(SF_NODISKIO) on FreeBSD\", FreeBSD 11+): sendfile loads the pages itself and the response goes on when they are read. 1.9.0-1.21.4 with aio = \"on\": a 1-byte aio_read() preloads the page (ngx_http_copy_aio_sendfile_preload; its readahead window here), then sendfile() again; without aio, sendfile() blocks as on Linux. The page cache, readahead and disks stay the Linux models; directio and aio threads with freebsd are not modelled."},
      {"nginx", "", "thread_pool", "", "thread_pool NAME threads=N max_queue=M", "", "The thread pool aio threads uses; several as [[nginx.thread_pool]], one table per directive with the same keys, which aio = \"threads=NAME\" names (models/server/pool_choice.h)."},
      {"nginx.thread_pool", "", "name", "", "thread_pool NAME", "default", "The pool's name: what aio = \"MODE=NAME\" names (a mode with a pool, aio_modes.h); without =NAME the pool \"default\" (a single table: its one pool, whatever the name). Letters, digits, '_', '-' and '.' only: clerk realrun writes it into nginx.conf."},
      {"nginx", "", "split_clients", "", "split_clients STRING $variable { ... }", "", "A variable set per request by MurmurHash2 of the URI against cumulative shares (models/server/split_clients.h), for aio = \"threads=pool_$disk\"."},
      {"nginx", "", "proxy_cache", "", "proxy_cache ZONE", "none: files under the root, on [disk]", "The cache zone each request's file is in, like \"cache_$disk\" with split_clients' variable; the cache holds every file (each request a hit, served with sendfile), so the zone's proxy_cache_path says which disk holds the file."},
      {"nginx", "", "proxy_cache_path", "", "proxy_cache_path PATH keys_zone=NAME:SIZE", "none", "The cache directories, one table each: path and keys_zone (ngx_http_file_cache.c); the disk mounted at the longest prefix of path holds the zone's files.", "[[nginx.proxy_cache_path]] path = \"/mnt/disk1\", keys_zone = \"cache_1\"", "none"},
      {"nginx.split_clients", "", "key", "", "split_clients STRING", "", "The string hashed: the request's URI (\"$request_uri\" or \"$uri\": the same here, requests carry no arguments)."},
      {"nginx.split_clients", "", "variable", "", "split_clients ... $variable", "none: no split_clients", "The variable set, like \"$disk\"; aio = \"threads=pool_$disk\" puts its value in a pool's name."},
      {"nginx.split_clients", "", "parts", "", "the block's lines: 33.3% \"one\"; * \"three\";", "", "The shares in order, each [share, value]; a share has at most two decimals, \"*\" takes the rest; the total may not pass 100% (NGINX: \"percent total is greater than 100%\"); a URI past every share gets the empty value. A value is empty or letters, digits, '_', '-' and '.' (clerk realrun writes it into nginx.conf).", "[[\"33.3%\", \"one\"], [\"33.3%\", \"two\"], [\"*\", \"three\"]]", "none"},
      {"nginx.thread_pool", "", "threads", "threads", "thread_pool ... threads=N", "NGINX's default: 32", "Threads per worker's pool."},
      {"nginx.thread_pool", "", "max_queue", "tasks", "thread_pool ... max_queue=M", "NGINX's default: 65536", "Tasks that may wait for a thread; NGINX refuses more (\"thread pool queue overflow\")."},
      {"nginx", "", "aio_nowait", "", "none: never in NGINX (proposed as fincore() in 2010 and preadv2()'s RWF_NOWAIT, Linux 4.14); clerk-serve --aio nowait", "off", "NEVER SHIPPED IN NGINX. Before a chunk goes to the thread pool the worker probes it with one preadv2(RWF_NOWAIT) of its range: all resident, the worker sendfile()s it itself (and blocks if a page was evicted since the probe: the race); else the pool reads it (models/server/nowait_probe.h). Needs a thread pool and Linux 4.14+ in the hardware profile's [kernel] release."},
      {"nginx", "", "io_uring", "", "io_uring_setup, io_uring_register (never in NGINX; clerk-serve --aio io_uring)", "", "The ring of aio = \"io_uring\", one per worker (models/server/nowait_probe.h)."},
      {"nginx.io_uring", "", "entries", "entries", "io_uring_setup(entries)", "256", "The ring's SQ entries, a power of two up to 32768 (IORING_MAX_ENTRIES); io-wq's bounded workers are at most min(entries, 4 x logical_cpus) (io_init_wq_offload), and with Linux 5.9+ page callbacks it bounds the reads waiting."},
      {"nginx.io_uring", "", "max_workers", "workers", "IORING_REGISTER_IOWQ_MAX_WORKERS (Linux 5.15+)", "0: the kernel's min(entries, 4 x CPUs)", "Lowers io-wq's bounded workers; used by kernels before 5.9, whose buffered reads that would block go to io-wq."},

      // [dataset] (models/os/filesystem.h, ext4_layout.h).
      {"dataset", "", "root", "", "root", "/", "The document root, for reports."},
      {"dataset", "", "files", "files", "", "", "Number of files."},
      {"dataset", "", "file_sizes", "", "", "", "A size mix, in place of file_size: sizes with weights, or classes drawn uniformly from min to max.", "[[\"8k\", 0.4], ...] or [{share = 0.98, min = \"20k\", max = \"200k\"}, ...]", "none"},
      {"dataset", "", "file_size", "", "", "", "Every file's size (or give file_sizes)."},
      {"dataset", "", "placement", "", "", "ext4", "Where files land on the disk: \"ext4\" each its own size, in directory order (ext4_layout.h); \"spread\" or \"packed\" a slot of the largest file's size each (the 2015 scenarios pin these)."},
      {"dataset", "", "fill_factor", "", "", "1: packed", "With placement \"ext4\": the share of the disk the files' blocks fill, as a file system aged by writes leaves gaps."},
      {"dataset", "", "metadata_cached", "", "", "", "", "", "", true},
      {"dataset", "", "preload_fraction", "", "", "0", "This share of the files (the first ones) is in the page cache at the start; the warm-up makes it unnecessary."},
      {"dataset", "", "tree", "", "", "", "Directory levels, entries per level outermost first; they multiply to files. Paths are 1-based numbers, like \"/1/1/1\".", "[16, 16, 256]", "one folder: [files]"},

      // [clients.NAME] (models/clients/wrk_result.h, popularity.h).
      {"clients", "", "NAME", "", "", "", "One wrk command: a group of connections (any name)."},
      {"clients.NAME", "", "tool", "", "wrk or wrk2", "wrk", "The load generator, for reports: a rate makes any group open-loop as wrk2 is."},
      {"clients.NAME", "", "threads", "threads", "wrk -t", "wrk's default: 2", "wrk threads; connections are spread over them."},
      {"clients.NAME", "", "connections", "connections", "wrk -c", "", "Keep-alive connections the group holds open."},
      {"clients.NAME", "", "timeout", "", "wrk --timeout", "wrk's default: 2s", "A response slower than this counts as a timeout."},
      {"clients.NAME", "", "path", "", "the URL's path", "", "The file every request asks for (\"/1/1/1\"), or \"random\": a file per request, by popularity."},
      {"clients.NAME", "", "url", "", "wrk's URL", "", "The URL, for reports.", "", "http://server + the path"},
      {"clients.NAME", "", "popularity", "", "", "uniform", "Which file a \"random\" request asks for: \"uniform\", \"zipf\" (zipf_exponent) or \"hot\" (hot = {files, share}); the ranking has its own random stream (popularity.h)."},
      {"clients.NAME", "", "zipf_exponent", "", "", "", "With popularity \"zipf\": the file of rank k is asked for in proportion to 1/k^s.", "", "required with popularity = \"zipf\""},
      {"clients.NAME", "", "hot", "", "", "", "With popularity \"hot\": hot = {files = 0.02, share = 0.9}, 90% of requests to 2% of the files.", "{files = share of files, share = share of requests}"},
      {"clients.NAME", "", "popular_sizes", "", "", "any", "With a ranking and mixed sizes: whether the popular files are the \"small\" ones, the \"large\" ones, or \"any\"."},
      {"clients.NAME.hot", "", "files", "", "", "", "The share of the files that is hot (0 to 1, above 0)."},
      {"clients.NAME.hot", "", "share", "", "", "", "The share of the requests that goes to them."},
      {"clients.NAME", "", "request_bytes", "bytes", "", "\"GET /path HTTP/1.1\\r\\nHost: ...\" as wrk writes it: 64", "Request size on the wire."},
      {"clients.NAME", "", "host", "", "", "remote", "Where wrk runs: \"remote\" (another machine) or \"server\" (taking the server's CPUs)."},
      {"clients.NAME", "", "rate", "requests/s", "wrk2 -R", "0: closed loop", "Open loop: this many requests a second over the group's connections, latency counted from when each was due."},
      {"clients.NAME", "", "arrival", "", "", "constant", "With a rate: \"constant\" gaps (wrk2) or \"poisson\" arrivals."},
      {"clients.NAME", "", "rtt", "", "ping's RTT from the clients", "none: a LAN client ([network] one_way_latency)", "Internet clients: each connection's round-trip time, drawn when it opens from the group's own stream; the handshake, request and response take half of it each way, and the server's socket sends with TCP slow start (models/os/tcp_sender.h).", "\"40ms\", {median = \"40ms\", sigma = 0.7} (lognormal) or [[\"10ms\", 0.1], [\"40ms\", 0.5], [\"150ms\", 0.9]] (percentiles: [value, share at or below])"},
      {"clients.NAME", "", "bandwidth", "", "the client's access rate", "none: unlimited", "With rtt: each connection's bottleneck rate (payload), drawn when it opens from the group's own stream.", "\"20Mbit/s\", {median = \"20Mbit/s\", sigma = 1.0} or [[\"2Mbit/s\", 0.1], ...]"},
      {"clients.NAME.rtt", "", "median", "", "", "", "The lognormal's median RTT."},
      {"clients.NAME.rtt", "", "sigma", "", "", "", "The standard deviation of the RTT's logarithm."},
      {"clients.NAME.bandwidth", "", "median", "", "", "", "The lognormal's median rate."},
      {"clients.NAME.bandwidth", "", "sigma", "", "", "", "The standard deviation of the rate's logarithm."},
      {"clients.NAME", "", "trace", "", "an access_log file", "none: wrk's own requests", "Replays an access log (models/clients/trace.h): each line falls due at its arrival and asks for its path, over the group's connections; latency counts from when it was due. Relative to the scenario file. Replaces path, rate and popularity.", "", "none"},
      {"clients.NAME", "", "log_format", "", "nginx log_format", "nginx's predefined combined", "How the log's lines read: literals and $variables; $time_local or $msec, $request (or $request_uri, $uri) and $body_bytes_sent (or $bytes_sent) are required, $status and $request_time used, the others skipped. NGINX logs a line when the response ends: with $request_time in the format a request arrives at its logged time minus its $request_time (lines put in arrival order by a bounded reorder buffer); without it, arrival = the logged time, each request late by its own response time."},
      {"clients.NAME", "", "speed", "", "", "1: the log's pace", "Log seconds per simulated second: 2 replays twice as fast."},
      {"clients.NAME", "", "from", "", "", "the log's first line", "Where the replay starts, after the log's first line."},
      {"clients.NAME", "", "until", "", "", "0: the log's end", "Where it stops, after the log's first line."},
      {"clients.NAME", "", "sample", "", "", "1: every line", "The share of the window's lines replayed, each kept by a draw from the group's own stream."},
      {"clients.NAME", "", "window", "", "", "10s", "The report's windows (simulated time from the replay's start): p50/p99 of latency, TTFB and $request_time beside the log's."},
      {"clients.NAME", "", "dataset", "", "", "add", "\"add\": the log's paths not in the data set become files of their logged size; \"log\": the data set is the log's paths alone (the group must be the only one)."},
      {"clients.NAME", "", "placement", "", "written by clerk realrun", "", "Connections per worker as a real run placed them, in place of the accept policy.", "[n0, n1, ...], one per worker", "none: the accept policy decides"},

      // [[expect]] (models/scenario/scenario.h Expectation; clerk validate).
      {"expect", "", "metric", "", "", "", "A dotted path into clerk run --json's figures, like \"server.requests\"; required."},
      {"expect", "", "note", "", "", "", "What was documented, in words."},
      {"expect", "", "known_miss", "", "", "", "A documented figure the model does not reach, and why: reported, not failed."},
      {"expect", "", "relative_to", "", "", "", "Another scenario file: min, max and documented bound the ratio of the two figures."},
      {"expect", "", "min", "", "", "", "The lowest acceptable value (min, max or both required)."},
      {"expect", "", "max", "", "", "", "The highest acceptable value."},
      {"expect", "", "documented", "", "", "", "The published figure, when there is one number."},
  };
  for (const DiskKind* kind : disk_kinds()) {
    const std::vector<KeyDoc> own = kind->docs();
    d.insert(d.end(), own.begin(), own.end());
  }
  return d;
}

}  // namespace

const std::vector<KeyDoc>& key_docs() {
  static const std::vector<KeyDoc> docs = all_docs();
  return docs;
}

}  // namespace models
