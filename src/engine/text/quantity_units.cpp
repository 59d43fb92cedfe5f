// The unit table: every spelling the reader accepts, and the kinds' names.
#include <cstring>

#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"
#include "engine/text/quantity_text.hpp"

namespace trainscope::quantity {

using text::ends_with;
using text::lowercase;
using text::trim;

const char* unit_kind_name(UnitKind kind) {
    switch (kind) {
        case UnitKind::number:
            return "number";
        case UnitKind::memory:
            return "memory";
        case UnitKind::compute:
            return "compute";
        case UnitKind::rate:
            return "rate";
        case UnitKind::time:
            return "time";
        case UnitKind::gpus:
            return "gpus";
        case UnitKind::percent:
            return "percent";
    }
    return "number";
}

std::string unit_kind_phrase(UnitKind kind) {
    switch (kind) {
        case UnitKind::number:
            return message("quantity.kind.number", "a plain number");
        case UnitKind::memory:
            return message("quantity.kind.memory", "an amount of memory");
        case UnitKind::compute:
            return message("quantity.kind.compute", "an amount of compute (FLOPs)");
        case UnitKind::rate:
            return message("quantity.kind.rate", "a speed (FLOP/s)");
        case UnitKind::time:
            return message("quantity.kind.time", "a time");
        case UnitKind::gpus:
            return message("quantity.kind.gpus", "a number of GPUs");
        case UnitKind::percent:
            return message("quantity.kind.percent", "a percentage");
    }
    return message("quantity.kind.number", "a plain number");
}

bool unit_kind_from_name(std::string_view name, UnitKind& out) {
    struct Name {
        const char* text;
        UnitKind kind;
    };
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
    {"params", UnitKind::number, 1.0, ""},
    {"parameters", UnitKind::number, 1.0, ""},
    {"tokens", UnitKind::number, 1.0, ""},
    {"x", UnitKind::number, 1.0, "\u00D7"},
    {"*", UnitKind::number, 1.0, "\u00D7"},
    {"times", UnitKind::number, 1.0, "\u00D7"},
    {"b", UnitKind::memory, 1.0, "bytes"},
    {"byte", UnitKind::memory, 1.0, "bytes"},
    {"bytes", UnitKind::memory, 1.0, "bytes"},
    {"kb", UnitKind::memory, 1e3, "kB"},
    {"kilobyte", UnitKind::memory, 1e3, "kB"},
    {"kilobytes", UnitKind::memory, 1e3, "kB"},
    {"mb", UnitKind::memory, 1e6, "MB"},
    {"megabyte", UnitKind::memory, 1e6, "MB"},
    {"megabytes", UnitKind::memory, 1e6, "MB"},
    {"gb", UnitKind::memory, 1e9, "GB"},
    {"gigabyte", UnitKind::memory, 1e9, "GB"},
    {"gigabytes", UnitKind::memory, 1e9, "GB"},
    {"tb", UnitKind::memory, 1e12, "TB"},
    {"terabyte", UnitKind::memory, 1e12, "TB"},
    {"terabytes", UnitKind::memory, 1e12, "TB"},
    {"pb", UnitKind::memory, 1e15, "PB"},
    {"petabyte", UnitKind::memory, 1e15, "PB"},
    {"petabytes", UnitKind::memory, 1e15, "PB"},
    {"eb", UnitKind::memory, 1e18, "EB"},
    {"exabyte", UnitKind::memory, 1e18, "EB"},
    {"exabytes", UnitKind::memory, 1e18, "EB"},
    {"kib", UnitKind::memory, 1024.0, "KiB"},
    {"mib", UnitKind::memory, 1048576.0, "MiB"},
    {"mebibytes", UnitKind::memory, 1048576.0, "MiB"},
    {"gib", UnitKind::memory, 1073741824.0, "GiB"},
    {"gibibytes", UnitKind::memory, 1073741824.0, "GiB"},
    {"tib", UnitKind::memory, 1099511627776.0, "TiB"},
    {"tebibytes", UnitKind::memory, 1099511627776.0, "TiB"},
    {"pib", UnitKind::memory, 1125899906842624.0, "PiB"},
    {"operations", UnitKind::compute, 1.0, "FLOPs"},
    {"ops", UnitKind::compute, 1.0, "FLOPs"},
    {"s", UnitKind::time, 1.0, "seconds"},
    {"sec", UnitKind::time, 1.0, "seconds"},
    {"secs", UnitKind::time, 1.0, "seconds"},
    {"second", UnitKind::time, 1.0, "seconds"},
    {"seconds", UnitKind::time, 1.0, "seconds"},
    {"min", UnitKind::time, 60.0, "minutes"},
    {"mins", UnitKind::time, 60.0, "minutes"},
    {"minute", UnitKind::time, 60.0, "minutes"},
    {"minutes", UnitKind::time, 60.0, "minutes"},
    {"h", UnitKind::time, 3600.0, "hours"},
    {"hr", UnitKind::time, 3600.0, "hours"},
    {"hrs", UnitKind::time, 3600.0, "hours"},
    {"hour", UnitKind::time, 3600.0, "hours"},
    {"hours", UnitKind::time, 3600.0, "hours"},
    {"d", UnitKind::time, 86400.0, "days"},
    {"day", UnitKind::time, 86400.0, "days"},
    {"days", UnitKind::time, 86400.0, "days"},
    {"wk", UnitKind::time, 604800.0, "weeks"},
    {"week", UnitKind::time, 604800.0, "weeks"},
    {"weeks", UnitKind::time, 604800.0, "weeks"},
    {"mo", UnitKind::time, 2629800.0, "months"},
    {"month", UnitKind::time, 2629800.0, "months"},
    {"months", UnitKind::time, 2629800.0, "months"},
    {"y", UnitKind::time, 31557600.0, "years"},
    {"yr", UnitKind::time, 31557600.0, "years"},
    {"yrs", UnitKind::time, 31557600.0, "years"},
    {"year", UnitKind::time, 31557600.0, "years"},
    {"years", UnitKind::time, 31557600.0, "years"},
    // What a micro-batch or a batch counts, as questions ask it ("in sequences per GPU"): a plain number.
    {"sequence", UnitKind::number, 1.0, ""},
    {"sequences", UnitKind::number, 1.0, ""},
    {"seqs", UnitKind::number, 1.0, ""},
    {"gpu", UnitKind::gpus, 1.0, "GPUs"},
    {"gpus", UnitKind::gpus, 1.0, "GPUs"},
    {"gpu(s)", UnitKind::gpus, 1.0, "GPUs"},
    {"accelerators", UnitKind::gpus, 1.0, "GPUs"},
    {"%", UnitKind::percent, 0.01, "%"},
    {"percent", UnitKind::percent, 0.01, "%"},
    {"per cent", UnitKind::percent, 0.01, "%"},
    {"pct", UnitKind::percent, 0.01, "%"},
};

// German and Spanish unit words, read in their language besides every English spelling above
// (written lower-case; the reader lowers what was typed, "Tage" and "DÍAS" included).
const UnitSpelling german_unit_spellings[] = {
    {"parameter", UnitKind::number, 1.0, ""},         {"mal", UnitKind::number, 1.0, "\u00D7"},
    {"sek", UnitKind::time, 1.0, "seconds"},          {"sekunde", UnitKind::time, 1.0, "seconds"},
    {"sekunden", UnitKind::time, 1.0, "seconds"},     {"minuten", UnitKind::time, 60.0, "minutes"},
    {"std", UnitKind::time, 3600.0, "hours"},         {"stunde", UnitKind::time, 3600.0, "hours"},
    {"stunden", UnitKind::time, 3600.0, "hours"},     {"tag", UnitKind::time, 86400.0, "days"},
    {"tage", UnitKind::time, 86400.0, "days"},        {"tagen", UnitKind::time, 86400.0, "days"},
    {"woche", UnitKind::time, 604800.0, "weeks"},     {"wochen", UnitKind::time, 604800.0, "weeks"},
    {"monat", UnitKind::time, 2629800.0, "months"},   {"monate", UnitKind::time, 2629800.0, "months"},
    {"monaten", UnitKind::time, 2629800.0, "months"}, {"jahr", UnitKind::time, 31557600.0, "years"},
    {"jahre", UnitKind::time, 31557600.0, "years"},   {"jahren", UnitKind::time, 31557600.0, "years"},
    {"prozent", UnitKind::percent, 0.01, "%"},        {"sequenz", UnitKind::number, 1.0, ""},
    {"sequenzen", UnitKind::number, 1.0, ""},
};

const UnitSpelling spanish_unit_spellings[] = {
    {"par\u00E1metros", UnitKind::number, 1.0, ""},
    {"parametros", UnitKind::number, 1.0, ""},
    {"veces", UnitKind::number, 1.0, "\u00D7"},
    {"operaciones", UnitKind::compute, 1.0, "FLOPs"},
    {"seg", UnitKind::time, 1.0, "seconds"},
    {"segundo", UnitKind::time, 1.0, "seconds"},
    {"segundos", UnitKind::time, 1.0, "seconds"},
    {"minuto", UnitKind::time, 60.0, "minutes"},
    {"minutos", UnitKind::time, 60.0, "minutes"},
    {"hora", UnitKind::time, 3600.0, "hours"},
    {"horas", UnitKind::time, 3600.0, "hours"},
    {"d\u00EDa", UnitKind::time, 86400.0, "days"},
    {"d\u00EDas", UnitKind::time, 86400.0, "days"},
    {"dia", UnitKind::time, 86400.0, "days"},
    {"dias", UnitKind::time, 86400.0, "days"},
    {"semana", UnitKind::time, 604800.0, "weeks"},
    {"semanas", UnitKind::time, 604800.0, "weeks"},
    {"mes", UnitKind::time, 2629800.0, "months"},
    {"meses", UnitKind::time, 2629800.0, "months"},
    {"a\u00F1o", UnitKind::time, 31557600.0, "years"},
    {"a\u00F1os", UnitKind::time, 31557600.0, "years"},
    {"por ciento", UnitKind::percent, 0.01, "%"},
    {"secuencia", UnitKind::number, 1.0, ""},
    {"secuencias", UnitKind::number, 1.0, ""},
};

template <typename T, std::size_t N>
words::Span<T> span(const T (&items)[N]) {
    return {items, N};
}

words::Span<UnitSpelling> language_unit_spellings(Language language) {
    switch (language) {
        case Language::en:
            return {};
        case Language::de:
            return span(german_unit_spellings);
        case Language::es:
            return span(spanish_unit_spellings);
    }
    return {};
}

bool find_spelling(words::Span<UnitSpelling> spellings, const std::string& lower, Unit& out) {
    for (const auto& u : spellings) {
        if (lower == u.spelling) {
            out.kind = u.kind;
            out.factor = u.factor;
            out.symbol = u.symbol;
            out.binary = out.symbol.size() == 3 && out.symbol[1] == 'i';  // KiB … PiB
            return true;
        }
    }
    return false;
}

// FLOP counts and rates with SI prefixes: "FLOPs", "PFLOPs", "petaFLOPs", "TFLOP/s".
bool find_flop_unit(const std::string& spelling, Unit& out) {
    struct Base {
        const char* text;
        UnitKind kind;
    };
    static const Base bases[] = {{"flops/s", UnitKind::rate},  {"flop/s", UnitKind::rate},
                                 {"flop/sec", UnitKind::rate}, {"flops", UnitKind::compute},
                                 {"flop", UnitKind::compute},  {"flop(s)", UnitKind::compute}};
    struct Prefix {
        const char* text;
        double factor;
        const char* symbol;
    };
    static const Prefix prefixes[] = {{"", 1.0, ""},       {"k", 1e3, "k"},  {"kilo", 1e3, "k"},   {"m", 1e6, "M"},
                                      {"mega", 1e6, "M"},  {"g", 1e9, "G"},  {"giga", 1e9, "G"},   {"t", 1e12, "T"},
                                      {"tera", 1e12, "T"}, {"p", 1e15, "P"}, {"peta", 1e15, "P"},  {"e", 1e18, "E"},
                                      {"exa", 1e18, "E"},  {"z", 1e21, "Z"}, {"zetta", 1e21, "Z"}, {"y", 1e24, "Y"},
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
    return find_spelling(span(unit_spellings), lower, out) ||
           find_spelling(language_unit_spellings(current_language()), lower, out) || find_flop_unit(lower, out);
}

Unit base_unit(UnitKind kind) {
    static const char* const spellings[] = {"", "bytes", "FLOPs", "FLOP/s", "seconds", "GPUs", "%"};
    Unit unit;
    find_unit(spellings[static_cast<int>(kind)], unit);
    return unit;
}

}  // namespace trainscope::quantity

// ── Each language's words for numbers ─────────────────────────────────────────────────────────
// Writing follows CLDR 46 (unicode.org/cldr: numbers, compact decimals, currency and unit
// patterns of en, de, es), checked against ICU's Intl.NumberFormat; reading takes each
// language's words besides every English spelling.
namespace trainscope::quantity::words {

namespace {

template <typename T, std::size_t N>
Span<T> span(const T (&items)[N]) {
    return {items, N};
}

const char* const no_break_space = "\u00A0";

// English: "13 billion", "70.6B", "$1.23 million".
const ScaleWord english_count_words[] = {
    {1e12, {"trillion", "trillion"}}, {1e9, {"billion", "billion"}}, {1e6, {"million", "million"}}};
const ScaleWord english_short_words[] = {{1e12, {"T", "T"}}, {1e9, {"B", "B"}}, {1e6, {"M", "M"}}};

// German: the long scale (Milliarde 10⁹, Billion 10¹²); short forms "Mio.", "Mrd.", "Bio."
// (CLDR de, compact short), which money uses too: "1,23 Mio. $".
const ScaleWord german_count_words[] = {
    {1e12, {"Billion", "Billionen"}}, {1e9, {"Milliarde", "Milliarden"}}, {1e6, {"Million", "Millionen"}}};
const ScaleWord german_short_words[] = {{1e12, {"Bio.", "Bio."}}, {1e9, {"Mrd.", "Mrd."}}, {1e6, {"Mio.", "Mio."}}};

// Spanish: thousands of millions rather than "mil millones" (13e9 is "13.000 millones",
// docs/i18n.md), billón is 10¹². The short forms are CLDR es's "M" and "mil M"; for 10¹²
// CLDR writes "B", which a count field reads as 10⁹ ("70B" parameters), so the word stays.
const ScaleWord spanish_count_words[] = {{1e12, {"bill\u00F3n", "billones"}}, {1e6, {"mill\u00F3n", "millones"}}};
const ScaleWord spanish_short_words[] = {
    {1e12, {"bill\u00F3n", "billones"}}, {1e9, {"mil\u00A0M", "mil\u00A0M"}}, {1e6, {"M", "M"}}};
// CLDR es, currency compact short: "1,23 M US$", "1500 M US$", "1,5 B US$".
const ScaleWord spanish_money_words[] = {{1e12, {"B", "B"}}, {1e6, {"M", "M"}}};

const Writing english_writing = {
    '.',
    ',',
    1,
    "%",
    span(english_count_words),
    span(english_short_words),
    "",
    "",
    {"second", "seconds"},
    {"minute", "minutes"},
    {"hour", "hours"},
    {"day", "days"},
    {"week", "weeks"},
    {"month", "months"},
    {"year", "years"},
    {"byte", "bytes"},
    {"GPU", "GPUs"},
    {"sequence", "sequences"},
    {"token", "tokens"},
    {"parameter", "parameters"},
    "$",
    "",
    span(english_count_words),
    " ",
};

const Writing german_writing = {
    ',',
    '.',
    1,
    "\u00A0%",
    span(german_count_words),
    span(german_short_words),
    no_break_space,
    "",
    {"Sekunde", "Sekunden"},
    {"Minute", "Minuten"},
    {"Stunde", "Stunden"},
    {"Tag", "Tage"},
    {"Woche", "Wochen"},
    {"Monat", "Monate"},
    {"Jahr", "Jahre"},
    {"Byte", "Byte"},
    {"GPU", "GPUs"},
    {"Sequenz", "Sequenzen"},
    {"Token", "Token"},
    {"Parameter", "Parameter"},
    "",
    "\u00A0$",
    span(german_short_words),
    no_break_space,
};

const Writing spanish_writing = {
    ',',
    '.',
    2,
    "\u00A0%",
    span(spanish_count_words),
    span(spanish_short_words),
    no_break_space,
    "de ",
    {"segundo", "segundos"},
    {"minuto", "minutos"},
    {"hora", "horas"},
    {"d\u00EDa", "d\u00EDas"},
    {"semana", "semanas"},
    {"mes", "meses"},
    {"a\u00F1o", "a\u00F1os"},
    {"byte", "bytes"},
    {"GPU", "GPU"},
    {"secuencia", "secuencias"},
    {"token", "tokens"},
    {"par\u00E1metro", "par\u00E1metros"},
    "",
    "\u00A0US$",
    span(spanish_money_words),
    no_break_space,
};

struct Multiplier {
    const char* word;
    double factor;
};

const Multiplier english_multipliers[] = {{"k", 1e3},         {"thousand", 1e3}, {"million", 1e6},
                                          {"mn", 1e6},        {"billion", 1e9},  {"bn", 1e9},
                                          {"trillion", 1e12}, {"tn", 1e12},      {"quadrillion", 1e15}};
// The long scale: a German Billion is 10¹², a Trillion 10¹⁸ (they come before English's).
const Multiplier german_multipliers[] = {
    {"tausend", 1e3},   {"tsd", 1e3},        {"million", 1e6},     {"millionen", 1e6}, {"mio", 1e6},
    {"milliarde", 1e9}, {"milliarden", 1e9}, {"mrd", 1e9},         {"billion", 1e12},  {"billionen", 1e12},
    {"bio", 1e12},      {"billiarde", 1e15}, {"billiarden", 1e15}, {"trillion", 1e18}, {"trillionen", 1e18}};
// "mil millones" is read as mil × millones by the reader.
const Multiplier spanish_multipliers[] = {{"mil", 1e3},           {"mill\u00F3n", 1e6}, {"millon", 1e6},
                                          {"millones", 1e6},      {"millardo", 1e9},    {"millardos", 1e9},
                                          {"bill\u00F3n", 1e12},  {"billon", 1e12},     {"billones", 1e12},
                                          {"trill\u00F3n", 1e18}, {"trillon", 1e18},    {"trillones", 1e18}};

Span<Multiplier> language_multipliers(Language language) {
    switch (language) {
        case Language::en:
            return {};
        case Language::de:
            return span(german_multipliers);
        case Language::es:
            return span(spanish_multipliers);
    }
    return {};
}

const char* const english_hedges[] = {"approximately ", "approx. ", "approx ", "about ",
                                      "around ",        "roughly ", "ca. ",    "circa "};
const char* const german_hedges[] = {"etwa ", "ungef\u00E4hr ", "rund ", "zirka ", "ca. ", "circa "};
const char* const spanish_hedges[] = {"aproximadamente ", "aprox. ",   "unos ", "unas ",
                                      "alrededor de ",    "cerca de ", "casi "};

const char* const english_per_parameter[] = {"per parameter", "per param", "per weight",
                                             "/parameter",    "/param",    "/weight"};
const char* const german_per_parameter[] = {"pro parameter", "je parameter", "pro gewicht"};
const char* const spanish_per_parameter[] = {"por par\u00E1metro", "por parametro", "por peso"};

const NumberWord english_number_words[] = {
    {"zero", "0"},      {"one", "1"},       {"two", "2"},         {"three", "3"},     {"four", "4"},
    {"five", "5"},      {"six", "6"},       {"seven", "7"},       {"eight", "8"},     {"nine", "9"},
    {"ten", "10"},      {"eleven", "11"},   {"twelve", "12"},     {"thirteen", "13"}, {"fourteen", "14"},
    {"fifteen", "15"},  {"sixteen", "16"},  {"seventeen", "17"},  {"eighteen", "18"}, {"nineteen", "19"},
    {"twenty", "20"},   {"thirty", "30"},   {"forty", "40"},      {"fifty", "50"},    {"sixty", "60"},
    {"seventy", "70"},  {"eighty", "80"},   {"ninety", "90"},     {"hundred", "100"}, {"thousand", "1000"},
    {"million", "1e6"}, {"billion", "1e9"}, {"trillion", "1e12"}, {"a ", nullptr},    {"an ", nullptr},
    {"half", "0.5"}};
const NumberWord german_number_words[] = {
    {"null", "0"},           {"eins", "1"},          {"zwei", "2"},        {"drei", "3"},          {"vier", "4"},
    {"f\u00FCnf", "5"},      {"sechs", "6"},         {"sieben", "7"},      {"acht", "8"},          {"neun", "9"},
    {"zehn", "10"},          {"elf", "11"},          {"zw\u00F6lf", "12"}, {"dreizehn", "13"},     {"vierzehn", "14"},
    {"f\u00FCnfzehn", "15"}, {"sechzehn", "16"},     {"siebzehn", "17"},   {"achtzehn", "18"},     {"neunzehn", "19"},
    {"zwanzig", "20"},       {"drei\u00DFig", "30"}, {"vierzig", "40"},    {"f\u00FCnfzig", "50"}, {"sechzig", "60"},
    {"siebzig", "70"},       {"achtzig", "80"},      {"neunzig", "90"},    {"hundert", "100"},     {"tausend", "1000"},
    {"million", "1e6"},      {"milliarde", "1e9"},   {"billion", "1e12"},  {"ein ", nullptr},      {"eine ", nullptr},
    {"halb", "0,5"}};
const NumberWord spanish_number_words[] = {{"cero", "0"},
                                           {"uno", "1"},
                                           {"dos", "2"},
                                           {"tres", "3"},
                                           {"cuatro", "4"},
                                           {"cinco", "5"},
                                           {"seis", "6"},
                                           {"siete", "7"},
                                           {"ocho", "8"},
                                           {"nueve", "9"},
                                           {"diez", "10"},
                                           {"once", "11"},
                                           {"doce", "12"},
                                           {"trece", "13"},
                                           {"catorce", "14"},
                                           {"quince", "15"},
                                           {"diecis\u00E9is", "16"},
                                           {"dieciseis", "16"},
                                           {"diecisiete", "17"},
                                           {"dieciocho", "18"},
                                           {"diecinueve", "19"},
                                           {"veinte", "20"},
                                           {"treinta", "30"},
                                           {"cuarenta", "40"},
                                           {"cincuenta", "50"},
                                           {"sesenta", "60"},
                                           {"setenta", "70"},
                                           {"ochenta", "80"},
                                           {"noventa", "90"},
                                           {"cien", "100"},
                                           {"mil", "1000"},
                                           {"mill\u00F3n", "1e6"},
                                           {"un ", nullptr},
                                           {"una ", nullptr},
                                           {"medio", "0,5"}};

}  // namespace

const Writing& writing(Language language) {
    switch (language) {
        case Language::en:
            return english_writing;
        case Language::de:
            return german_writing;
        case Language::es:
            return spanish_writing;
    }
    return english_writing;
}

const Noun* noun_for_symbol(const Writing& writing, std::string_view symbol) {
    if (symbol == "seconds") return &writing.second;
    if (symbol == "minutes") return &writing.minute;
    if (symbol == "hours") return &writing.hour;
    if (symbol == "days") return &writing.day;
    if (symbol == "weeks") return &writing.week;
    if (symbol == "months") return &writing.month;
    if (symbol == "years") return &writing.year;
    if (symbol == "bytes") return &writing.byte;
    if (symbol == "GPUs") return &writing.gpu;
    return nullptr;
}

double multiplier_word(std::string_view lower_word) {
    for (const auto& m : language_multipliers(current_language())) {
        if (lower_word == m.word) return m.factor;
    }
    for (const auto& m : english_multipliers) {
        if (lower_word == m.word) return m.factor;
    }
    return 0.0;
}

Span<const char*> hedges(Language language) {
    switch (language) {
        case Language::en:
            return span(english_hedges);
        case Language::de:
            return span(german_hedges);
        case Language::es:
            return span(spanish_hedges);
    }
    return span(english_hedges);
}

Span<const char*> per_parameter_suffixes(Language language) {
    switch (language) {
        case Language::en:
            return span(english_per_parameter);
        case Language::de:
            return span(german_per_parameter);
        case Language::es:
            return span(spanish_per_parameter);
    }
    return span(english_per_parameter);
}

Span<NumberWord> number_words(Language language) {
    switch (language) {
        case Language::en:
            return span(english_number_words);
        case Language::de:
            return span(german_number_words);
        case Language::es:
            return span(spanish_number_words);
    }
    return span(english_number_words);
}

}  // namespace trainscope::quantity::words
