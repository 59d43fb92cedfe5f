// The unit table: every spelling the reader accepts, and the kinds' names.
#include <cstring>

#include "engine/quantity.hpp"
#include "engine/quantity_text.hpp"

namespace trainscope::quantity {

using text::ends_with;
using text::lowercase;
using text::trim;

const char* unit_kind_name(UnitKind kind) {
    switch (kind) {
        case UnitKind::number: return "number";
        case UnitKind::memory: return "memory";
        case UnitKind::compute: return "compute";
        case UnitKind::rate: return "rate";
        case UnitKind::time: return "time";
        case UnitKind::gpus: return "gpus";
        case UnitKind::percent: return "percent";
    }
    return "number";
}

const char* unit_kind_phrase(UnitKind kind) {
    switch (kind) {
        case UnitKind::number: return "a plain number";
        case UnitKind::memory: return "an amount of memory";
        case UnitKind::compute: return "an amount of compute (FLOPs)";
        case UnitKind::rate: return "a speed (FLOP/s)";
        case UnitKind::time: return "a time";
        case UnitKind::gpus: return "a number of GPUs";
        case UnitKind::percent: return "a percentage";
    }
    return "a plain number";
}

bool unit_kind_from_name(std::string_view name, UnitKind& out) {
    struct Name { const char* text; UnitKind kind; };
    static const Name names[] = {
        {"number", UnitKind::number},   {"count", UnitKind::number},     {"memory", UnitKind::memory},
        {"bytes", UnitKind::memory},    {"compute", UnitKind::compute},  {"flops", UnitKind::compute},
        {"rate", UnitKind::rate},       {"flop_rate", UnitKind::rate},   {"time", UnitKind::time},
        {"duration", UnitKind::time},   {"seconds", UnitKind::time},     {"gpus", UnitKind::gpus},
        {"percent", UnitKind::percent}, {"fraction", UnitKind::percent},
    };
    for (const auto& n : names) {
        if (name == n.text) {
            out = n.kind;
            return true;
        }
    }
    return false;
}

namespace {

struct UnitSpelling {
    const char* spelling;
    UnitKind kind;
    double factor;
    const char* symbol;
};

// Decimal prefixes for memory (docs/model.md: decimal GB = 10^9 B), binary ones named as such.
// A year is the Julian year, 365.25 days; a month is a twelfth of it.
const UnitSpelling unit_spellings[] = {
    {"", UnitKind::number, 1.0, ""},
    {"params", UnitKind::number, 1.0, ""}, {"parameters", UnitKind::number, 1.0, ""},
    {"tokens", UnitKind::number, 1.0, ""},
    {"x", UnitKind::number, 1.0, "\u00D7"}, {"*", UnitKind::number, 1.0, "\u00D7"},
    {"times", UnitKind::number, 1.0, "\u00D7"},
    {"b", UnitKind::memory, 1.0, "bytes"}, {"byte", UnitKind::memory, 1.0, "bytes"},
    {"bytes", UnitKind::memory, 1.0, "bytes"},
    {"kb", UnitKind::memory, 1e3, "kB"}, {"kilobyte", UnitKind::memory, 1e3, "kB"},
    {"kilobytes", UnitKind::memory, 1e3, "kB"},
    {"mb", UnitKind::memory, 1e6, "MB"}, {"megabyte", UnitKind::memory, 1e6, "MB"},
    {"megabytes", UnitKind::memory, 1e6, "MB"},
    {"gb", UnitKind::memory, 1e9, "GB"}, {"gigabyte", UnitKind::memory, 1e9, "GB"},
    {"gigabytes", UnitKind::memory, 1e9, "GB"},
    {"tb", UnitKind::memory, 1e12, "TB"}, {"terabyte", UnitKind::memory, 1e12, "TB"},
    {"terabytes", UnitKind::memory, 1e12, "TB"},
    {"pb", UnitKind::memory, 1e15, "PB"}, {"petabyte", UnitKind::memory, 1e15, "PB"},
    {"petabytes", UnitKind::memory, 1e15, "PB"},
    {"eb", UnitKind::memory, 1e18, "EB"}, {"exabyte", UnitKind::memory, 1e18, "EB"},
    {"exabytes", UnitKind::memory, 1e18, "EB"},
    {"kib", UnitKind::memory, 1024.0, "KiB"},
    {"mib", UnitKind::memory, 1048576.0, "MiB"}, {"mebibytes", UnitKind::memory, 1048576.0, "MiB"},
    {"gib", UnitKind::memory, 1073741824.0, "GiB"},
    {"gibibytes", UnitKind::memory, 1073741824.0, "GiB"},
    {"tib", UnitKind::memory, 1099511627776.0, "TiB"},
    {"tebibytes", UnitKind::memory, 1099511627776.0, "TiB"},
    {"pib", UnitKind::memory, 1125899906842624.0, "PiB"},
    {"operations", UnitKind::compute, 1.0, "FLOPs"}, {"ops", UnitKind::compute, 1.0, "FLOPs"},
    {"s", UnitKind::time, 1.0, "seconds"}, {"sec", UnitKind::time, 1.0, "seconds"},
    {"secs", UnitKind::time, 1.0, "seconds"}, {"second", UnitKind::time, 1.0, "seconds"},
    {"seconds", UnitKind::time, 1.0, "seconds"},
    {"min", UnitKind::time, 60.0, "minutes"}, {"mins", UnitKind::time, 60.0, "minutes"},
    {"minute", UnitKind::time, 60.0, "minutes"}, {"minutes", UnitKind::time, 60.0, "minutes"},
    {"h", UnitKind::time, 3600.0, "hours"}, {"hr", UnitKind::time, 3600.0, "hours"},
    {"hrs", UnitKind::time, 3600.0, "hours"}, {"hour", UnitKind::time, 3600.0, "hours"},
    {"hours", UnitKind::time, 3600.0, "hours"},
    {"d", UnitKind::time, 86400.0, "days"}, {"day", UnitKind::time, 86400.0, "days"},
    {"days", UnitKind::time, 86400.0, "days"},
    {"wk", UnitKind::time, 604800.0, "weeks"}, {"week", UnitKind::time, 604800.0, "weeks"},
    {"weeks", UnitKind::time, 604800.0, "weeks"},
    {"mo", UnitKind::time, 2629800.0, "months"}, {"month", UnitKind::time, 2629800.0, "months"},
    {"months", UnitKind::time, 2629800.0, "months"},
    {"y", UnitKind::time, 31557600.0, "years"}, {"yr", UnitKind::time, 31557600.0, "years"},
    {"yrs", UnitKind::time, 31557600.0, "years"}, {"year", UnitKind::time, 31557600.0, "years"},
    {"years", UnitKind::time, 31557600.0, "years"},
    {"gpu", UnitKind::gpus, 1.0, "GPUs"}, {"gpus", UnitKind::gpus, 1.0, "GPUs"},
    {"gpu(s)", UnitKind::gpus, 1.0, "GPUs"}, {"accelerators", UnitKind::gpus, 1.0, "GPUs"},
    {"%", UnitKind::percent, 0.01, "%"}, {"percent", UnitKind::percent, 0.01, "%"},
    {"per cent", UnitKind::percent, 0.01, "%"}, {"pct", UnitKind::percent, 0.01, "%"},
};

// FLOP counts and rates with SI prefixes: "FLOPs", "PFLOPs", "petaFLOPs", "TFLOP/s".
bool find_flop_unit(const std::string& spelling, Unit& out) {
    struct Base { const char* text; UnitKind kind; };
    static const Base bases[] = {{"flops/s", UnitKind::rate}, {"flop/s", UnitKind::rate},
                                 {"flop/sec", UnitKind::rate}, {"flops", UnitKind::compute},
                                 {"flop", UnitKind::compute}, {"flop(s)", UnitKind::compute}};
    struct Prefix { const char* text; double factor; const char* symbol; };
    static const Prefix prefixes[] = {
        {"", 1.0, ""},      {"k", 1e3, "k"},     {"kilo", 1e3, "k"},   {"m", 1e6, "M"},
        {"mega", 1e6, "M"}, {"g", 1e9, "G"},     {"giga", 1e9, "G"},   {"t", 1e12, "T"},
        {"tera", 1e12, "T"}, {"p", 1e15, "P"},   {"peta", 1e15, "P"},  {"e", 1e18, "E"},
        {"exa", 1e18, "E"}, {"z", 1e21, "Z"},    {"zetta", 1e21, "Z"}, {"y", 1e24, "Y"},
        {"yotta", 1e24, "Y"}};
    for (const auto& base : bases) {
        if (!ends_with(spelling, base.text)) continue;
        std::string prefix = spelling.substr(0, spelling.size() - std::strlen(base.text));
        while (!prefix.empty() && (prefix.back() == ' ' || prefix.back() == '-')) prefix.pop_back();
        for (const auto& p : prefixes) {
            if (prefix != p.text) continue;
            out.kind = base.kind;
            out.factor = p.factor;
            out.binary = false;
            out.symbol = std::string(p.symbol) + (base.kind == UnitKind::rate ? "FLOP/s" : "FLOPs");
            return true;
        }
    }
    return false;
}

}  // namespace

bool find_unit(std::string_view spelling, Unit& out) {
    const std::string lower = lowercase(trim(spelling));
    for (const auto& u : unit_spellings) {
        if (lower == u.spelling) {
            out.kind = u.kind;
            out.factor = u.factor;
            out.symbol = u.symbol;
            out.binary = out.symbol.size() == 3 && out.symbol[1] == 'i';  // KiB … PiB
            return true;
        }
    }
    return find_flop_unit(lower, out);
}

Unit base_unit(UnitKind kind) {
    static const char* const spellings[] = {"", "bytes", "FLOPs", "FLOP/s", "seconds", "GPUs", "%"};
    Unit unit;
    find_unit(spellings[static_cast<int>(kind)], unit);
    return unit;
}

}  // namespace trainscope::quantity
