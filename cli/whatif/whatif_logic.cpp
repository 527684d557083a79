#include "cli/whatif/whatif_logic.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace cli::whatif {

namespace {

struct Best {
  double p99 = std::numeric_limits<double>::infinity();
  double rps = 0;
  std::size_t p99_at = 0, rps_at = 0;
};

std::vector<Best> bests(const WhatifRows& rows) {
  std::vector<Best> b(rows.groups.size());
  for (std::size_t i = 0; i < rows.points.size(); ++i)
    for (std::size_t g = 0; g < rows.groups.size(); ++g) {
      const GroupAt& x = rows.points[i].groups[g];
      if (x.p99_s < b[g].p99) b[g].p99 = x.p99_s, b[g].p99_at = i;
      if (x.requests_per_s > b[g].rps) b[g].rps = x.requests_per_s, b[g].rps_at = i;
    }
  return b;
}

// "10%", and "10.1%" where a whole number would hide that it is past 10%.
std::string pct(double share) {
  const double p = share * 100;
  return std::abs(p - std::round(p)) < 1e-9 ? fmt::format("{:.0f}%", p) : fmt::format("{:.1f}%", p);
}

// "constant: p99 0.25 s, 222 req/s; random: ..."
std::string figures(const WhatifRows& rows, const PointFigures& p) {
  std::string s;
  for (std::size_t g = 0; g < rows.groups.size(); ++g)
    s += fmt::format("{}{}: p99 {}, {:.4g} req/s", g ? "; " : "", rows.groups[g], seconds_text(p.groups[g].p99_s),
                     p.groups[g].requests_per_s);
  return s;
}

// The point's worst ratio of p99 to its group's best p99 (1: the best everywhere).
double worst_p99_ratio(const WhatifRows& rows, const PointFigures& p, const std::vector<Best>& b) {
  double worst = 0;
  for (std::size_t g = 0; g < rows.groups.size(); ++g)
    worst = std::max(worst, b[g].p99 > 0 ? p.groups[g].p99_s / b[g].p99 : 1.0);
  return worst;
}

// Is `a` better than `b` by more than X for some group, and worse by more than X for none?
bool clearly_better(const WhatifRows& rows, const PointFigures& a, const PointFigures& b, double within,
                    std::string& how) {
  bool better = false;
  for (std::size_t g = 0; g < rows.groups.size(); ++g) {
    const GroupAt &x = a.groups[g], &y = b.groups[g];
    if (x.p99_s > y.p99_s * (1 + within) || x.requests_per_s < y.requests_per_s * (1 - within)) return false;
    if (x.p99_s * (1 + within) < y.p99_s) {
      better = true;
      how += fmt::format("{}{}'s p99 {} against {}", how.empty() ? "" : ", ", rows.groups[g], seconds_text(x.p99_s),
                         seconds_text(y.p99_s));
    }
    if (x.requests_per_s > y.requests_per_s * (1 + within)) {
      better = true;
      how += fmt::format("{}{}'s {:.4g} req/s against {:.4g}", how.empty() ? "" : ", ", rows.groups[g],
                         x.requests_per_s, y.requests_per_s);
    }
  }
  return better;
}

const PointFigures* labelled(const WhatifRows& rows, const std::string& label, std::size_t* index) {
  for (std::size_t i = 0; i < rows.points.size(); ++i)
    if (rows.points[i].label == label) {
      *index = i;
      return &rows.points[i];
    }
  return nullptr;
}

}  // namespace

std::string seconds_text(double s) {
  if (std::isnan(s)) return "-";
  if (s >= 1) return fmt::format("{:.2f} s", s);
  if (s >= 1e-3) return fmt::format("{:.1f} ms", s * 1e3);
  return fmt::format("{:.0f} us", s * 1e6);
}

std::string limit_text(double s) {
  if (s >= 1) return fmt::format("{:g} s", s);
  if (s >= 1e-3) return fmt::format("{:g} ms", s * 1e3);
  if (s >= 1e-6) return fmt::format("{:g} us", s * 1e6);
  return fmt::format("{:g} ns", s * 1e9);
}

bool within_best(const WhatifRows& rows, const PointFigures& p, double within, std::string* miss) {
  const std::vector<Best> b = bests(rows);
  for (std::size_t g = 0; g < rows.groups.size(); ++g) {
    const GroupAt& x = p.groups[g];
    if (x.p99_s > b[g].p99 * (1 + within)) {
      if (miss)
        *miss = fmt::format("{}'s p99 is {}, {} above the best ({} at {})", rows.groups[g], seconds_text(x.p99_s),
                            pct(x.p99_s / b[g].p99 - 1), seconds_text(b[g].p99), rows.points[b[g].p99_at].label);
      return false;
    }
    if (x.requests_per_s < b[g].rps * (1 - within)) {
      if (miss)
        *miss = fmt::format("{} gets {:.4g} req/s, {} below the best ({:.4g} at {})", rows.groups[g],
                            x.requests_per_s, pct(1 - x.requests_per_s / b[g].rps), b[g].rps,
                            rows.points[b[g].rps_at].label);
      return false;
    }
  }
  return true;
}

