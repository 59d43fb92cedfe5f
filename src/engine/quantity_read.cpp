// The reader: what a person typed ("1,120 GB", "70B", "3.6 × 10^25 FLOPs") into a value in base
// units. The rules are in docs/numbers.md; each has a test in tests/engine/quantity_test.cpp.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "engine/decimal.hpp"
#include "engine/quantity.hpp"
#include "engine/quantity_text.hpp"

namespace trainscope::quantity {

using text::ends_with;
using text::is_digit;
using text::is_letter;
using text::lowercase;
using text::to_lower;
using text::trim;

namespace {

// Longer input is not a number anyone typed by hand; refusing it keeps every step cheap. The
// limit applies after spaces are trimmed and collapsed, so trailing blanks never count; the raw
// limit only bounds the work of trimming.
constexpr std::size_t max_answer_length = 200;
constexpr std::size_t max_raw_length = 100000;
// Magnitudes beyond these are far outside any quantity in the lesson. Both ends give a message:
// 1e-400 must not silently become 0 (double underflow) when 2^-1074 is "too small".
constexpr double smallest_magnitude = 1e-300;
constexpr double largest_magnitude = 1e300;
const char* const too_large = "That number is too large to be an answer here.";
const char* const too_small = "That number is too small to be an answer here.";
// Decimal exponents beyond this are far outside any quantity in the lesson (and beyond double).
constexpr long max_exponent = 400;


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
    Reader(std::string_view text, bool count_letters) : s_(text), count_letters_(count_letters) {}

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
            has_e_ = true;
            if (!read_exponent(exponent)) return fail(result);
        }
        // 10^25, 2^30, 10**25 (superscripts were rewritten as ^ by normalize)
        if (read_power_sign()) {
            if (exponent != 0 || has_e_) {
                // "1e5^2": does the power apply to 1 or to 1e5? Neither reading is safe to guess.
                result.error = "Write one power: 1e10 or 10^10, not 1e5^2.";
                return result;
            }
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
        if (!std::isfinite(value) || std::fabs(value) > largest_magnitude) {
            result.error = too_large;
            return result;
        }
        if (value != 0.0 && std::fabs(value) < smallest_magnitude) {
            result.error = too_small;
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
            error_ = sign > 0 ? too_large : too_small;
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
        // Where a count is asked for, "70B" is 70 billion (as model sizes are written); where
        // anything else is, B is bytes and M, T are prefixes of units.
        static const Word count_letters[] = {{"m", 1e6}, {"b", 1e9}, {"t", 1e12}};
        for (const auto& w : words) {
            if (word == w.spelling) {
                pos_ = end;
                skip_space();
                return w.factor;
            }
        }
        if (count_letters_) {
            for (const auto& w : count_letters) {
                if (word == w.spelling) {
                    pos_ = end;
                    skip_space();
                    return w.factor;
                }
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
        // "eight", "a million": numbers in words get an answer too, not silence.
        struct NumberWord { const char* word; const char* digits; };
        static const NumberWord number_words[] = {
            {"zero", "0"},      {"one", "1"},        {"two", "2"},         {"three", "3"},      {"four", "4"},
            {"five", "5"},      {"six", "6"},        {"seven", "7"},       {"eight", "8"},      {"nine", "9"},
            {"ten", "10"},      {"eleven", "11"},    {"twelve", "12"},     {"twenty", "20"},    {"thirty", "30"},
            {"forty", "40"},    {"fifty", "50"},     {"sixty", "60"},      {"seventy", "70"},   {"eighty", "80"},
            {"ninety", "90"},   {"hundred", "100"},  {"thousand", "1000"}, {"million", "1e6"},  {"billion", "1e9"},
            {"trillion", "1e12"}, {"a ", nullptr},   {"an ", nullptr},     {"half", "0.5"}};
        for (const auto& n : number_words) {
            const std::size_t length = std::strlen(n.word);
            const bool whole_word = n.word[length - 1] == ' ' || lower.size() == length || !is_letter(lower[length]);
            if (lower.compare(0, length, n.word) != 0 || !whole_word) continue;
            if (!n.digits) return "Please type the number in digits, for example 1000000 or 1e6.";
            return "Please type the number in digits: " + std::string(n.digits) + " for \"" + n.word + "\".";
        }
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
            const double base = read_decimal(digits);
            const double power = std::pow(base, static_cast<double>(caret_exponent));
            out = power * read_decimal("1e" + std::to_string(exponent));
        } else {
            if (caret_power) exponent += caret_exponent;  // 10^25
            const std::string mantissa = caret_power ? std::string("1") : digits;
            if (exponent > max_exponent || exponent < -max_exponent) {
                error_ = exponent > 0 ? too_large : too_small;
                return false;
            }
            out = read_decimal(mantissa + "e" + std::to_string(exponent));
        }
        if (!std::isfinite(out)) {
            error_ = too_large;
            return false;
        }
        // Decimal text underflows to 0 without a word: 1e-400 is not zero, it is too small to use.
        if (out == 0.0 && digits.find_first_of("123456789") != std::string::npos) {
            error_ = too_small;
            return false;
        }
        return true;
    }

    std::string_view s_;
    bool count_letters_ = false;
    bool has_e_ = false;
    std::size_t pos_ = 0;
    std::string error_;
};

}  // namespace

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

Parsed parse_text(std::string_view text, bool count_letters) {
    Parsed result;
    while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
    if (text.size() > max_raw_length) {
        result.error = "That is too long to be one number.";
        return result;
    }
    const std::string normalized = normalize(text);
    if (normalized.size() > max_answer_length) {
        result.error = "That is too long to be one number.";
        return result;
    }
    if (normalized.empty()) {
        result.error = "Type a number, for example 1.1 TB.";
        return result;
    }
    return Reader(normalized, count_letters).run();
}

}  // namespace

Parsed parse(std::string_view text) { return parse_text(text, false); }

Parsed parse(std::string_view text, UnitKind expected) {
    return parse_text(text, expected == UnitKind::number || expected == UnitKind::gpus);
}

Reading read_quantity(std::string_view text, UnitKind kind) {
    Reading reading;
    reading.kind = kind;
    const Parsed parsed = parse(text, kind);
    if (!parsed.ok) {
        reading.error = parsed.error;
        return reading;
    }
    // GPUs are a count: "16 GPUs" and "16" are the same field value.
    const bool same_kind = parsed.kind == kind || (kind == UnitKind::gpus && parsed.kind == UnitKind::number &&
                                                   parsed.unit.symbol.empty());
    if (parsed.has_unit && !same_kind) {
        reading.error = std::string("That is ") + unit_kind_phrase(parsed.kind) + "; this field takes " +
                        unit_kind_phrase(kind) + ".";
        return reading;
    }
    const double value = parsed.has_unit ? parsed.value : parsed.value * base_unit(kind).factor;
    if (value != 0.0 && std::fabs(value) < smallest_magnitude) {
        reading.error = too_small;
        return reading;
    }
    reading.ok = true;
    reading.value = value;
    reading.display = format_auto(value, kind);
    return reading;
}

}  // namespace trainscope::quantity
