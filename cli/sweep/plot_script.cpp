#include "cli/sweep/plot_script.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <vector>

namespace cli::sweep {

namespace {

// Okabe and Ito's eight colours: told apart by colour-blind readers too.
const char* const kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"};

// A gnuplot single-quoted string: nothing is special inside but the quote
// and the end of the line. Labels come from results files, which travel, so
// no byte of a label may end the string or the line: a quote is shown as
// U+2019 (gnuplot 5.4 reads a doubled quote '' but not two in a row ''''),
// and every control character (a newline would end the command and start
// another, like system("...")) as the text \xHH.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\'') out += "\u2019";
    else if (u < 0x20 || u == 0x7f) out += fmt::format("\\x{:02x}", u);
    else out += c;
  }
  return out + "'";
}

// gnuplot reads NaN as a missing point; an infinity ("inf") it would read
// as an undefined variable and stop, so it is missing too.
std::string num(double v) { return std::isfinite(v) ? fmt::format("{}", v) : std::string("NaN"); }

// gnuplot refuses to draw a histogram with no valid point ("No valid points
// in histogram"), and it asks that of each series on its own: a panel whose
// every value is missing (no request completed) is drawn empty and says so,
// a logarithmic one with no value above 0 is drawn linear, and a series with
// no value to draw in a panel that has others (a client group that completed
// no request in any run) is only a legend entry saying "no data".
bool drawable_value(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

bool any_value(const BarPanel& p, bool above_zero) {
  for (const std::vector<double>& row : p.values)
    for (double v : row)
      if (drawable_value(v, above_zero)) return true;
  return false;
}

bool series_has_value(const BarPanel& p, std::size_t k, bool log) {
  for (const std::vector<double>& row : p.values)
    if (k < row.size() && drawable_value(row[k], log)) return true;
  return false;
}

// An empty panel names the categories under it, as the others do, and
// gives the x axis back to the next panel (its tics from xtic(), its range
// autoscaled).
std::string empty_panel(const BarChart& chart, const BarPanel& p) {
  std::string t;
  for (std::size_t c = 0; c < chart.categories.size(); ++c)
    t += fmt::format("{}{} {}", c ? ", " : "", quoted(chart.categories[c]), c);
  const double n = static_cast<double>(std::max<std::size_t>(1, chart.categories.size()));
  return fmt::format("set title {}\nunset logscale y\nset xtics ({})\nset xrange [-0.5:{}]\nset yrange [0:1]\n"
                     "set key off\n"
                     "set label 1 'no value to draw' at graph 0.5, graph 0.5 center\n"
                     "plot 2 notitle\nunset label 1\nset xtics autofreq\nset autoscale x\n",
                     quoted(p.title), t, num(n - 0.5));
}

std::string tics(const PlotData& d, bool by_position) {
  std::string t;
  for (std::size_t i = 0; i < d.x_labels.size(); ++i)
    t += fmt::format("{}{} {}", i ? ", " : "", quoted(d.x_labels[i]), by_position ? num(static_cast<double>(i)) : num(d.x_values[i]));
  return "(" + t + ")";
}

// Whether a cell's point can be placed: its mean a number (above 0 on a
// logarithmic y axis), its x a number when x is numeric (above 0 on a
// logarithmic x axis); a heat map places every cell by position.
bool drawable(const PlotData& d, const PlotLook& look, const PlotCell& c) {
  const bool y_ok = std::isfinite(c.y.mean) && (!look.log_y || c.y.mean > 0);
  if (look.heatmap || !d.x_numeric) return y_ok;
  const double x = d.x_values[c.x];
  return y_ok && std::isfinite(x) && (!look.log_x || x > 0);
}

// The empty figure: the x labels by position, and the words.
std::string empty_figure(const PlotData& d) {
  const double n = static_cast<double>(std::max<std::size_t>(1, d.x_labels.size()));
  return fmt::format("set xtics {}\nset xrange [-0.5:{}]\nset yrange [0:1]\nset key off\n"
                     "set label 1 'no value to draw' at graph 0.5, graph 0.5 center\nplot 2 notitle\n",
                     d.x_labels.empty() ? std::string("()") : tics(d, true), num(n - 0.5));
}

// The range of an axis whose every value is the same: gnuplot widens an
// empty range itself and says so on stderr ("Warning: empty y range [0:0],
// adjusting to [-1:1]", as compare --figure's flat panels did), so a flat
// axis gets its range here: half the value either side on a linear axis
// (-1 to 1 about 0), a decade either side on a logarithmic one. "" when the
// values differ or there are none (autoscaled as before). Only the values
// the axis can show count: finite ones, above 0 on a logarithmic axis.
std::string flat_range(const std::vector<double>& values, bool log) {
  std::vector<double> shown;
  for (double v : values)
    if (drawable_value(v, log)) shown.push_back(v);
  if (shown.empty() || std::any_of(shown.begin(), shown.end(), [&](double v) { return v != shown.front(); })) return "";
  const double v = shown.front();
  const double lo = log ? v / 10 : v == 0 ? -1 : v - std::fabs(v) / 2;
  const double hi = log ? v * 10 : v == 0 ? 1 : v + std::fabs(v) / 2;
  return std::isfinite(lo) && std::isfinite(hi) && lo < hi ? fmt::format("[{}:{}]", num(lo), num(hi)) : "";
}

// The x and y values the lines place: each drawable cell's x (its position
// when x is not numeric), its mean and its band's ends.
std::vector<double> placed_x(const PlotData& d, const PlotLook& look) {
  std::vector<double> xs;
  for (const PlotSeries& series : d.series)
    for (const PlotCell& c : series.cells)
      if (drawable(d, look, c)) xs.push_back(d.x_numeric ? d.x_values[c.x] : static_cast<double>(c.x));
  return xs;
}

std::vector<double> placed_y(const PlotData& d, const PlotLook& look) {
  std::vector<double> ys;
  for (const PlotSeries& series : d.series)
    for (const PlotCell& c : series.cells)
      if (drawable(d, look, c)) ys.insert(ys.end(), {c.y.mean, c.y.low, c.y.high});
  return ys;
}

std::string lines(const PlotData& d, const PlotLook& look) {
  std::string s;
  // Numeric x values are placed where they are; others one step apart.
  const bool positions = !d.x_numeric;
  s += fmt::format("set xtics {}\n", tics(d, positions));
  s += "set autoscale xfix\nset offsets graph 0.03, graph 0.03, 0, 0\n";  // the end points just off the frame
  if (look.log_x && d.x_numeric) s += "set logscale x\n";
  if (look.log_y) s += "set logscale y\n";
  // One x (a --where on the x axis) or one y value: a range of its own.
  if (const std::string x = flat_range(placed_x(d, look), look.log_x && d.x_numeric); !x.empty())
    s += fmt::format("set xrange {}\n", x);
  if (const std::string y = flat_range(placed_y(d, look), look.log_y); !y.empty()) s += fmt::format("set yrange {}\n", y);
  if (!look.by_key.empty()) s += fmt::format("set key outside right top title {}\n", quoted(look.by_key));
  else s += "set key off\n";
  for (std::size_t i = 0; i < d.series.size(); ++i) {
    s += fmt::format("$s{} << EOD\n", i);
    for (const PlotCell& c : d.series[i].cells) {
      const double x = positions ? static_cast<double>(c.x) : d.x_values[c.x];
      const bool band = !std::isnan(c.y.low);  // a single seed has no interval
      s += fmt::format("{} {} {} {}\n", num(x), num(c.y.mean), num(band ? c.y.low : c.y.mean), num(band ? c.y.high : c.y.mean));
    }
    s += "EOD\n";
  }
  std::string plot = "plot ";
  for (std::size_t i = 0; i < d.series.size(); ++i) {
    const char* colour = kColours[i % 8];
    plot += fmt::format("$s{} using 1:3:4 with filledcurves lc rgb '{}' fs transparent solid 0.18 noborder notitle, ", i, colour);
    plot += fmt::format("$s{} using 1:2 with linespoints lc rgb '{}' lw 2 pt 7 ps 0.8 title {}{}", i, colour,
                        quoted(d.series[i].label), i + 1 < d.series.size() ? ", " : "");
  }
  return s + plot + "\n";
}

std::string heatmap(const PlotData& d, const PlotLook& look) {
  std::string s;
  s += fmt::format("set xtics {}\n", tics(d, true));
  std::string yt;
  for (std::size_t j = 0; j < d.series.size(); ++j) yt += fmt::format("{}{} {}", j ? ", " : "", quoted(d.series[j].label), j);
  s += fmt::format("set ytics ({})\n", yt);
  s += fmt::format("set xrange [-0.5:{}]\nset yrange [-0.5:{}]\n", num(static_cast<double>(d.x_labels.size()) - 0.5),
                   num(static_cast<double>(d.series.size()) - 0.5));
  s += fmt::format("set ylabel {}\nset cblabel {}\n", quoted(look.by_key), quoted(look.y_key + " (mean)"));
  s += "set key off\nunset grid\nset tics out nomirror\n";
  std::vector<double> means;  // one colour for every cell: a range of its own (flat_range)
  for (const PlotSeries& series : d.series)
    for (const PlotCell& c : series.cells) means.push_back(c.y.mean);
  if (const std::string cb = flat_range(means, false); !cb.empty()) s += fmt::format("set cbrange {}\n", cb);
  // Light enough at the top that the black numbers in the cells stay readable.
  s += "set palette defined (0 '#ffffcc', 1 '#fed976', 2 '#fd8d3c', 3 '#e8453c')\n";
  s += "$h << EOD\n";
  for (std::size_t j = 0; j < d.series.size(); ++j) {
    std::vector<double> row(d.x_labels.size(), NAN);
    for (const PlotCell& c : d.series[j].cells) row[c.x] = c.y.mean;
    for (std::size_t i = 0; i < row.size(); ++i) s += fmt::format("{} {} {}\n", i, j, num(row[i]));
    s += "\n";
  }
  s += "EOD\n";
  return s + "plot $h using 1:2:3 with image, $h using 1:2:(sprintf('%.3g', $3)) with labels font ',9' notitle\n";
}

// A label inside a data block, between double quotes: gnuplot ends it at
// the next double quote and the line at a newline, so neither may pass.
std::string data_label(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"') out += "\u201d";
    else if (c == '\\') out += "/";
    else if (u < 0x20 || u == 0x7f) out += fmt::format("\\x{:02x}", u);
    else out += c;
  }
  return out + "\"";
}

