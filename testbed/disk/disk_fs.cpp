#define FUSE_USE_VERSION 35
#include "disk_fs.h"

#include <fuse_lowlevel.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "content.h"

namespace testbed::disk {

namespace {
constexpr double kForever = 1e6;  // seconds: entries and attributes never change
constexpr std::uint64_t kPage = 4096;
constexpr std::size_t kNameMax = 255;  // EXT4_NAME_LEN (statfs's f_namemax says the same)

DiskFs& fs_of(fuse_req_t req) { return *static_cast<DiskFs*>(fuse_req_userdata(req)); }

struct stat attributes(std::uint64_t ino, const Node& n) {
  struct stat st {};
  st.st_ino = ino;
  st.st_mode = n.dir ? (S_IFDIR | 0555) : (S_IFREG | 0444);
  st.st_nlink = n.dir ? 2 : 1;
  st.st_size = static_cast<off_t>(n.dir ? kPage : n.size);
  st.st_blksize = kPage;
  st.st_blocks = static_cast<blkcnt_t>((n.size + 511) / 512);
  return st;
}

void on_init(void* userdata, fuse_conn_info* conn) {
  const FsTuning& t = static_cast<DiskFs*>(userdata)->tuning;
  conn->max_background = t.max_background;
  conn->congestion_threshold = t.congestion_threshold;
  conn->max_readahead = static_cast<unsigned>(t.max_readahead);
  conn->max_write = static_cast<unsigned>(t.max_request);
  conn->want |= (conn->capable & FUSE_CAP_ASYNC_READ);
  conn->want &= ~static_cast<unsigned>(FUSE_CAP_AUTO_INVAL_DATA);  // the data never changes
}

void reply_entry(fuse_req_t req, DiskFs& fs, std::uint64_t ino, bool ok) {
  if (!ok) return static_cast<void>(fuse_reply_err(req, EIO));
  fuse_entry_param e{};
  e.ino = ino;
  e.attr = attributes(ino, *fs.machine.node(ino));
  e.attr_timeout = kForever;
  e.entry_timeout = kForever;
  fs.inodes.looked_up(ino);  // before the reply: a forget may follow it at once
  if (fuse_reply_entry(req, &e) != 0) fs.inodes.forget(ino, 1);  // the kernel did not take it
  fs.ext4_inodes.sync(ino);  // here on the disk's thread (a job's reply)
}

// The name resolved at once; the reply once the model has read the
// directory and inode blocks (metadata.h).
void on_lookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
  DiskFs& fs = fs_of(req);
  const LookupAnswer a = resolve_lookup(fs.machine, parent, name);
  if (a.error != 0) return static_cast<void>(fuse_reply_err(req, a.error));
  const std::uint64_t key = fs.machine.node(a.ino)->model_key;
  fs.disk.submit_job([&fs, key](std::uint64_t tag) { return fs.metadata.lookup(key, tag); },
                     [req, &fs, ino = a.ino](bool ok) { reply_entry(req, fs, ino, ok); });
}

// The count first, then the model's dentry follows it on the disk's thread
// (Ext4Inodes::sync reads the count when it runs).
void on_forget(fuse_req_t req, fuse_ino_t ino, std::uint64_t lookups) {
  DiskFs& fs = fs_of(req);
  fs.inodes.forget(ino, lookups);
  fs.disk.post([&fs, ino] { fs.ext4_inodes.sync(ino); });
  fuse_reply_none(req);
}

void on_forget_multi(fuse_req_t req, std::size_t count, fuse_forget_data* forgets) {
  DiskFs& fs = fs_of(req);
  std::vector<std::uint64_t> inos(count);
  for (std::size_t i = 0; i < count; ++i) {
    fs.inodes.forget(forgets[i].ino, forgets[i].nlookup);
    inos[i] = forgets[i].ino;
  }
  fs.disk.post([&fs, inos = std::move(inos)] {
    for (const std::uint64_t ino : inos) fs.ext4_inodes.sync(ino);
  });
  fuse_reply_none(req);
}

void on_getattr(fuse_req_t req, fuse_ino_t ino, fuse_file_info*) {
  const Node* n = fs_of(req).machine.node(ino);
  if (!n) {
    fuse_reply_err(req, ENOENT);
    return;
  }
  const struct stat st = attributes(ino, *n);
  fuse_reply_attr(req, &st, kForever);
}

void on_open(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  const Node* n = fs_of(req).machine.node(ino);
  if (!n) return static_cast<void>(fuse_reply_err(req, ENOENT));
  if (n->dir) return static_cast<void>(fuse_reply_err(req, EISDIR));
  if ((fi->flags & O_ACCMODE) != O_RDONLY) return static_cast<void>(fuse_reply_err(req, EROFS));
  DiskFs& fs = fs_of(req);
  fs.disk.post([&fs, file = n->file] { fs.pressure.file_opened(file); });
  fi->keep_cache = 1;
  fi->direct_io = 0;
  fuse_reply_open(req, fi);
}

// The bytes asked for, made now; the reply waits for the model. The model
// is asked for the pages the read covers on the device (the page cache
// reads whole pages), and the same pages enter clerk-disk's view of the
// page cache (cache_pressure.h) as they enter the kernel's.
void on_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info*) {
  DiskFs& fs = fs_of(req);
  const Node* n = fs.machine.node(ino);
  if (!n || n->dir || off < 0) return static_cast<void>(fuse_reply_err(req, n ? EINVAL : ENOENT));
  const auto at = static_cast<std::uint64_t>(off);
  if (at >= n->size || size == 0) return static_cast<void>(fuse_reply_buf(req, nullptr, 0));
  const std::uint64_t length = std::min<std::uint64_t>(size, n->size - at);
  auto data = std::make_shared<std::vector<char>>(length);
  fill_content(n->key, at, data->data(), length);
  const std::uint64_t first = at / kPage * kPage;
  const std::uint64_t end = (at + length + kPage - 1) / kPage * kPage;
  fs.disk.submit(fs.machine.device_offset(n->file) + first, end - first, [req, data](bool ok) {
    if (ok)
      fuse_reply_buf(req, data->data(), data->size());
    else
      fuse_reply_err(req, EIO);
  });
  // After the read: it enters the model first, at the same instant.
  fs.disk.post([&fs, file = n->file, first, end] { fs.pressure.data_read(file, first, end - first); });
}

