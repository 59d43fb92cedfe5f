// Quantities: reading what a person types ("1.1 TB", "70B", "3.6 × 10^25 FLOPs", "68 days") into
// a value in base units, and writing every figure the page, the quiz and the CLI show.
// Three parts: the unit table (quantity_units.cpp), the reader (quantity_read.cpp) and the
// formatter (quantity_format.cpp). The rules are documented in docs/numbers.md.
// Like fastfloat: no locale, no exceptions, no iostream; every failure is a message.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace trainscope::quantity {

// What a quantity measures. A quiz answer must have the kind its question asks for, and a typed
// field reads its text as its kind (a count reads "70B" as 70 billion, memory as 70 bytes).
enum class UnitKind {
    number,   // a plain count or ratio ("8", "8x", "70B" = 70 billion)
    memory,   // bytes
    compute,  // FLOPs (a count of operations)
    rate,     // FLOP/s
    time,     // seconds
    gpus,     // a number of GPUs
    percent,  // a fraction: "40%" is 0.4
};

// "number", "memory", "compute", "rate", "time", "gpus", "percent".
const char* unit_kind_name(UnitKind kind);
// What a learner reads in "that is a time, the question asks for memory": "a time", "an amount
// of memory", …, in the current language.
std::string unit_kind_phrase(UnitKind kind);
// The names above and their aliases: count → number, bytes → memory, flops → compute,
// flop_rate → rate, duration and seconds → time, fraction → percent. False when unknown.
bool unit_kind_from_name(std::string_view name, UnitKind& out);

struct Unit {
    UnitKind kind = UnitKind::number;
    double factor = 1.0;  // base units per one of this unit: 1e12 for TB, 86400 for days
    bool binary = false;  // KiB, MiB, GiB, TiB, PiB (powers of 1024)
    std::string symbol;   // how we write it: "TB", "days", "FLOPs", "%"
};

// Looks up a unit by any accepted spelling, case-insensitively ("TB", "terabytes", "days", "%").
// The empty string is the plain number. False when unknown; names are compared as whole
// strings, so no spelling can reach anything but the table.
bool find_unit(std::string_view spelling, Unit& out);

// The unit a bare number is read in for a field of `kind`: bytes, FLOPs, FLOP/s, seconds, GPUs,
// percent (a field showing "40%" reads a typed "45" as 45%), or the plain number.
Unit base_unit(UnitKind kind);

struct Parsed {
    bool ok = false;
    double value = 0.0;  // in base units (bytes, FLOPs, FLOP/s, seconds, GPUs, fraction); the
                         // bare number itself when !has_unit
    UnitKind kind = UnitKind::number;
    bool has_unit = false;  // false: a bare number, to be read in the question's unit
    Unit unit;              // the unit written, when has_unit
    // "1,120" is read as one thousand one hundred and twenty; in decimal-comma countries it is
    // 1.12. When the text allows both readings, the other one is here (same units as value).
    bool has_alternative = false;
    double alternative_value = 0.0;
    std::string error;  // when !ok: why this is not a number, in the learner's words
};

// Never throws; value is always finite when ok. The error never repeats the learner's text
// beyond a short run of letters, so it is safe to show. "B" is bytes. Numbers and unit words are
// read in the current language ("1,5 TB" in German is 1.5 TB) and in English.
Parsed parse(std::string_view text);
// The same, for text typed where a quantity of `expected` kind is asked for: a count or a GPU
// number also takes the letters K, M, B and T as thousand, million, billion and trillion
// ("70B" = 7e10). Other kinds read as parse(text). The kind is not checked here.
Parsed parse(std::string_view text, UnitKind expected);
// The same, for an answer asked for in `expected`: its messages give an example in that unit.
Parsed parse(std::string_view text, const Unit& expected);

// What a person might type for a quantity of this kind, for "for example …" in a message: "70
// billion" for a count, "1.1 TB" for memory, "68 days" for a time; for a unit, an example in it
// where the kind has units of several sizes ("2.5 bytes", "2.5 GB").
std::string typing_example(UnitKind kind);
std::string typing_example(const Unit& unit);

// What a typed field holds: `text` read as `kind`, checked to be of that kind.
struct Reading {
    bool ok = false;
    double value = 0.0;  // in the kind's base unit (bytes, FLOPs, FLOP/s, seconds, fraction)
    UnitKind kind = UnitKind::number;
    std::string display;  // the value as the engine writes it ("70 billion", "1.1 TB")
    std::string error;    // when !ok: a sentence to show next to the field
};
Reading read_quantity(std::string_view text, UnitKind kind);

// ── Writing ───────────────────────────────────────────────────────────────────────────────────
// One rule everywhere: round to the significant figures first (3 unless asked), then pick the
// largest unit in which the rounded value is at least 1, drop trailing zeros, separate
// thousands with commas, and write |x| ≥ 10¹⁵ or < 10⁻³ as "3.8 × 10²⁵". Anything not finite is
// "–". Memory is decimal (1 GB = 10⁹ bytes, docs/model.md), "kB" with a small k.
// The examples are English; every function writes in the current language (language.hpp):
// "1,13 TB", "16.384 GPUs", "68 Tage", "13.000 millones" (docs/numbers.md, "Languages").