// The heights a panel draws: each value, or with stacked bars each
// category's total; only those above 0 on a logarithmic axis.
std::vector<double> bar_heights(const BarPanel& p, bool log) {
  std::vector<double> out;
  for (const std::vector<double>& row : p.values) {
    double total = 0;
    for (double v : row) {
      if (!std::isfinite(v)) continue;
      if (p.stacked) total += v;
      else out.push_back(v);
    }
    if (p.stacked) out.push_back(total);
  }
  std::erase_if(out, [&](double h) { return log && !(h > 0); });
  return out;
}

// The y range of a panel: from 0 (linear) or autoscaled (log), except
// where autoscaling has nothing to span: gnuplot widens a flat panel itself
// and says so on stderr ("Warning: empty y range [0:0]", probe 5), so a
// linear panel of zeros gets [0:1] and a logarithmic one of one value a
// decade either side (flat_range, as a line plot's flat axis).
std::string y_range(const BarPanel& p, bool log) {
  const std::vector<double> h = bar_heights(p, log);
  if (!log) return h.empty() || *std::max_element(h.begin(), h.end()) <= 0 ? "[0:1]" : "[0:*]";
  const std::string flat = flat_range(h, true);
  return flat.empty() ? "[*:*]" : flat;
}

// The plot command of a panel with a value to draw: a bar series for each
// series with a value (the first of them names the categories), the others
// a legend entry alone, in their own colour, so no series is left out
// unsaid and the colours stay those of the other panels. A keyentry takes
// no place in the histogram's clusters.
std::string bar_plot(const BarPanel& p, std::size_t index, bool log) {
  std::string s = "plot ";
  bool first = true;
  for (std::size_t k = 0; k < p.series.size(); ++k) {
    s += k ? ", " : "";
    if (!series_has_value(p, k, log)) {
      s += fmt::format("keyentry with boxes lc rgb '{}' title {}", kColours[k % 8],
                       quoted(p.series[k] + " (no data)"));
      continue;
    }
    s += fmt::format("$b{} using {}{} lc rgb '{}' title {}", index, k + 2, first ? ":xtic(1)" : "", kColours[k % 8],
                     quoted(p.series[k]));
    first = false;
  }
  return s + "\n";
}

