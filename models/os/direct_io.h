// Reading a file opened with O_DIRECT through a server's own buffers, as
// NGINX's `directio` does (ngx_directio_on() in src/os/unix/ngx_files.c sets
// O_DIRECT with fcntl; ngx_output_chain.c reads the file into its
// output_buffers and hands them to the socket with writev(), since
// ngx_output_chain_as_is() turns sendfile off for a directio file).
//
// A read with O_DIRECT goes from the device to the buffer: no page cache
// lookup, no page filled, no readahead (generic_file_read_iter's
// IOCB_DIRECT branch), so a file read a thousand times is read from the
// disk a thousand times. The device reads whole `directio_alignment` blocks:
// the extent is rounded out to them (align_out below).
//
// One pass of ngx_output_chain() (direct_read_run): the bytes already read
// into the buffers go to the socket first; once they all fit, the next
// buffer (output_buffers' size, or what is left of the file) is read, and
// written; when the socket is full, at most `buffers` buffers are held
// (ngx_output_chain allocates a new buffer while fewer than bufs.num
// exist, then breaks).
//
// sendfile_max_chunk is the `limit` of each send_chain() call
// (ngx_http_write_filter passes clcf->sendfile_max_chunk to
// c->send_chain, ngx_linux_sendfile_chain's writev of the buffers): one
// write sends at most `chunk` bytes, and a write that sent at least
// `chunk` less two pages sets the write event delayed (the 1 ms timer, or
// 1.21.4+ the next turn), after which the write filter sends nothing more
// in this pass; reads go on until the buffers are all busy. With
// output_buffers of 2 x 32 KiB a write never carries 2 MiB, so the default
// limit never delays a directio response.
//
// A read may be done elsewhere (`offload_direct`, `offload_tail`): the pass
// then stops before it (DirectPass::kOffload) with `reading` and `tail`
// saying which read; who does it (a thread pool task: ngx_thread_read, one
// buffer a task; or io_submit: ngx_file_aio_read) adds the bytes to the
// connection's `pending` when it is done, and a new pass goes on from there. A read of less than one buffer at an aligned offset,
// the file's tail, is made with O_DIRECT off (ngx_output_chain_align_file_buf
// sets ctx->unaligned, and ngx_output_chain_copy_buf calls ngx_directio_off
// around the read): that read goes through the page cache.
#pragma once
#include <cstdint>

#include "models/os/host.h"

namespace models {

// An O_DIRECT extent: [offset, offset + length) rounded out to `alignment`
// (a power of two) on both ends.
struct AlignedExtent {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};
AlignedExtent align_out(std::uint64_t offset, std::uint64_t length, std::uint64_t alignment);

struct DirectReadCall {
  std::uint32_t file = 0;
  std::uint32_t flow = 0;
  std::uint64_t position = 0;  // file bytes handed to the socket
  std::uint64_t chunk = 0;     // sendfile_max_chunk: bytes per write (0: no limit)
  std::uint64_t sent = 0;      // bytes written in this pass
  bool delayed = false;        // a write reached `chunk` less two pages: no more writes this pass
  std::uint64_t* pending = nullptr;  // bytes read into the buffers, not yet in the socket (the connection's)
  ReadaheadState* ra = nullptr;      // for the tail's buffered read
  std::uint64_t buffer_bytes = 32768;  // output_buffers' size
  std::uint32_t buffers = 2;           // output_buffers' number
  std::uint64_t alignment = 512;       // directio_alignment
  // A read under way: its length, and (tail) the page cache unit waited for.
  std::uint64_t reading = 0;
  bool tail = false;
  std::uint64_t tail_unit = 0;
  bool waiting = false;
  std::uint32_t reads = 0;  // reads this pass made (O_DIRECT and tail)
  // Reads done by someone else: the pass stops before them (kOffload).
  bool offload_direct = false;  // the O_DIRECT reads
  bool offload_tail = false;    // the tail's buffered read
  bool read_here_once = false;  // the next read is this pass's own (io_submit said EAGAIN), later ones offloaded again
};

enum class DirectPass : std::uint8_t {
  kDone,     // the file is all read and sent, the socket is full, or a write was delayed
  kWait,     // a read waits: `waiter` is called with `tag` when it is done; call again to go on
  kOffload,  // a read (`reading` bytes, `tail`) is to be done elsewhere (direct_read_piece)
};
DirectPass direct_read_run(Host& host, DirectReadCall& call, PageWaiter* waiter, std::uint64_t tag);

// The read a pass stopped before (kOffload), done by a pool thread: true
// when it is done, false when it waits (`waiter` is called; call again).
bool direct_read_piece(Host& host, DirectReadCall& call, PageWaiter* waiter, std::uint64_t tag);

}  // namespace models
