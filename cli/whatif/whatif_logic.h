// `clerk whatif`'s answers, as pure functions of a sweep's points (each
// point's figures already averaged over its seeds), so that the reasoning
// can be tested on hand-made rows. Each returns the point it recommends and
// why, in plain words with the figures that decided.
//
// "Within X" everywhere means: a p99 at most (1 + X) times the best one
// seen, and requests/s at least (1 - X) times the best; X is --within
// (default 0.10). Every watched group must be within for a point to count.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cli::whatif {

// One client group's figures at one point.
struct GroupAt {
  double requests_per_s = 0;
  double p99_s = 0;  // with the requests still in flight counted at their age (latency_censored_s.p99)
};

struct PointFigures {
  std::string label;            // the varied value as the table shows it ("32", "on", "8g")
  double x = 0;                 // its number (threads, bytes, connections); 0 when it has none
  std::vector<GroupAt> groups;  // in the order of WhatifRows::groups
};

struct WhatifRows {
  std::vector<std::string> groups;  // the watched client groups
  std::vector<PointFigures> points;
};

struct Recommendation {
  std::optional<std::size_t> point;  // into WhatifRows::points; none: no point answers
  std::string answer;                // one sentence
  std::string why;                   // the figures behind it
};

// Is `p` within `within` of the best of every group over `rows`? On a miss,
// `miss` says which group and how far (for the reasoning).
bool within_best(const WhatifRows& rows, const PointFigures& p, double within, std::string* miss = nullptr);

// Pool threads: the smallest count within X of the best that it and every
// larger count give (so the noise of a smaller count's lucky p99 cannot rule
// out every count). The largest count always qualifies. Points in any order.
Recommendation pick_threads(const WhatifRows& rows, double within);
// reuseport: points labelled "off" and "on"; on only when it is better by
// more than X for some group and worse by more than X for none.
Recommendation pick_reuseport(const WhatifRows& rows, double within);
// RAM: `off` and `threads` hold the same page-cache sizes (x, in bytes) with
// aio off and with aio threads. The answer is the smallest size from which
// on, at every larger size tried too, aio off is within X of aio threads.
Recommendation pick_ram(const WhatifRows& off, const WhatifRows& threads, double within);
// Machines (hardware presets): the one whose worst group p99, relative to
// that group's best, is lowest; requests/s decide a tie within X.
Recommendation pick_disk(const WhatifRows& rows, double within);

// Load until a p99 passes a limit: points by load (x), the watched group
// first in `groups`. The bracket is the largest load whose p99 is at most
// `limit_s` below the smallest load whose p99 is above it.
struct LoadBracket {
  std::optional<std::size_t> last_under, first_over;  // indexes into rows.points
};
LoadBracket load_bracket(const WhatifRows& rows, double limit_s);
Recommendation pick_load(const WhatifRows& rows, double limit_s, const std::string& load_words);

// "2.35 s", "41.0 ms", "870 us".
std::string seconds_text(double s);
// A limit as the user gave it: seconds_text's units (and ns below 1 us) with
// up to 6 significant digits, so 1e-9 is "1 ns" and 0.05 is "50 ms", never a
// figure rounded to "0 us" or to two decimals.
std::string limit_text(double s);

}  // namespace cli::whatif