std::string bar_panel(const BarChart& chart, const BarPanel& p, std::size_t index) {
  if (!any_value(p, false)) return empty_panel(chart, p);
  std::string s = fmt::format("set title {}\n", quoted(p.title));
  s += p.stacked ? "set style histogram rowstacked\nset key outside right top\n"
                 : "set style histogram clustered gap 1\nset key inside top right\n";
  const bool log = p.log_y && any_value(p, true);
  s += fmt::format("{}\nset yrange {}\n", log ? "set logscale y" : "unset logscale y", y_range(p, log));
  s += fmt::format("$b{} << EOD\n", index);
  for (std::size_t c = 0; c < chart.categories.size(); ++c) {
    s += data_label(chart.categories[c]);
    for (std::size_t k = 0; k < p.series.size(); ++k) s += " " + num(p.values[c][k]);
    s += "\n";
  }
  return s + "EOD\n" + bar_plot(p, index, log);
}

std::string bar_pages(const BarChart& chart) {
  const std::size_t rows = (chart.panels.size() + 1) / 2;
  std::string s = fmt::format("set multiplot layout {},{} title {}\n", rows, chart.panels.size() > 1 ? 2 : 1,
                              quoted(chart.title));
  s += "set style data histogram\nset style fill solid 0.85 border rgb '#555555'\nset boxwidth 0.9\n";
  s += "set xtics rotate by 20 right nomirror\nset key font ',9'\n";
  for (std::size_t i = 0; i < chart.panels.size(); ++i) s += bar_panel(chart, chart.panels[i], i);
  return s + "unset multiplot\n";
}

}  // namespace

