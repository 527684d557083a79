#include "models/clients/popularity.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace models {

AliasTable::AliasTable(const std::vector<double>& weights) {
  const std::size_t n = weights.size();
  if (n == 0 || n > UINT32_MAX) throw std::invalid_argument("alias table: 1 to 2^32-1 weights");
  double total = 0;
  for (const double w : weights) {
    if (!(w >= 0) || !std::isfinite(w)) throw std::invalid_argument("alias table: weights must be finite, not negative");
    total += w;
  }
  if (!(total > 0)) throw std::invalid_argument("alias table: the weights are all zero");
  // Vose: scale to mean 1, pair each column below 1 with one above.
  std::vector<double> scaled(n);
  for (std::size_t i = 0; i < n; ++i) scaled[i] = weights[i] * static_cast<double>(n) / total;
  prob_.assign(n, 1.0);
  alias_.resize(n);
  std::iota(alias_.begin(), alias_.end(), 0u);
  std::vector<std::uint32_t> small, large;
  for (std::size_t i = 0; i < n; ++i) (scaled[i] < 1.0 ? small : large).push_back(static_cast<std::uint32_t>(i));
  while (!small.empty() && !large.empty()) {
    const std::uint32_t l = small.back();
    small.pop_back();
    const std::uint32_t g = large.back();
    prob_[l] = scaled[l];
    alias_[l] = g;
    scaled[g] = (scaled[g] + scaled[l]) - 1.0;
    if (scaled[g] < 1.0) {
      large.pop_back();
      small.push_back(g);
    }
  }
  // What is left is 1 up to rounding: those columns keep themselves.
}

std::uint32_t AliasTable::sample(sim::RandomStream& rng) const {
  const auto i = static_cast<std::uint32_t>(rng.below(prob_.size()));
  return rng.uniform() < prob_[i] ? i : alias_[i];
}

double AliasTable::probability(std::uint32_t i) const {
  double p = prob_[i];
  for (std::size_t j = 0; j < prob_.size(); ++j)
    if (alias_[j] == i && j != i) p += 1.0 - prob_[j];
  return p / static_cast<double>(prob_.size());
}

std::vector<double> zipf_weights(std::uint32_t n, double s) {
  std::vector<double> w(n);
  for (std::uint32_t r = 0; r < n; ++r) w[r] = std::pow(static_cast<double>(r) + 1.0, -s);
  return w;
}

std::vector<std::uint32_t> popularity_ranking(const std::vector<std::uint64_t>& sizes, PopularSizes order,
                                              sim::RandomStream rng) {
  const auto n = static_cast<std::uint32_t>(sizes.size());
  std::vector<std::uint32_t> rank(n);
  std::iota(rank.begin(), rank.end(), 0u);
  // Fisher-Yates, with the stream's own unbiased below().
  for (std::uint32_t i = n; i > 1; --i) std::swap(rank[i - 1], rank[rng.below(i)]);
  if (order == PopularSizes::kSmall)
    std::stable_sort(rank.begin(), rank.end(), [&](std::uint32_t a, std::uint32_t b) { return sizes[a] < sizes[b]; });
  else if (order == PopularSizes::kLarge)
    std::stable_sort(rank.begin(), rank.end(), [&](std::uint32_t a, std::uint32_t b) { return sizes[a] > sizes[b]; });
  return rank;
}

std::uint32_t hot_count(std::uint32_t files, double hot_files) {
  // 1,000,000 x 0.02 is 20000.000000000004 in doubles: not one file more.
  const double x = static_cast<double>(files) * hot_files;
  const double c = std::ceil(x * (1 - 1e-12));
  return static_cast<std::uint32_t>(std::clamp(c, 1.0, static_cast<double>(files)));
}

FilePicker::FilePicker(std::uint32_t files) : files_(files) {
  if (files == 0) throw std::invalid_argument("file picker: no files");
}

FilePicker::FilePicker(const PopularitySpec& spec, std::shared_ptr<const std::vector<std::uint32_t>> ranking)
    : spec_(spec), files_(static_cast<std::uint32_t>(ranking->size())), ranking_(std::move(ranking)) {
  if (files_ == 0) throw std::invalid_argument("file picker: no files");
  if (spec_.kind == PopularityKind::kZipf)
    zipf_ = std::make_shared<const AliasTable>(zipf_weights(files_, spec_.zipf_exponent));
  if (spec_.kind == PopularityKind::kHot) hot_ = hot_count(files_, spec_.hot_files);
}

std::uint32_t FilePicker::pick(sim::RandomStream& rng) const {
  switch (spec_.kind) {
    case PopularityKind::kUniform:
      return static_cast<std::uint32_t>(rng.below(files_));
    case PopularityKind::kZipf:
      return (*ranking_)[zipf_->sample(rng)];
    case PopularityKind::kHot: {
      if (hot_ == files_) return (*ranking_)[rng.below(files_)];
      const bool hot = rng.uniform() < spec_.hot_share;
      const std::uint64_t rank = hot ? rng.below(hot_) : hot_ + rng.below(files_ - hot_);
      return (*ranking_)[rank];
    }
  }
  return 0;
}

double FilePicker::rank_probability(std::uint32_t rank) const {
  switch (spec_.kind) {
    case PopularityKind::kUniform:
      return 1.0 / files_;
    case PopularityKind::kZipf:
      return zipf_->probability(rank);
    case PopularityKind::kHot:
      if (hot_ == files_) return 1.0 / files_;
      return rank < hot_ ? spec_.hot_share / hot_ : (1 - spec_.hot_share) / (files_ - hot_);
  }
  return 0;
}

}  // namespace models
