// Which file a random-file client group asks for: request popularity.
//
// Uniform: every file alike, one draw of below(files) per request, as the
// 9x benchmark's Lua script did (math.random over the files).
//
// The other models rank the files, most popular first, and give each rank a
// probability:
// - Zipf: rank r (1-based) has weight 1 / r^s. Web requests follow Zipf-like
//   laws with s below 1 (Breslau, Cao, Fan, Phillips, Shenker, "Web Caching
//   and Zipf-like Distributions: Evidence and Implications", INFOCOM 1999:
//   s from 0.64 to 0.83 in six proxy traces); the exponent is the scenario's.
// - Hot set: the first ceil(files x hot.files) ranks take hot.share of the
//   requests, uniformly among them; the rest take the remainder, uniformly
//   ("90% of requests to 2% of the files").
//
// The ranking is a random permutation of the files from its own stream
// (stream_ids.h: kStreamPopularity), shared by every group, so that the hot
// files are the same whatever the other keys say; a group may order it by
// size (popular_sizes: the smallest or the largest files first, ties in the
// random order). Breslau et al. found the correlation between a document's
// size and its request count weak in their traces, so the default is none;
// the key states a data set's own (a CDN's small images more popular than
// its videos, say) at its strongest, a rank order.
//
// Sampling a rank from a Zipf law uses Walker's alias method (Vose's
// construction, "A Linear Algorithm for Generating Random Numbers with a
// Given Distribution", IEEE TSE 1991): O(n) to build, two draws per sample,
// 12 bytes per file. It is written out, not std::discrete_distribution,
// whose draws are implementation-defined (sim/random.h: the same output with
// any standard library).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/random.h"

namespace models {

enum class PopularityKind { kUniform, kZipf, kHot };
enum class PopularSizes { kAny, kSmall, kLarge };

struct PopularitySpec {
  PopularityKind kind = PopularityKind::kUniform;
  double zipf_exponent = 1.0;  // kZipf
  double hot_files = 0.02;     // kHot: the share of the files that is hot
  double hot_share = 0.9;      // kHot: the share of the requests that goes to them
  PopularSizes sizes = PopularSizes::kAny;
};

// Walker's alias table over weights 0..n-1 (not all zero, none negative).
class AliasTable {
 public:
  explicit AliasTable(const std::vector<double>& weights);
  std::uint32_t sample(sim::RandomStream& rng) const;
  std::uint32_t size() const { return static_cast<std::uint32_t>(prob_.size()); }
  // The probability the table gives index i (for tests).
  double probability(std::uint32_t i) const;

 private:
  std::vector<double> prob_;           // chance of keeping column i
  std::vector<std::uint32_t> alias_;   // else: its alias
};

// Files in order of popularity, most popular first: a random permutation
// drawn from `rng`, then, for kSmall or kLarge, stably sorted by size.
std::vector<std::uint32_t> popularity_ranking(const std::vector<std::uint64_t>& sizes, PopularSizes order,
                                              sim::RandomStream rng);

// The number of hot files: ceil(files x share of files), at least one.
std::uint32_t hot_count(std::uint32_t files, double hot_files);

class FilePicker {
 public:
  // Uniform over `files` (no ranking needed).
  explicit FilePicker(std::uint32_t files);
  // A ranked model over `ranking` (every file once).
  FilePicker(const PopularitySpec& spec, std::shared_ptr<const std::vector<std::uint32_t>> ranking);

  std::uint32_t pick(sim::RandomStream& rng) const;
  // The probability of the file of rank r (0-based), for tests and the
  // real run's script.
  double rank_probability(std::uint32_t rank) const;
  std::uint32_t files() const { return files_; }

 private:
  PopularitySpec spec_;
  std::uint32_t files_;
  std::uint32_t hot_ = 0;
  std::shared_ptr<const std::vector<std::uint32_t>> ranking_;
  std::shared_ptr<const AliasTable> zipf_;
};

// The weights of a Zipf law over n ranks: 1 / r^s for r = 1..n.
std::vector<double> zipf_weights(std::uint32_t n, double s);

}  // namespace models