bool has_drawable_point(const PlotData& d, const PlotLook& look) {
  for (const PlotSeries& series : d.series)
    for (const PlotCell& c : series.cells)
      if (drawable(d, look, c)) return true;
  return false;
}

std::string bar_chart_script(const BarChart& chart, const std::string& png, const std::string& svg) {
  const std::size_t rows = (chart.panels.size() + 1) / 2;
  const int height = 120 + 380 * static_cast<int>(rows);
  std::string s = fmt::format("set terminal pngcairo size 1200,{} noenhanced font 'DejaVu Sans,10'\n", height);
  s += fmt::format("set output {}\nset encoding utf8\nset grid ytics lc rgb '#dddddd'\nset border lc rgb '#555555'\n",
                   quoted(png));
  s += bar_pages(chart);
  s += fmt::format("set terminal svg size 1200,{} noenhanced font 'DejaVu Sans,10' background '#ffffff'\n", height);
  s += fmt::format("set output {}\n", quoted(svg));
  s += bar_pages(chart);
  return s + "unset output\n";
}

std::string gnuplot_script(const PlotData& d, const PlotLook& look, const std::string& png, const std::string& svg) {
  std::string s;
  s += "set terminal pngcairo size 1000,620 noenhanced font 'DejaVu Sans,11'\n";
  s += fmt::format("set output {}\n", quoted(png));
  s += "set encoding utf8\nset grid lc rgb '#dddddd'\nset border lc rgb '#555555'\n";
  const std::string title = !look.title.empty() ? look.title
                            : look.heatmap     ? look.y_key
                                               : fmt::format("{} (lines: mean; bands: {:g}% confidence interval)",
                                                             look.y_key, look.confidence * 100);
  s += fmt::format("set title {}\nset xlabel {}\n", quoted(title), quoted(look.x_key));
  if (!look.heatmap) s += fmt::format("set ylabel {}\n", quoted(look.y_key));
  s += !has_drawable_point(d, look) ? empty_figure(d) : look.heatmap ? heatmap(d, look) : lines(d, look);
  s += "set terminal svg size 1000,620 noenhanced font 'DejaVu Sans,11' background '#ffffff'\n";
  s += fmt::format("set output {}\nreplot\nunset output\n", quoted(svg));
  return s;
}

}  // namespace cli::sweep