Recommendation pick_threads(const WhatifRows& rows, double within) {
  std::vector<std::size_t> order(rows.points.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return rows.points[a].x < rows.points[b].x; });
  if (order.empty()) return {std::nullopt, "no thread count tried", ""};
  Recommendation r;
  std::string below;  // why the count just below does not do
  for (std::size_t k = 0; k < order.size(); ++k) {
    WhatifRows more{rows.groups, {}};  // this count and every larger one
    for (std::size_t j = k; j < order.size(); ++j) more.points.push_back(rows.points[order[j]]);
    std::string miss;
    if (within_best(more, rows.points[order[k]], within, &miss)) {
      r.point = order[k];
      break;
    }
    below = fmt::format("with {} threads, {}", rows.points[order[k]].label, miss);
  }
  const PointFigures& p = rows.points[*r.point];
  const bool largest = *r.point == order.back();
  const char* noun = p.label == "1" ? "thread" : "threads";
  r.answer = largest ? fmt::format("{} pool {} per worker, the most tried: every smaller count is more than {} "
                                   "worse somewhere; more threads may help further.",
                                   p.label, noun, pct(within))
                     : fmt::format("{} pool {} per worker: the smallest count whose p99 and requests/s are "
                                   "within {} of what more threads give, for every group.",
                                   p.label, noun, pct(within));
  r.why = fmt::format("At {} {}, {}. ", p.label, noun, figures(rows, p));
  r.why += below.empty() ? "It is the smallest count tried: fewer may do as well (try smaller counts)."
                         : "Fewer do not do: " + below + ".";
  if (!largest) r.why += " More threads cost memory and wake-ups for a gain under " + pct(within) + ".";
  return r;
}

Recommendation pick_reuseport(const WhatifRows& rows, double within) {
  std::size_t off_at = 0, on_at = 0;
  const PointFigures* off = labelled(rows, "off", &off_at);
  const PointFigures* on = labelled(rows, "on", &on_at);
  if (!off || !on) return {std::nullopt, "needs reuseport off and on", ""};
  std::string how;
  if (clearly_better(rows, *on, *off, within, how))
    return {on_at, "reuseport on: it is better by more than " + pct(within) + " and worse nowhere.",
            "With reuseport, " + how + ". Off: " + figures(rows, *off) + "."};
  how.clear();
  if (clearly_better(rows, *off, *on, within, how))
    return {off_at, "reuseport off: turning it on makes things worse by more than " + pct(within) + ".",
            "Without reuseport, " + how + ". On: " + figures(rows, *on) + "."};
  return {off_at,
          "leave it as it is (off): on and off are within " + pct(within) + " of each other for every group, or one "
          "is better for one group and worse for another.",
          "Off: " + figures(rows, *off) + ". On: " + figures(rows, *on) + "."};
}

Recommendation pick_ram(const WhatifRows& off, const WhatifRows& threads, double within) {
  // Per size: does aio off stay within X of aio threads (both ways: the pool
  // may also cost a little, "no silver bullet")?
  const std::size_t n = std::min(off.points.size(), threads.points.size());
  std::vector<bool> same(n);
  std::vector<std::string> gap(n);
  for (std::size_t i = 0; i < n; ++i) {
    bool ok = true;
    for (std::size_t g = 0; g < off.groups.size(); ++g) {
      const GroupAt &a = off.points[i].groups[g], &t = threads.points[i].groups[g];
      const bool p99_close = a.p99_s <= t.p99_s * (1 + within) && t.p99_s <= a.p99_s * (1 + within);
      const bool rps_close = a.requests_per_s >= t.requests_per_s * (1 - within) &&
                             t.requests_per_s >= a.requests_per_s * (1 - within);
      if (!(p99_close && rps_close) && ok) {
        ok = false;
        gap[i] = fmt::format("{}: p99 {} with aio off against {} with aio threads, {:.4g} against {:.4g} req/s",
                             off.groups[g], seconds_text(a.p99_s), seconds_text(t.p99_s), a.requests_per_s,
                             t.requests_per_s);
      }
    }
    same[i] = ok;
  }
  std::optional<std::size_t> from;
  for (std::size_t i = n; i-- > 0 && same[i];) from = i;
  if (!from)
    return {std::nullopt,
            fmt::format("the pool matters at every size tried, up to {}: keep aio threads.", off.points[n - 1].label),
            n ? "At " + off.points[n - 1].label + ", " + gap[n - 1] + "." : ""};
  const PointFigures &a = off.points[*from], &t = threads.points[*from];
  Recommendation r{*from, "", ""};
  r.answer = fmt::format("from {} of page cache on, the pool stops mattering: aio off is within {} of aio threads. "
                         "Below it, keep aio threads.",
                         a.label, pct(within));
  r.why = fmt::format("At {}: aio off {}; aio threads {}.", a.label, figures(off, a), figures(threads, t));
  if (*from > 0)
    r.why += fmt::format(" At {}, the pool still matters ({}).", off.points[*from - 1].label, gap[*from - 1]);
  else
    r.why += " It is the smallest size tried: less memory may do as well.";
  return r;
}

