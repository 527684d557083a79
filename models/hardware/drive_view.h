// What a front end shows of one drive of a disk (clerk-ui's warehouse bay),
// asked of the device itself (BlockDevice::drive_views, drive_words) so that
// the front end names no disk kind: the requests at the drive now, its
// block-layer request queue if it has one (block_queue.h, which the front
// end explains in blk-core's words for every kind alike), and the words only
// the kind can say, in the kernel's terms and with its current figures.
//
// A new kind fills these from its own parts: a single drive returns one view
// (and, if it has words of its own, drive_words); an array returns its
// members' views in order (views_of) and adds why a member got its reads.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace models {

class BlockDevice;
class BlockQueue;

struct DriveView {
  std::size_t requests = 0;           // queued or in service at the drive, plus tasks asleep for one of its request slots
  const BlockQueue* queue = nullptr;  // the drive's request queue, or null: the drive's own queue only
};

// One line of a drive's words, and how a front end sets it.
struct DriveLine {
  enum class Style {
    kServer,     // the line in the server's (the kernel's) words
    kText,       // a line of figures
    kWrapped,    // a paragraph, wrapped to the width
    kSeparator,  // a rule; no text
  };
  Style style;
  std::string text;
};

struct DriveWords {
  // What is at the drive, for a drive without a request queue; empty: the
  // front end's generic words for reads at a drive.
  std::vector<DriveLine> at_drive;
  // After the drive's figures: why this drive got its reads (md's read_balance).
  std::vector<DriveLine> why_here;
};

// printf into a string (the words carry figures).
std::string printed(const char* format, ...) __attribute__((format(printf, 1, 2)));

// Each member's views in order: an array's drives as the front end lists them.
std::vector<DriveView> views_of(const std::vector<const BlockDevice*>& members);

}  // namespace models
