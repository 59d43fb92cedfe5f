// Reading a learner's typed quantity ("1.1 TB", "1,120 GB", "3.6 × 10^25 FLOPs", "68 days")
// into a value in base units, and writing values back in the same notation.
// The rules (decimal comma, thousands separators, ambiguity) are documented in docs/quiz.md.
// Like fastfloat: no locale, no exceptions, no iostream; every failure is a message.
#pragma once

#include <string>
#include <string_view>

namespace trainscope::quantity {

// What a quantity measures. A quiz answer must have the kind its question asks for.
enum class UnitKind {
    number,   // a plain count or ratio ("8", "8x", "8 times")
    memory,   // bytes
    compute,  // FLOPs (a count of operations)
    rate,     // FLOP/s
    time,     // seconds
    gpus,     // a number of GPUs
    percent,  // a fraction: "40%" is 0.4
};

// "number", "memory", "compute", "rate", "time", "gpus", "percent".
const char* unit_kind_name(UnitKind kind);
// What a learner reads in "that is a time, the question asks for memory": "a time", "memory", …
const char* unit_kind_phrase(UnitKind kind);

struct Unit {
    UnitKind kind = UnitKind::number;
    double factor = 1.0;      // base units per one of this unit: 1e12 for TB, 86400 for days
    bool binary = false;      // KiB, MiB, GiB, TiB, PiB (powers of 1024)
    std::string symbol;       // how we write it: "TB", "days", "FLOPs", "%"
};

// Looks up a unit by any accepted spelling, case-insensitively ("TB", "terabytes", "days", "%").
// The empty string is the plain number. False when unknown.
bool find_unit(std::string_view spelling, Unit& out);

struct Parsed {
    bool ok = false;
    double value = 0.0;        // in base units (bytes, FLOPs, FLOP/s, seconds, GPUs, fraction); the
                               // bare number itself when !has_unit
    UnitKind kind = UnitKind::number;
    bool has_unit = false;     // false: a bare number, to be read in the question's unit
    Unit unit;                 // the unit written, when has_unit
    // "1,120" is read as one thousand one hundred and twenty; in decimal-comma countries it is
    // 1.12. When the text allows both readings, the other one is here (same units as value).
    bool has_alternative = false;
    double alternative_value = 0.0;
    std::string error;         // when !ok: why this is not a number, in the learner's words
};

// Never throws; value is always finite when ok. The error never repeats the learner's text
// beyond a short run of letters, so it is safe to show.
Parsed parse(std::string_view text);

// Writes value (base units) in `unit` with three significant figures, thousands separated by
// commas: "1.13 TB", "1,130 GB", "68 days", "3.65 × 10²⁵ FLOPs", "40%". Parsing the result gives
// back the value to within 0.5%.
std::string format_in_unit(double base_value, const Unit& unit);

// Picks a readable unit of the kind: bytes → "1.13 TB", seconds → "68 days" or "2,920 years".
std::string format_auto(double base_value, UnitKind kind);

// Plain numbers with words for the large ones: 13e9 → "13 billion", 16384 → "16,384".
std::string format_count(double value);

// Three significant figures, trailing zeros dropped, thousands separated: 1130 → "1,130",
// 0.0123 → "0.0123", 1.5e30 → "1.5 × 10³⁰".
std::string format_significant(double value, int significant_figures = 3);

}  // namespace trainscope::quantity