void on_opendir(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  const Node* n = fs_of(req).machine.node(ino);
  if (!n) return static_cast<void>(fuse_reply_err(req, ENOENT));
  if (!n->dir) return static_cast<void>(fuse_reply_err(req, ENOTDIR));
  fi->cache_readdir = 1;
  fi->keep_cache = 1;
  fuse_reply_open(req, fi);
}

const std::string kDot = ".";
const std::string kDotDot = "..";

// Entries ".", "..", then the children in tree order; the offset of entry i is i + 1.
void on_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info*) {
  const EmulatedMachine& m = fs_of(req).machine;
  const Node* n = m.node(ino);
  if (!n || !n->dir) return static_cast<void>(fuse_reply_err(req, n ? ENOTDIR : ENOENT));
  std::vector<char> buf(size);
  std::size_t used = 0;
  const std::size_t entries = n->order.size() + 2;
  for (auto i = static_cast<std::size_t>(std::max<off_t>(off, 0)); i < entries; ++i) {
    const std::string& name = i == 0 ? kDot : i == 1 ? kDotDot : n->order[i - 2];
    const std::uint64_t child = i == 0 ? ino : i == 1 ? (n->parent == 0 ? ino : n->parent) : m.child(ino, name);
    struct stat st {};
    st.st_ino = child;
    st.st_mode = m.node(child)->dir ? S_IFDIR : S_IFREG;
    const std::size_t need = fuse_add_direntry(req, buf.data() + used, size - used, name.c_str(), &st,
                                               static_cast<off_t>(i + 1));
    if (need > size - used) break;
    used += need;
  }
  fuse_reply_buf(req, buf.data(), used);
}

void on_statfs(fuse_req_t req, fuse_ino_t) {
  const EmulatedMachine& m = fs_of(req).machine;
  struct statvfs s {};
  s.f_bsize = kPage;
  s.f_frsize = kPage;
  std::uint64_t bytes = 0;
  for (std::uint32_t f = 0; f < m.files().files(); ++f) bytes += (m.files().file_size(f) + kPage - 1) / kPage * kPage;
  s.f_blocks = bytes / kPage;
  s.f_files = m.nodes();
  s.f_namemax = kNameMax;
  s.f_flag = ST_RDONLY;
  fuse_reply_statfs(req, &s);
}

fuse_lowlevel_ops make_ops() {
  fuse_lowlevel_ops ops{};
  ops.init = on_init;
  ops.lookup = on_lookup;
  ops.forget = on_forget;
  ops.forget_multi = on_forget_multi;
  ops.getattr = on_getattr;
  ops.open = on_open;
  ops.read = on_read;
  ops.opendir = on_opendir;
  ops.readdir = on_readdir;
  ops.statfs = on_statfs;
  return ops;
}
}  // namespace

LookupAnswer resolve_lookup(const EmulatedMachine& machine, std::uint64_t parent, const char* name) {
  const Node* p = machine.node(parent);
  if (!p || name == nullptr) return {ENOENT, 0};
  if (!p->dir) return {ENOTDIR, 0};
  if (std::strlen(name) > kNameMax) return {ENAMETOOLONG, 0};
  const std::uint64_t ino = machine.child(parent, name);
  return ino == 0 ? LookupAnswer{ENOENT, 0} : LookupAnswer{0, ino};
}

const fuse_lowlevel_ops& disk_fs_ops() {
  static const fuse_lowlevel_ops ops = make_ops();
  return ops;
}

}  // namespace testbed::disk