// What a figure is, for writing. The reading kinds plus those only ever shown.
enum class Figure {
    count,        // 13e9 → "13 billion", 16384 → "16,384"
    count_short,  // 70.55e9 → "70.6B" (labels where a word does not fit)
    integer,      // 16384 → "16,384", rounded to a whole number, every digit kept
    plain,        // 8.25 → "8.25" (significant figures, no unit)
    scientific,   // 3.79e25 → "3.79 × 10²⁵"; magnitudes in [10⁻³, 10⁶) stay plain
    bytes,        // 1.1288e12 → "1.13 TB"
    flops,        // 3.8e25 → "3.8 × 10²⁵ FLOPs"
    flop_rate,    // 989e12 → "989 TFLOP/s"
    duration,     // seconds → "42 seconds", "5.5 hours", "68 days", "1.1 years"
    gpus,         // 2048 → "2,048 GPUs", 1 → "1 GPU"
    sequences,    // 1 → "1 sequence", 8 → "8 sequences" (count sliders' spoken values)
    tokens,       // 1 → "1 token", 8192 → "8,192 tokens", 15.6e12 → "15.6 trillion tokens"
    parameters,   // 1 → "1 parameter", 70e9 → "70 billion parameters"
    percent,      // 0.4 → "40%"
    ratio,        // 8.25 → "8.25×"
    energy,       // joules → "1.23 GWh"
    money,        // US dollars → "$1,234", "$1.23 million"
};
// "count", "count_short", "integer", "plain", "scientific", "bytes", "flops", "flop_rate",
// "duration", "gpus", "sequences", "tokens", "parameters", "percent", "ratio", "energy", "money"; the reading kinds'
// names and aliases ("memory", "time", …) name the matching figure. False when unknown.
bool figure_from_name(std::string_view name, Figure& out);
Figure figure_of(UnitKind kind);

// `significant_figures` 0 means the default, 3. Never throws; "–" for a value not finite.
std::string format(double value, Figure figure, int significant_figures = 0);

// An axis tick: the value as written on a scale, exact (up to six figures) so that ticks
// never read alike: 2e11 bytes → "200 GB", 1e24 FLOPs → "10²⁴ FLOPs", a week of seconds →
// "1 week", 1e6 years → "1 million years".
std::string format_tick(double value, Figure figure);

// The marks of a logarithmic time axis, shortest first: 1 second, 1 minute, 1 hour, 1 day,
// 1 week, 1 month, 1 year, then each power of ten of years up to 100 million years. Each label
// is format_tick of its seconds.
struct TimeMark {
    double seconds;
    std::string label;
};
std::vector<TimeMark> time_axis_marks();

// About `count` round ticks of a linear time axis from 0 to `max_seconds`, a clock's step apart
// (1, 2, 5, 10, 15 or 30 seconds or minutes; 1, 2, 3, 6 or 12 hours; 1, 2 or 7 days; then 1, 2 or
// 5 × a power of ten of weeks): 15 minutes, not 1,000 seconds that read "16.7 min". [0] when
// max_seconds is not a positive finite number.
std::vector<double> duration_ticks(double max_seconds, int count);

// Writes value (base units) in `unit` with three significant figures: "1.13 TB", "1,130 GB",
// "68 days", "3.65 × 10²⁵ FLOPs", "40%". Parsing the result gives back the value within 0.5%.
std::string format_in_unit(double base_value, const Unit& unit);

// The value in `unit` where that reads well (a number from 1 to below 1,000 there, or at least 1 in
// the largest unit of its kind), else in the unit a person would use for it, as format() picks:
// 2.56e11 bytes asked in TB is "256 GB", not "0.256 TB"; 55,440 s asked in days is "15.4 hours".
// FLOPs, percentages, GPUs and plain numbers are always written in `unit`.
std::string format_natural(double base_value, const Unit& unit);

// Plain digits ("16384", "1130.5") written as the current language writes them: "16,384",
// "1.130,5" (de), "16.384" (es, which groups from five digits).
std::string localize_digits(const std::string& plain);

// Whether a written count ends in the current language's word for its size ("13 billion",
// "406.000 millones"), after which Spanish puts "de" before the noun.
bool ends_in_count_word(const std::string& written);

// A count and the noun it counts, as the current language joins them: "406 billion parameters",
// "406 Milliarden Parameter", "406.000 millones de parámetros" (Spanish puts "de" after a scale
// word, RAE Nueva gramática §21.3), "16.384 parámetros".
std::string count_of(double value, const std::string& noun);

// How the current language names a unit inside a sentence: "days", "Tage", "días"; a symbol
// stays a symbol ("TB", "FLOPs").
std::string unit_name(const Unit& unit);

// format(base_value, figure_of(kind)).
std::string format_auto(double base_value, UnitKind kind);

// Plain numbers with words for the large ones: 13e9 → "13 billion", 16384 → "16,384".
std::string format_count(double value);

// Three significant figures, trailing zeros dropped, thousands separated: 1130 → "1,130",
// 0.0123 → "0.0123", 1.5e30 → "1.5 × 10³⁰".
std::string format_significant(double value, int significant_figures = 3);

}  // namespace trainscope::quantity
