// The formatter: every figure the page, the quiz and the CLI write. The rules are in
// docs/numbers.md and quantity.hpp; the expected outputs are in tests/engine/format_cases.inc.
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "engine/text/decimal.hpp"
#include "engine/text/quantity.hpp"
#include "engine/text/quantity_text.hpp"

namespace trainscope::quantity {

namespace {

constexpr int default_figures = 3;
constexpr int tick_figures = 6;
const char* const not_finite = "\u2013";  // an en dash: "–"

// A Julian year, 365.25 days, as astronomers and back-of-envelope estimates use (docs/model.md).
constexpr double minute = 60.0, hour = 3600.0, day = 86400.0, week = 7 * day, year = 365.25 * day;
constexpr double month = year / 12;

std::string superscript(long exponent) {
    static const char* const digits[] = {"\u2070", "\u00B9", "\u00B2", "\u00B3", "\u2074",
                                         "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
    std::string out;
    for (const char c : std::to_string(exponent)) out += c == '-' ? "\u207B" : digits[c - '0'];
    return out;
}

using words::Noun;
using words::ScaleWord;
using words::Writing;

// Plain digits as the current language writes them: "1130.5" → "1,130.5", "1.130,5" (de),
// "1130,5" (es: CLDR groups only from five digits, "16.384").
std::string group_thousands(const std::string& plain) {
    const Writing& writing = words::writing();
    std::size_t start = plain[0] == '-' ? 1 : 0;
    std::size_t end = plain.find('.');
    if (end == std::string::npos) end = plain.size();
    const bool grouped = end - start >= static_cast<std::size_t>(3 + writing.minimum_grouping_digits);
    std::string out = plain.substr(0, start);
    for (std::size_t i = start; i < end; ++i) {
        out += plain[i];
        const std::size_t left = end - i - 1;
        if (grouped && left > 0 && left % 3 == 0) out += writing.group_mark;
    }
    if (end < plain.size()) {
        out += writing.decimal_mark;
        out += plain.substr(end + 1);
    }
    return out;
}

// "1 day" but "1.5 days", "0 days": the singular only for exactly one.
const char* noun_form(const Noun& noun, const std::string& number) { return number == "1" ? noun.one : noun.other; }

// A number and what it counts: "16,384 GPUs", "68 Tage"; a number ending in a word takes the
// language's "of" (Spanish "13.000 millones de GPU").
std::string counted(const std::string& number, bool ends_in_word, const char* noun) {
    return number + " " + (ends_in_word ? words::writing().of : "") + noun;
}

std::string trim_zeros(std::string text) {
    if (text.find('.') == std::string::npos) return text;
    while (!text.empty() && text.back() == '0') text.pop_back();
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
}

int clamp_figures(int significant_figures) {
    if (significant_figures <= 0) return default_figures;
    return significant_figures > 15 ? 15 : significant_figures;
}

// The value rounded to `figures` significant figures, by decimal text so that 999.6 → 1000.
double round_significant(double value, int figures) {
    if (value == 0.0 || !std::isfinite(value)) return value;
    return read_decimal(write_decimal(value, 'e', figures - 1));
}

std::string scientific(double value, int figures) {
    const std::string buffer = write_decimal(value, 'e', figures - 1);
    const std::size_t e = buffer.find('e');
    if (e == std::string::npos) return buffer;
    const long exponent = std::strtol(buffer.c_str() + e + 1, nullptr, 10);
    std::string mantissa = trim_zeros(buffer.substr(0, e));
    if (mantissa == "1") return "10" + superscript(exponent);
    if (mantissa == "-1") return "-10" + superscript(exponent);
    return group_thousands(mantissa) + " \u00D7 10" + superscript(exponent);
}

// Every digit of a whole number, grouped: 16384 → "16,384".
std::string whole(double value) {
    const std::string buffer = write_decimal(std::round(value), 'f', 0);
    if (buffer == "-0") return "0";
    return group_thousands(buffer);
}

struct Scale {
    double size;
    const char* unit;
};

// The largest scale in which the rounded magnitude is at least 1; `scales` is largest first
// and ends with the smallest, taken when nothing else fits.
template <typename AnyScale>
const AnyScale& pick_scale(double value, const AnyScale* scales, std::size_t count, int figures) {
    const double rounded = std::fabs(round_significant(value, figures));
    for (std::size_t i = 0; i + 1 < count; ++i) {
        if (rounded >= scales[i].size * (1 - 1e-12)) return scales[i];
    }
    return scales[count - 1];
}

template <std::size_t N>
std::string scaled(double value, const Scale (&scales)[N], int figures) {
    const Scale& scale = pick_scale(value, scales, N, figures);
    // Dividing the rounded value keeps the rounding decimal: 70.55e9 is "70.6", not 70.549999….
    return format_significant(round_significant(value, figures) / scale.size, figures) + " " + scale.unit;
}

// A count as written, and whether it ends in a scale word (which Spanish follows with "de").
struct CountText {
    std::string text;
    bool ends_in_word = false;  // "13 billion", not "16,384" or "1.5 × 10¹⁶"
};

// A number written with a word for its size ("13 billion", "1,23 Mio.") when `scale_words` has
// one for the rounded value; every digit of a smaller whole number; scientific from 10¹⁵.
CountText in_words(double value, int figures, words::Span<ScaleWord> scale_words, const char* space) {
    const double rounded = std::fabs(round_significant(value, figures));
    if (rounded >= 1e15) return {scientific(value, figures)};
    for (const ScaleWord& scale : scale_words) {
        if (rounded >= scale.size * (1 - 1e-12)) {
            const std::string number = format_significant(round_significant(value, figures) / scale.size, figures);
            return {number + space + noun_form(scale.word, number), true};
        }
    }
    if (value == std::round(value)) return {whole(value)};
    return {format_significant(value, figures)};
}

CountText count_text(double value, int figures, bool short_form) {
    const Writing& writing = words::writing();
    return short_form ? in_words(value, figures, writing.short_words, writing.short_space)
                      : in_words(value, figures, writing.count_words, " ");
}

// "1 GPU", "2,048 GPUs", "13.000 millones de tokens": a count and its noun, singular for "1".
std::string counted_noun(double value, int figures, const Noun& noun) {
    const CountText number = count_text(value, figures, false);
    return counted(number.text, number.ends_in_word, noun_form(noun, number.text));
}

enum class TimeUnit { seconds, minutes, hours, days, weeks, months, years };

const Noun& time_noun(TimeUnit unit) {
    const Writing& writing = words::writing();
    switch (unit) {
        case TimeUnit::seconds:
            return writing.second;
        case TimeUnit::minutes:
            return writing.minute;
        case TimeUnit::hours:
            return writing.hour;
        case TimeUnit::days:
            return writing.day;
        case TimeUnit::weeks:
            return writing.week;
        case TimeUnit::months:
            return writing.month;
        case TimeUnit::years:
            return writing.year;
    }
    return writing.second;
}

struct TimeScale {
    double size;
    TimeUnit unit;
};

std::string duration_text(double seconds, int figures) {
    static const TimeScale units[] = {{year, TimeUnit::years},
                                      {day, TimeUnit::days},
                                      {hour, TimeUnit::hours},
                                      {minute, TimeUnit::minutes},
                                      {1.0, TimeUnit::seconds}};
    const TimeScale& unit = pick_scale(seconds, units, 5, figures);
    const Noun& noun = time_noun(unit.unit);
    const double value = seconds / unit.size;
    if (unit.size == year && std::fabs(round_significant(value, figures)) >= 1e6)
        return scientific(value, figures) + " " + noun.other;
    const std::string number = format_significant(value, figures);
    return number + " " + noun_form(noun, number);
}

std::string money_text(double dollars, int figures) {
    const Writing& writing = words::writing();
    const std::string sign = dollars < 0 ? "-" : "";
    const double magnitude = std::fabs(dollars);
    // Under $100 the cents matter ("$4.28", not "$4"; a run under 50 cents is not "$0"). Above, whole dollars.
    const double cents = std::round(magnitude * 100) / 100;
    const std::string number = std::fabs(round_significant(magnitude, figures)) >= 1e6
                                   ? in_words(magnitude, figures, writing.money_words, writing.money_space).text
                               : cents < 100 ? group_thousands(write_decimal(cents, 'f', 2))
                                             : whole(magnitude);
    return sign + writing.money_prefix + number + writing.money_suffix;
}

bool is_whole_multiple(double value, double unit) {
    const double ratio = value / unit;
    return ratio >= 1 && std::fabs(ratio - std::round(ratio)) <= 1e-9 * ratio;
}

std::string duration_tick(double seconds) {
    static const TimeScale units[] = {{year, TimeUnit::years}, {month, TimeUnit::months}, {week, TimeUnit::weeks},
                                      {day, TimeUnit::days},   {hour, TimeUnit::hours},   {minute, TimeUnit::minutes},
                                      {1.0, TimeUnit::seconds}};
    for (const auto& unit : units) {
        if (!is_whole_multiple(seconds, unit.size)) continue;
        const double count = std::round(seconds / unit.size);
        const CountText number = count_text(count, tick_figures, false);
        const Noun& noun = time_noun(unit.unit);
        return counted(number.text, number.ends_in_word, count == 1 ? noun.one : noun.other);
    }
    return duration_text(seconds, tick_figures);
}

}  // namespace

std::string format_significant(double value, int significant_figures) {
    if (!std::isfinite(value)) return not_finite;
    if (value == 0.0) return "0";
    const int figures = clamp_figures(significant_figures);
    const double rounded = round_significant(value, figures);
    const double magnitude = std::fabs(rounded);
    if (magnitude >= 1e15 || magnitude < 1e-3) return scientific(value, figures);
    const int order = static_cast<int>(std::floor(std::log10(magnitude)));
    int decimals = figures - 1 - order;
    if (decimals < 0) decimals = 0;
    return group_thousands(trim_zeros(write_decimal(rounded, 'f', decimals)));
}

std::string format_count(double value) {
    if (!std::isfinite(value)) return not_finite;
    return count_text(value, default_figures, false).text;
}

bool figure_from_name(std::string_view name, Figure& out) {
    struct Name {
        const char* text;
        Figure figure;
    };
    static const Name names[] = {
        {"count", Figure::count},         {"number", Figure::count},        {"count_short", Figure::count_short},
        {"integer", Figure::integer},     {"plain", Figure::plain},         {"scientific", Figure::scientific},
        {"bytes", Figure::bytes},         {"memory", Figure::bytes},        {"flops", Figure::flops},
        {"compute", Figure::flops},       {"flop_rate", Figure::flop_rate}, {"rate", Figure::flop_rate},
        {"duration", Figure::duration},   {"time", Figure::duration},       {"seconds", Figure::duration},
        {"gpus", Figure::gpus},           {"percent", Figure::percent},     {"fraction", Figure::percent},
        {"sequences", Figure::sequences}, {"tokens", Figure::tokens},       {"parameters", Figure::parameters},
        {"ratio", Figure::ratio},         {"energy", Figure::energy},       {"money", Figure::money},
    };
    for (const auto& n : names) {
        if (name == n.text) {
            out = n.figure;
            return true;
        }
    }
    return false;
}

Figure figure_of(UnitKind kind) {
    switch (kind) {
        case UnitKind::number:
            return Figure::count;
        case UnitKind::memory:
            return Figure::bytes;
        case UnitKind::compute:
            return Figure::flops;
        case UnitKind::rate:
            return Figure::flop_rate;
        case UnitKind::time:
            return Figure::duration;
        case UnitKind::gpus:
            return Figure::gpus;
        case UnitKind::percent:
            return Figure::percent;
    }
    return Figure::count;
}

std::string format(double value, Figure figure, int significant_figures) {
    if (!std::isfinite(value)) return not_finite;
    const int figures = clamp_figures(significant_figures);
    switch (figure) {
        case Figure::count:
            return count_text(value, figures, false).text;
        case Figure::count_short:
            return count_text(value, figures, true).text;
        case Figure::integer:
            return std::fabs(value) >= 1e21 ? scientific(value, figures) : whole(value);
        case Figure::plain:
            return format_significant(value, figures);
        case Figure::scientific: {
            const double magnitude = std::fabs(round_significant(value, figures));
            if (value == 0.0 || (magnitude >= 1e-3 && magnitude < 1e6)) return format_significant(value, figures);
            return scientific(value, figures);
        }
        case Figure::bytes: {
            static const Scale units[] = {{1e15, "PB"}, {1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}};
            if (std::fabs(round_significant(value, figures)) >= 1e3 * (1 - 1e-12)) return scaled(value, units, figures);
            const std::string number = format_significant(value, figures);
            return number + " " + noun_form(words::writing().byte, number);
        }
        case Figure::flops: {
            const double magnitude = std::fabs(round_significant(value, figures));
            return (magnitude >= 1e6 ? scientific(value, figures) : format_significant(value, figures)) + " FLOPs";
        }
        case Figure::flop_rate: {
            static const Scale units[] = {{1e18, "EFLOP/s"}, {1e15, "PFLOP/s"}, {1e12, "TFLOP/s"},
                                          {1e9, "GFLOP/s"},  {1e6, "MFLOP/s"},  {1, "FLOP/s"}};
            return scaled(value, units, figures);
        }
        case Figure::duration:
            return value < 0 ? std::string(not_finite) : duration_text(value, figures);
        case Figure::gpus:
            return counted_noun(value, figures, words::writing().gpu);
        case Figure::sequences:
            return counted_noun(value, figures, words::writing().sequence);
        case Figure::tokens:
            return counted_noun(value, figures, words::writing().token);
        case Figure::parameters:
            return counted_noun(value, figures, words::writing().parameter);
        case Figure::percent:
            return format_significant(value * 100, figures) + words::writing().percent_sign;
        case Figure::ratio:
            return format_significant(value, figures) + "\u00D7";
        case Figure::energy: {
            static const Scale units[] = {{1e12, "TWh"}, {1e9, "GWh"}, {1e6, "MWh"}, {1e3, "kWh"}, {1, "Wh"}};
            return scaled(value / hour, units, figures);
        }
        case Figure::money:
            return money_text(value, figures);
    }
    return format_significant(value, figures);
}

std::string format_tick(double value, Figure figure) {
    if (!std::isfinite(value)) return not_finite;
    if (value == 0.0) return "0";
    switch (figure) {
        case Figure::duration:
            return value < 0 ? std::string(not_finite) : duration_tick(value);
        case Figure::flops:
        case Figure::scientific: {
            const std::string number = std::fabs(value) >= 1e6 || std::fabs(value) < 1e-3
                                           ? scientific(value, tick_figures)
                                           : format_significant(value, tick_figures);
            return figure == Figure::flops ? number + " FLOPs" : number;
        }
        default:
            return format(value, figure, tick_figures);
    }
}

// The smallest round time step of at least `rough` seconds.
double round_time_step(double rough) {
    static const double steps[] = {1,          2,          5,           10,          15,          30,   minute,
                                   2 * minute, 5 * minute, 10 * minute, 15 * minute, 30 * minute, hour, 2 * hour,
                                   3 * hour,   6 * hour,   12 * hour,   day,         2 * day,     week};
    for (const double step : steps)
        if (step >= rough) return step;
    const double weeks = rough / week;
    const double power = std::pow(10.0, std::floor(std::log10(weeks)));
    for (const double multiple : {1.0, 2.0, 5.0})
        if (multiple * power >= weeks) return multiple * power * week;
    return 10 * power * week;
}

std::vector<double> duration_ticks(double max_seconds, int count) {
    if (!std::isfinite(max_seconds) || max_seconds <= 0 || count < 1) return {0.0};
    const double rough = max_seconds / count;
    // Below a second, the decimal steps of a plain axis (0.2 s, 0.5 s).
    double step = rough;
    if (rough < 1) {
        const double power = std::pow(10.0, std::floor(std::log10(rough)));
        step = 10 * power;
        for (const double multiple : {5.0, 2.0, 1.0})
            if (multiple * power >= rough) step = multiple * power;
    } else {
        step = round_time_step(rough);
    }
    std::vector<double> ticks;
    for (int index = 0; index * step <= max_seconds * 1.0001 && index <= 4 * count; ++index)
        ticks.push_back(index * step);
    return ticks;
}

std::vector<TimeMark> time_axis_marks() {
    std::vector<TimeMark> marks;
    for (const double seconds : {1.0, minute, hour, day, week, month})
        marks.push_back({seconds, duration_tick(seconds)});
    for (double years = 1; years <= 1e8; years *= 10) marks.push_back({years * year, duration_tick(years * year)});
    return marks;
}

std::string format_in_unit(double base_value, const Unit& unit) {
    if (!std::isfinite(base_value)) return not_finite;
    const double value = base_value / unit.factor;
    if (unit.kind == UnitKind::compute && std::fabs(round_significant(value, default_figures)) >= 1e6)
        return scientific(value, default_figures) + " " + unit.symbol;
    const Writing& writing = words::writing();
    const Noun* noun = words::noun_for_symbol(writing, unit.symbol);
    if (unit.kind == UnitKind::gpus && value == std::round(value) && value != 1.0) {
        const CountText number = count_text(value, default_figures, false);
        return counted(number.text, number.ends_in_word, noun ? noun->other : unit.symbol.c_str());
    }
    const std::string number = format_significant(value);
    if (unit.symbol.empty()) return number;
    if (noun) return number + " " + noun_form(*noun, number);
    // "1 FLOP": the symbols of the unit table are plural.
    if (number == "1" && unit.symbol.back() == 's' && unit.symbol.find('/') == std::string::npos)
        return "1 " + unit.symbol.substr(0, unit.symbol.size() - 1);
    if (unit.symbol == "%") return number + writing.percent_sign;
    if (unit.symbol == "\u00D7") return number + unit.symbol;
    return number + " " + unit.symbol;
}

std::string format_natural(double base_value, const Unit& unit) {
    if (!std::isfinite(base_value)) return not_finite;
    const bool has_scales = unit.kind == UnitKind::memory || unit.kind == UnitKind::time || unit.kind == UnitKind::rate;
    if (!has_scales || unit.binary || base_value == 0.0) return format_in_unit(base_value, unit);
    const double in_unit = std::fabs(round_significant(base_value / unit.factor, default_figures));
    // The largest units of the table: a number of years or petabytes never moves up.
    const bool largest = (unit.kind == UnitKind::time && unit.factor >= year) ||
                         (unit.kind == UnitKind::memory && unit.factor >= 1e15) ||
                         (unit.kind == UnitKind::rate && unit.factor >= 1e18);
    if (in_unit >= 1 && (in_unit < 1000 || largest)) return format_in_unit(base_value, unit);
    return format(base_value, figure_of(unit.kind));
}

std::string localize_digits(const std::string& plain) {
    if (plain.empty() || !(text::is_digit(plain[0]) || plain[0] == '-')) return plain;
    return group_thousands(plain);
}

std::string count_of(double value, const std::string& noun) {
    if (!std::isfinite(value)) return not_finite;
    const CountText number = count_text(value, default_figures, false);
    return counted(number.text, number.ends_in_word, noun.c_str());
}

bool ends_in_count_word(const std::string& written) {
    for (const ScaleWord& scale : words::writing().count_words)
        for (const char* word : {scale.word.one, scale.word.other})
            if (text::ends_with(written, std::string(" ") + word)) return true;
    return false;
}

std::string unit_name(const Unit& unit) {
    const Noun* noun = words::noun_for_symbol(words::writing(), unit.symbol);
    return noun ? std::string(noun->other) : unit.symbol;
}

std::string format_auto(double base_value, UnitKind kind) { return format(base_value, figure_of(kind)); }

}  // namespace trainscope::quantity