Recommendation pick_disk(const WhatifRows& rows, double within) {
  if (rows.points.empty()) return {std::nullopt, "no machine tried", ""};
  const std::vector<Best> b = bests(rows);
  std::size_t best = 0;
  for (std::size_t i = 1; i < rows.points.size(); ++i) {
    const double ri = worst_p99_ratio(rows, rows.points[i], b), rb = worst_p99_ratio(rows, rows.points[best], b);
    double rps_i = 0, rps_b = 0;
    for (std::size_t g = 0; g < rows.groups.size(); ++g)
      rps_i += rows.points[i].groups[g].requests_per_s, rps_b += rows.points[best].groups[g].requests_per_s;
    if (ri < rb / (1 + within) || (ri <= rb * (1 + within) && rps_i > rps_b * (1 + within))) best = i;
  }
  Recommendation r{best, "", ""};
  r.answer = fmt::format("{}: the lowest p99 of the machines tried, every group considered.", rows.points[best].label);
  r.why = fmt::format("With {}, {}.", rows.points[best].label, figures(rows, rows.points[best]));
  std::string close;
  for (std::size_t i = 0; i < rows.points.size(); ++i)
    if (i != best && within_best(rows, rows.points[i], within)) close += (close.empty() ? "" : ", ") + rows.points[i].label;
  if (!close.empty()) r.why += " Within " + pct(within) + " of the best as well: " + close + ".";
  return r;
}

LoadBracket load_bracket(const WhatifRows& rows, double limit_s) {
  LoadBracket b;
  for (std::size_t i = 0; i < rows.points.size(); ++i) {
    const PointFigures& p = rows.points[i];
    if (p.groups.front().p99_s > limit_s) {
      if (!b.first_over || p.x < rows.points[*b.first_over].x) b.first_over = i;
    }
  }
  for (std::size_t i = 0; i < rows.points.size(); ++i) {
    const PointFigures& p = rows.points[i];
    if (p.groups.front().p99_s <= limit_s && (!b.first_over || p.x < rows.points[*b.first_over].x))
      if (!b.last_under || p.x > rows.points[*b.last_under].x) b.last_under = i;
  }
  return b;
}

Recommendation pick_load(const WhatifRows& rows, double limit_s, const std::string& load_words) {
  const LoadBracket b = load_bracket(rows, limit_s);
  const std::string& g = rows.groups.front();
  if (!b.last_under)
    return {std::nullopt,
            fmt::format("{}'s p99 is above {} at every load tried, down to {} {}.", g, limit_text(limit_s),
                        rows.points[*b.first_over].label, load_words),
            fmt::format("At {} {}, {}.", rows.points[*b.first_over].label, load_words,
                        figures(rows, rows.points[*b.first_over]))};
  const PointFigures& u = rows.points[*b.last_under];
  Recommendation r{*b.last_under, "", ""};
  if (!b.first_over) {
    r.answer = fmt::format("{}'s p99 stays under {} at every load tried, up to {} {}.", g, limit_text(limit_s),
                           u.label, load_words);
    r.why = fmt::format("At {} {}, {}.", u.label, load_words, figures(rows, u));
    return r;
  }
  const PointFigures& o = rows.points[*b.first_over];
  r.answer = fmt::format("up to {} {}: {}'s p99 stays at most {} there, and passes it at {}.", u.label, load_words, g,
                         limit_text(limit_s), o.label);
  r.why = fmt::format("At {} {}, {}. At {} {}, {}.", u.label, load_words, figures(rows, u), o.label, load_words,
                      figures(rows, o));
  return r;
}

}  // namespace cli::whatif
