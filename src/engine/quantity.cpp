#include "engine/quantity.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace trainscope::quantity {

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

namespace {

// Longer input is not a number anyone typed by hand; refusing it keeps every step cheap.
constexpr std::size_t max_answer_length = 200;
// Decimal exponents beyond this are far outside any quantity in the lesson (and beyond double).
constexpr long max_exponent = 400;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char to_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string lowercase(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = to_lower(c);
    return out;
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    return text;
}

bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Superscript digits, minus and plus (U+2070–U+207B, ¹²³ in Latin-1). Returns 0–9 for a digit,
// 10 for minus, 11 for plus, -1 for none; `length` is the UTF-8 byte count.
int superscript_at(std::string_view text, std::size_t i, std::size_t& length) {
    static const char* const forms[] = {"\u2070", "\u00B9", "\u00B2", "\u00B3", "\u2074", "\u2075",
                                        "\u2076", "\u2077", "\u2078", "\u2079", "\u207B", "\u207A"};
    for (int k = 0; k < 12; ++k) {
        const std::size_t n = std::strlen(forms[k]);
        if (text.substr(i, n) == forms[k]) { length = n; return k; }
    }
    return -1;
}

// Rewrites what a learner may type in Unicode as ASCII: minus signs, multiplication signs,
// non-breaking and thin spaces (thousands separators in French and SI style), superscript
// exponents (10²⁵ → 10^25), ≈. Whitespace runs collapse to one space; ends are trimmed.
std::string normalize(std::string_view text) {
    struct Replacement { const char* from; char to; };
    static const Replacement replacements[] = {
        {"\u2212", '-'}, {"\u2013", '-'}, {"\u2012", '-'},               // minus sign, dashes
        {"\u00D7", '*'}, {"\u22C5", '*'}, {"\u00B7", '*'}, {"\u2715", '*'},  // × ⋅ · ✕
        {"\u00A0", ' '}, {"\u2009", ' '}, {"\u202F", ' '}, {"\u2007", ' '},  // spaces
        {"\u2248", '~'}, {"\u223C", '~'},                                  // ≈ ∼
        {"\u2019", '\''},                                                   // ’ (Swiss 1’000)
    };
    std::string spaced;
    bool in_superscript = false;
    for (std::size_t i = 0; i < text.size();) {
        std::size_t length = 0;
        const int sup = superscript_at(text, i, length);
        if (sup >= 0) {
            if (!in_superscript) spaced += '^';
            in_superscript = true;
            spaced += sup < 10 ? static_cast<char>('0' + sup) : (sup == 10 ? '-' : '+');
            i += length;
            continue;
        }
        in_superscript = false;
        bool replaced = false;
        for (const auto& r : replacements) {
            const std::size_t n = std::strlen(r.from);
            if (text.substr(i, n) == r.from) {
                spaced += r.to;
                i += n;
                replaced = true;
                break;
            }
        }
        if (replaced) continue;
        const char c = text[i++];
        spaced += (c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') ? ' ' : c;
    }
    std::string out;
    for (const char c : spaced) {
        if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
        out += c;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

const char* const couldnt_group =
    "I couldn't read the digit grouping: put thousands separators every three digits "
    "(1,120,000 or 1 120 000) and use one decimal mark.";

// The digits of a number written with thousands separators and a decimal mark, rewritten as
// plain ASCII ("1120.5"). The rules are in docs/quiz.md, "Reading numbers".
struct Mantissa {
    std::string digits;
    bool has_alternative = false;
    std::string alternative;
};

class Reader {
public:
    explicit Reader(std::string_view text) : s_(text) {}

    Parsed run() {
        Parsed result;
        skip_approximately();
        double sign = 1.0;
        if (pos_ < s_.size() && (s_[pos_] == '-' || s_[pos_] == '+')) {
            if (s_[pos_] == '-') sign = -1.0;
            ++pos_;
            skip_space();
        }
        Mantissa mantissa;
        if (!read_mantissa(mantissa)) {
            result.error = error_.empty() ? not_a_number_message() : error_;
            return result;
        }
        long exponent = 0;
        bool caret_power = false;
        long caret_exponent = 0;
        // 3.6e25, 3.6E+25
        if (pos_ + 1 < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E') &&
            (is_digit(s_[pos_ + 1]) ||
             ((s_[pos_ + 1] == '-' || s_[pos_ + 1] == '+') && pos_ + 2 < s_.size() && is_digit(s_[pos_ + 2])))) {
            ++pos_;
            if (!read_exponent(exponent)) return fail(result);
        }
        // 10^25, 2^30, 10**25 (superscripts were rewritten as ^ by normalize)
        if (read_power_sign()) {
            if (!read_exponent(caret_exponent)) return fail(result);
            caret_power = true;
        }
        // 3.6 × 10^25, 3.6 x 10^25, 3.6*10**25
        if (!caret_power) {
            const std::size_t before = pos_;
            skip_space();
            if (pos_ < s_.size() && (s_[pos_] == '*' || s_[pos_] == 'x' || s_[pos_] == 'X')) {
                ++pos_;
                skip_space();
                if (s_.substr(pos_, 2) == "10" && (pos_ + 2 >= s_.size() || !is_digit(s_[pos_ + 2]))) {
                    pos_ += 2;
                    if (read_power_sign()) {
                        long times_ten = 0;
                        if (!read_exponent(times_ten)) return fail(result);
                        exponent += times_ten;
                    } else {
                        pos_ = before;
                    }
                } else {
                    pos_ = before;
                }
            } else {
                pos_ = before;
            }
        }
        skip_space();
        const double multiplier = read_multiplier_word();
        std::string rest = lowercase(trim(s_.substr(pos_)));
        while (!rest.empty() && rest.back() == '.') rest.pop_back();
        rest = std::string(trim(strip_per_parameter(rest)));
        for (const char c : rest) {
            if (is_digit(c)) {
                result.error = "Please give a single number (I found more than one).";
                return result;
            }
        }
        Unit unit;
        if (!find_unit(rest, unit)) {
            result.error = unknown_unit_message(rest);
            return result;
        }

        double value = 0.0, alternative = 0.0;
        if (!evaluate(mantissa.digits, exponent, caret_power, caret_exponent, value)) return fail(result);
        if (mantissa.has_alternative &&
            evaluate(mantissa.alternative, exponent, caret_power, caret_exponent, alternative)) {
            result.has_alternative = true;
        }
        const double scale = sign * multiplier * (rest.empty() ? 1.0 : unit.factor);
        value *= scale;
        alternative *= scale;
        if (!std::isfinite(value)) {
            result.error = "That number is too large to be an answer here.";
            return result;
        }
        result.has_alternative = result.has_alternative && std::isfinite(alternative);
        result.ok = true;
        result.value = value;
        result.alternative_value = result.has_alternative ? alternative : 0.0;
        result.has_unit = !rest.empty();
        result.kind = unit.kind;
        result.unit = unit;
        return result;
    }

private:
    Parsed& fail(Parsed& result) {
        result.ok = false;
        result.error = error_;
        return result;
    }

    void skip_space() {
        while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
    }

    // "~1 TB", "about 1 TB", "roughly 3e25": hedges are welcome, the number is what counts.
    void skip_approximately() {
        static const char* const hedges[] = {"approximately ", "approx. ", "approx ", "about ",
                                             "around ", "roughly ", "ca. ", "circa "};
        const std::string lower = lowercase(s_.substr(0, 16));
        if (pos_ < s_.size() && s_[pos_] == '~') {
            ++pos_;
            skip_space();
            return;
        }
        for (const char* hedge : hedges) {
            if (lower.compare(0, std::strlen(hedge), hedge) == 0) {
                pos_ = std::strlen(hedge);
                skip_space();
                return;
            }
        }
    }

    bool read_power_sign() {
        if (pos_ < s_.size() && s_[pos_] == '^') { ++pos_; return true; }
        if (s_.substr(pos_, 2) == "**") { pos_ += 2; return true; }
        return false;
    }

    bool read_exponent(long& out) {
        long sign = 1;
        if (pos_ < s_.size() && (s_[pos_] == '-' || s_[pos_] == '+')) {
            if (s_[pos_] == '-') sign = -1;
            ++pos_;
        }
        if (pos_ >= s_.size() || !is_digit(s_[pos_])) {
            error_ = "An exponent needs digits, as in 3.6e25 or 3.6 × 10^25.";
            return false;
        }
        long value = 0;
        while (pos_ < s_.size() && is_digit(s_[pos_])) {
            if (value <= max_exponent) value = value * 10 + (s_[pos_] - '0');
            ++pos_;
        }
        if (value > max_exponent) {
            error_ = sign > 0 ? "That number is too large to be an answer here."
                              : "That number is too small to be an answer here.";
            return false;
        }
        out = sign * value;
        return true;
    }

    std::string read_digits() {
        const std::size_t start = pos_;
        while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
        return std::string(s_.substr(start, pos_ - start));
    }

    std::size_t digit_run_length(std::size_t from) const {
        std::size_t end = from;
        while (end < s_.size() && is_digit(s_[end])) ++end;
        return end - from;
    }

    bool read_mantissa(Mantissa& out) {
        std::vector<std::string> runs;
        std::vector<char> separators;
        // ".5" and ",5": a leading decimal mark
        if (pos_ + 1 < s_.size() && (s_[pos_] == '.' || s_[pos_] == ',') && is_digit(s_[pos_ + 1])) {
            runs.emplace_back();
            separators.push_back(s_[pos_]);
            ++pos_;
        }
        runs.push_back(read_digits());
        if (runs.back().empty()) return false;
        while (pos_ + 1 < s_.size()) {
            const char c = s_[pos_];
            const bool separator = c == ',' || c == '.' || c == '\'' || c == '_' || c == ' ';
            if (!separator || !is_digit(s_[pos_ + 1])) break;
            // A space separates thousands only before a group of exactly three digits:
            // "16 384 GPUs" is one number, "2 3" is two.
            if (c == ' ' && digit_run_length(pos_ + 1) != 3) break;
            separators.push_back(c);
            ++pos_;
            runs.push_back(read_digits());
        }
        return interpret(runs, separators, out);
    }

    bool interpret(const std::vector<std::string>& runs, const std::vector<char>& separators, Mantissa& out) {
        const std::size_t n = separators.size();
        if (n == 0) {
            out.digits = runs[0];
            return true;
        }
        std::size_t dots = 0, commas = 0;
        for (const char c : separators) {
            if (c == '.') ++dots;
            if (c == ',') ++commas;
        }
        // Index of the separator that is the decimal mark; n when there is none.
        std::size_t decimal = n;
        bool ambiguous = false;
        if (runs[0].empty()) {
            if (n != 1) { error_ = couldnt_group; return false; }
            decimal = 0;
        } else if (dots > 0 && commas > 0) {
            // Both marks: the last one is the decimal mark ("1,120.5" and "1.120,5").
            const char last = separators.back();
            if ((last != '.' && last != ',') || (last == '.' ? dots : commas) != 1) {
                error_ = couldnt_group;
                return false;
            }
            decimal = n - 1;
        } else if (dots + commas == 1) {
            const char mark = dots ? '.' : ',';
            if (separators.back() != mark) { error_ = couldnt_group; return false; }
            const bool other_separators_before = n > 1;
            const bool looks_like_thousands = !other_separators_before && runs[1].size() == 3 &&
                                              runs[0].size() <= 3 && runs[0][0] != '0';
            if (mark == ',' && looks_like_thousands) {
                // "1,120": one thousand one hundred and twenty; 1.12 is the other reading.
                ambiguous = true;
            } else {
                // A single dot is a decimal point; so is a comma that cannot be thousands
                // ("0,5", "1,12", "1 120,5"). "1.120" could be 1120 in German: other reading.
                decimal = n - 1;
                ambiguous = mark == '.' && looks_like_thousands;
            }
        }
        // Every other separator groups thousands: one kind of character, groups of three.
        char thousands = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (i == decimal) continue;
            if (thousands == 0) thousands = separators[i];
            if (separators[i] != thousands || runs[i + 1].size() != 3) {
                error_ = couldnt_group;
                return false;
            }
        }
        if (thousands != 0 && (runs[0].empty() || runs[0].size() > 3)) {
            error_ = couldnt_group;
            return false;
        }
        for (std::size_t i = 0; i < runs.size(); ++i) {
            if (i > 0 && i - 1 == decimal) out.digits += '.';
            out.digits += runs[i];
        }
        if (ambiguous) {
            out.has_alternative = true;
            if (decimal == n) {
                out.alternative = runs[0] + "." + runs[1];
            } else {
                out.alternative = runs[0] + runs[1];
            }
        }
        return true;
    }

    // "16k GPUs", "2 trillion", "13 billion": words that scale the number, not units.
    double read_multiplier_word() {
        std::size_t end = pos_;
        while (end < s_.size() && is_letter(s_[end])) ++end;
        const std::string word = lowercase(s_.substr(pos_, end - pos_));
        struct Word { const char* spelling; double factor; };
        static const Word words[] = {{"k", 1e3},         {"thousand", 1e3}, {"million", 1e6},
                                     {"mn", 1e6},        {"billion", 1e9},  {"bn", 1e9},
                                     {"trillion", 1e12}, {"tn", 1e12},      {"quadrillion", 1e15}};
        for (const auto& w : words) {
            if (word == w.spelling) {
                pos_ = end;
                skip_space();
                return w.factor;
            }
        }
        return 1.0;
    }

    static std::string_view strip_per_parameter(std::string_view unit) {
        // "16 bytes per parameter", "16 B/param": the quiz asks per parameter already.
        static const char* const suffixes[] = {"per parameter", "per param", "per weight",
                                               "/parameter", "/param", "/weight"};
        for (const char* suffix : suffixes) {
            if (ends_with(unit, suffix)) return unit.substr(0, unit.size() - std::strlen(suffix));
        }
        return unit;
    }

    std::string not_a_number_message() const {
        const std::string lower = lowercase(s_.substr(pos_));
        if (lower.rfind("nan", 0) == 0 || lower.rfind("inf", 0) == 0 || lower.rfind("\u221E", 0) == 0)
            return "That is not a finite number: type digits, for example 1.1 TB.";
        return "That is not a number: type digits, for example 1.1 TB or 3.6e25.";
    }

    static std::string unknown_unit_message(const std::string& unit) {
        bool plain = unit.size() <= 16;
        for (const char c : unit) plain = plain && (is_letter(c) || c == '/' || c == ' ');
        std::string message = "I don't know the unit";
        if (plain) message += " \"" + unit + "\"";
        message += ". Try bytes, GB, TB, FLOPs, seconds, days, years, GPUs or %.";
        return message;
    }

    bool evaluate(const std::string& digits, long exponent, bool caret_power, long caret_exponent,
                  double& out) {
        if (caret_power && digits != "10") {
            // 2^30: a power of something other than ten.
            const double base = std::strtod(digits.c_str(), nullptr);
            const double power = std::pow(base, static_cast<double>(caret_exponent));
            char scale[16];
            std::snprintf(scale, sizeof scale, "1e%ld", exponent);
            out = power * std::strtod(scale, nullptr);
        } else {
            if (caret_power) exponent += caret_exponent;  // 10^25
            const std::string mantissa = caret_power ? std::string("1") : digits;
            if (exponent > max_exponent || exponent < -max_exponent) {
                error_ = exponent > 0 ? "That number is too large to be an answer here."
                                      : "That number is too small to be an answer here.";
                return false;
            }
            char suffix[16];
            std::snprintf(suffix, sizeof suffix, "e%ld", exponent);
            out = std::strtod((mantissa + suffix).c_str(), nullptr);
        }
        if (!std::isfinite(out)) {
            error_ = "That number is too large to be an answer here.";
            return false;
        }
        return true;
    }

    std::string_view s_;
    std::size_t pos_ = 0;
    std::string error_;
};

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
    {"x", UnitKind::number, 1.0, "\u00D7"}, {"*", UnitKind::number, 1.0, "\u00D7"},
    {"times", UnitKind::number, 1.0, "\u00D7"},
    {"b", UnitKind::memory, 1.0, "bytes"}, {"byte", UnitKind::memory, 1.0, "bytes"},
    {"bytes", UnitKind::memory, 1.0, "bytes"},
    {"kb", UnitKind::memory, 1e3, "KB"}, {"kilobyte", UnitKind::memory, 1e3, "KB"},
    {"kilobytes", UnitKind::memory, 1e3, "KB"},
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

Parsed parse(std::string_view text) {
    Parsed result;
    if (text.size() > max_answer_length) {
        result.error = "That is too long to be one number.";
        return result;
    }
    const std::string normalized = normalize(text);
    if (normalized.empty()) {
        result.error = "Type a number, for example 1.1 TB.";
        return result;
    }
    return Reader(normalized).run();
}

namespace {

std::string superscript(long exponent) {
    static const char* const digits[] = {"\u2070", "\u00B9", "\u00B2", "\u00B3", "\u2074",
                                         "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "%ld", exponent);
    std::string out;
    for (const char* c = buffer; *c; ++c) out += *c == '-' ? "\u207B" : digits[*c - '0'];
    return out;
}

// "1130.5" → "1,130.5"
std::string group_thousands(const std::string& plain) {
    std::size_t start = plain[0] == '-' ? 1 : 0;
    std::size_t end = plain.find('.');
    if (end == std::string::npos) end = plain.size();
    std::string out = plain.substr(0, start);
    for (std::size_t i = start; i < end; ++i) {
        out += plain[i];
        const std::size_t left = end - i - 1;
        if (left > 0 && left % 3 == 0) out += ',';
    }
    out += plain.substr(end);
    return out;
}

std::string trim_zeros(std::string text) {
    if (text.find('.') == std::string::npos) return text;
    while (!text.empty() && text.back() == '0') text.pop_back();
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
}

std::string scientific(double value, int significant_figures) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*e", significant_figures - 1, value);
    const char* e = std::strchr(buffer, 'e');
    if (!e) return buffer;
    const long exponent = std::strtol(e + 1, nullptr, 10);
    std::string mantissa = trim_zeros(std::string(buffer, static_cast<std::size_t>(e - buffer)));
    return mantissa + " \u00D7 10" + superscript(exponent);
}

}  // namespace

std::string format_significant(double value, int significant_figures) {
    if (!std::isfinite(value)) return "?";
    if (value == 0.0) return "0";
    const double magnitude = std::fabs(value);
    if (magnitude >= 1e15 || magnitude < 1e-3) return scientific(value, significant_figures);
    const int order = static_cast<int>(std::floor(std::log10(magnitude)));
    int decimals = significant_figures - 1 - order;
    if (decimals < 0) decimals = 0;
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    std::string plain(buffer);
    if (decimals == 0 && order >= significant_figures) {
        // Keep only the significant digits: 1234567 → 1,230,000.
        const double step = std::pow(10.0, order - significant_figures + 1);
        std::snprintf(buffer, sizeof buffer, "%.0f", std::round(value / step) * step);
        plain = buffer;
    }
    return group_thousands(trim_zeros(plain));
}

std::string format_count(double value) {
    if (!std::isfinite(value)) return "?";
    const double magnitude = std::fabs(value);
    struct Word { double size; const char* name; };
    static const Word words[] = {{1e12, " trillion"}, {1e9, " billion"}, {1e6, " million"}};
    if (magnitude >= 1e15) return format_significant(value);
    for (const auto& w : words) {
        if (magnitude >= w.size) return format_significant(value / w.size) + w.name;
    }
    if (value == std::round(value)) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.0f", value);
        return group_thousands(buffer);
    }
    return format_significant(value);
}

std::string format_in_unit(double base_value, const Unit& unit) {
    if (!std::isfinite(base_value)) return "?";
    const double value = base_value / unit.factor;
    if (unit.kind == UnitKind::compute && std::fabs(value) >= 1e6)
        return scientific(value, 3) + " " + unit.symbol;
    if (unit.kind == UnitKind::gpus && value == std::round(value) && value != 1.0)
        return format_count(value) + " " + unit.symbol;
    const std::string number = format_significant(value);
    if (unit.symbol.empty()) return number;
    if (number == "1" && unit.symbol.back() == 's' && unit.symbol.find('/') == std::string::npos) return "1 " + unit.symbol.substr(0, unit.symbol.size() - 1);
    if (unit.symbol == "%" || unit.symbol == "\u00D7") return number + unit.symbol;
    return number + " " + unit.symbol;
}

std::string format_auto(double base_value, UnitKind kind) {
    const double magnitude = std::fabs(base_value);
    const char* spelling = "";
    switch (kind) {
        case UnitKind::memory:
            spelling = magnitude >= 1e15 ? "PB" : magnitude >= 1e12 ? "TB" : magnitude >= 1e9 ? "GB"
                     : magnitude >= 1e6 ? "MB" : magnitude >= 1e3 ? "KB" : "bytes";
            break;
        case UnitKind::time:
            spelling = magnitude >= 2.0 * 31557600.0 ? "years" : magnitude >= 2.0 * 86400.0 ? "days"
                     : magnitude >= 2.0 * 3600.0 ? "hours" : magnitude >= 120.0 ? "minutes" : "seconds";
            break;
        case UnitKind::compute: spelling = "FLOPs"; break;
        case UnitKind::rate:
            spelling = magnitude >= 1e15 ? "PFLOP/s" : magnitude >= 1e12 ? "TFLOP/s" : "GFLOP/s";
            break;
        case UnitKind::gpus: spelling = "GPUs"; break;
        case UnitKind::percent: spelling = "%"; break;
        case UnitKind::number: return format_count(base_value);
    }
    Unit unit;
    find_unit(spelling, unit);
    return format_in_unit(base_value, unit);
}

}  // namespace trainscope::quantity
