// The reader: what a person typed ("1,120 GB", "70B", "3.6 × 10^25 FLOPs") into a value in base
// units. The rules are in docs/numbers.md; each has a test in tests/engine/quantity_test.cpp.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "engine/text/decimal.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"
#include "engine/text/quantity_text.hpp"

namespace trainscope::quantity {

using text::ends_with;
using text::is_digit;
using text::is_letter;
using text::is_non_ascii;
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
std::string too_large() { return message("quantity.too_large", "That number is too large to be an answer here."); }
std::string too_small() { return message("quantity.too_small", "That number is too small to be an answer here."); }
// Decimal exponents beyond this are far outside any quantity in the lesson (and beyond double).
constexpr long max_exponent = 400;

// Superscript digits, minus and plus (U+2070–U+207B, ¹²³ in Latin-1). Returns 0–9 for a digit,
// 10 for minus, 11 for plus, -1 for none; `length` is the UTF-8 byte count.
int superscript_at(std::string_view text, std::size_t i, std::size_t& length) {
    static const char* const forms[] = {"\u2070", "\u00B9", "\u00B2", "\u00B3", "\u2074", "\u2075",
                                        "\u2076", "\u2077", "\u2078", "\u2079", "\u207B", "\u207A"};
    for (int k = 0; k < 12; ++k) {
        const std::size_t n = std::strlen(forms[k]);
        if (text.substr(i, n) == forms[k]) {
            length = n;
            return k;
        }
    }
    return -1;
}

// Rewrites what a learner may type in Unicode as ASCII: minus signs, multiplication signs,
// non-breaking and thin spaces (thousands separators in French and SI style), superscript
// exponents (10²⁵ → 10^25), ≈. Whitespace runs collapse to one space; ends are trimmed.
std::string normalize(std::string_view text) {
    struct Replacement {
        const char* from;
        char to;
    };
    static const Replacement replacements[] = {
        {"\u2212", '-'},  {"\u2013", '-'}, {"\u2012", '-'},                   // minus sign, dashes
        {"\u00D7", '*'},  {"\u22C5", '*'}, {"\u00B7", '*'}, {"\u2715", '*'},  // × ⋅ · ✕
        {"\u00A0", ' '},  {"\u2009", ' '}, {"\u202F", ' '}, {"\u2007", ' '},  // spaces
        {"\u2248", '~'},  {"\u223C", '~'},                                    // ≈ ∼
        {"\u2019", '\''},                                                     // ’ (Swiss 1’000)
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

std::string couldnt_group() {
    return message("quantity.grouping",
                   "I couldn't read the digit grouping: put thousands separators every three digits "
                   "(1,120,000 or 1 120 000) and use one decimal mark.");
}

// The digits of a number written with thousands separators and a decimal mark, rewritten as
// plain ASCII ("1120.5"). The rules are in docs/quiz.md, "Reading numbers".
struct Mantissa {
    std::string digits;
    bool has_alternative = false;
    std::string alternative;
};

class Reader {
public:
    Reader(std::string_view text, bool count_letters, const std::string& example)
        : s_(text), count_letters_(count_letters), example_(example) {}

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
        Powers powers;
        if (!read_powers(powers, result)) return result.error.empty() ? fail(result) : result;
        skip_space();
        const double multiplier = read_multiplier_word();
        std::string rest;
        Unit unit;
        if (!read_unit(rest, unit, result)) return result;
        double value = 0.0, alternative = 0.0;
        if (!evaluate(mantissa.digits, powers.exponent, powers.caret, powers.caret_exponent, value))
            return fail(result);
        if (mantissa.has_alternative &&
            evaluate(mantissa.alternative, powers.exponent, powers.caret, powers.caret_exponent, alternative)) {
            result.has_alternative = true;
        }
        const double scale = sign * multiplier * (rest.empty() ? 1.0 : unit.factor);
        return finish(result, value * scale, alternative * scale, !rest.empty(), unit);
    }

private:
    struct Powers {
        long exponent = 0;   // 3.6e25, and × 10^25
        bool caret = false;  // 10^25, 2^30
        long caret_exponent = 0;
    };

    // The powers after the mantissa: 3.6e25, 3.6E+25, 10^25, 2^30, 10**25 (superscripts were
    // rewritten as ^ by normalize), 3.6 × 10^25. False when one is malformed (error_ or the
    // result's error says why).
    bool read_powers(Powers& powers, Parsed& result) {
        if (pos_ + 1 < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E') &&
            (is_digit(s_[pos_ + 1]) ||
             ((s_[pos_ + 1] == '-' || s_[pos_ + 1] == '+') && pos_ + 2 < s_.size() && is_digit(s_[pos_ + 2])))) {
            ++pos_;
            has_e_ = true;
            if (!read_exponent(powers.exponent)) return false;
        }
        if (read_power_sign()) {
            if (powers.exponent != 0 || has_e_) {
                // "1e5^2": does the power apply to 1 or to 1e5? Neither reading is safe to guess.
                result.error = message("quantity.one_power", "Write one power: 1e10 or 10^10, not 1e5^2.");
                return false;
            }
            if (!read_exponent(powers.caret_exponent)) return false;
            powers.caret = true;
            return true;
        }
        return read_times_ten(powers.exponent);
    }

    // " × 10^25", " x 10^25", "*10**25" after a mantissa; anything else is left for the unit.
    bool read_times_ten(long& exponent) {
        const std::size_t before = pos_;
        skip_space();
        if (pos_ < s_.size() && (s_[pos_] == '*' || s_[pos_] == 'x' || s_[pos_] == 'X')) {
            ++pos_;
            skip_space();
            if (s_.substr(pos_, 2) == "10" && (pos_ + 2 >= s_.size() || !is_digit(s_[pos_ + 2]))) {
                pos_ += 2;
                if (read_power_sign()) {
                    long times_ten = 0;
                    if (!read_exponent(times_ten)) return false;
                    exponent += times_ten;
                    return true;
                }
            }
        }
        pos_ = before;
        return true;
    }

    // What follows the number: a unit of the table, or nothing. False with the result's error set.
    bool read_unit(std::string& rest, Unit& unit, Parsed& result) {
        rest = lowercase(trim(s_.substr(pos_)));
        while (!rest.empty() && rest.back() == '.') rest.pop_back();
        rest = std::string(trim(strip_per_gpu(strip_per_parameter(rest))));
        for (const char c : rest) {
            if (is_digit(c)) {
                result.error =
                    message("quantity.more_than_one", "Please give a single number (I found more than one).");
                return false;
            }
        }
        if (!find_unit(rest, unit)) {
            result.error = unknown_unit_message(rest);
            return false;
        }
        return true;
    }

    Parsed finish(Parsed& result, double value, double alternative, bool has_unit, const Unit& unit) {
        if (!std::isfinite(value) || std::fabs(value) > largest_magnitude) {
            result.error = too_large();
            return result;
        }
        if (value != 0.0 && std::fabs(value) < smallest_magnitude) {
            result.error = too_small();
            return result;
        }
        result.has_alternative = result.has_alternative && std::isfinite(alternative);
        result.ok = true;
        result.value = value;
        result.alternative_value = result.has_alternative ? alternative : 0.0;
        result.has_unit = has_unit;
        result.kind = unit.kind;
        result.unit = unit;
        return result;
    }

    Parsed& fail(Parsed& result) {
        result.ok = false;
        result.error = error_;
        return result;
    }

    void skip_space() {
        while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
    }

    // "~1 TB", "about 1 TB", "etwa 1 TB", "unos 3e25": hedges are welcome, the number is what counts.
    void skip_approximately() {
        const std::string lower = lowercase(s_.substr(0, 20));
        if (pos_ < s_.size() && s_[pos_] == '~') {
            ++pos_;
            skip_space();
            return;
        }
        for (const Language language : {current_language(), Language::en}) {
            for (const char* hedge : words::hedges(language)) {
                if (lower.compare(0, std::strlen(hedge), hedge) == 0) {
                    pos_ = std::strlen(hedge);
                    skip_space();
                    return;
                }
            }
        }
    }

    bool read_power_sign() {
        if (pos_ < s_.size() && s_[pos_] == '^') {
            ++pos_;
            return true;
        }
        if (s_.substr(pos_, 2) == "**") {
            pos_ += 2;
            return true;
        }
        return false;
    }

    bool read_exponent(long& out) {
        long sign = 1;
        if (pos_ < s_.size() && (s_[pos_] == '-' || s_[pos_] == '+')) {
            if (s_[pos_] == '-') sign = -1;
            ++pos_;
        }
        if (pos_ >= s_.size() || !is_digit(s_[pos_])) {
            error_ = message("quantity.exponent_digits", "An exponent needs digits, as in 3.6e25 or 3.6 × 10^25.");
            return false;
        }
        long value = 0;
        while (pos_ < s_.size() && is_digit(s_[pos_])) {
            if (value <= max_exponent) value = value * 10 + (s_[pos_] - '0');
            ++pos_;
        }
        if (value > max_exponent) {
            error_ = sign > 0 ? too_large() : too_small();
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
            if (n != 1) {
                error_ = couldnt_group();
                return false;
            }
            decimal = 0;
        } else if (dots > 0 && commas > 0) {
            // Both marks: the last one is the decimal mark ("1,120.5" and "1.120,5").
            const char last = separators.back();
            if ((last != '.' && last != ',') || (last == '.' ? dots : commas) != 1) {
                error_ = couldnt_group();
                return false;
            }
            decimal = n - 1;
        } else if (dots + commas == 1) {
            const char mark = dots ? '.' : ',';
            if (separators.back() != mark) {
                error_ = couldnt_group();
                return false;
            }
            const bool other_separators_before = n > 1;
            const bool looks_like_thousands =
                !other_separators_before && runs[1].size() == 3 && runs[0].size() <= 3 && runs[0][0] != '0';
            // The language's thousands mark: ',' in English, '.' in German and Spanish.
            if (mark == words::writing().group_mark && looks_like_thousands) {
                // "1,120" (English), "1.120" (German): one thousand one hundred and twenty; 1.12
                // is the other reading.
                ambiguous = true;
            } else {
                // The language's decimal mark is a decimal mark; so is the other mark when it
                // cannot be thousands ("0,5", "1,12", "1 120,5" in English; "1.5" in German).
                // "1.120" in English could be 1120 the German way: the other reading.
                decimal = n - 1;
                ambiguous = looks_like_thousands;
            }
        }
        // Every other separator groups thousands: one kind of character, groups of three.
        char thousands = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (i == decimal) continue;
            if (thousands == 0) thousands = separators[i];
            if (separators[i] != thousands || runs[i + 1].size() != 3) {
                error_ = couldnt_group();
                return false;
            }
        }
        if (thousands != 0 && (runs[0].empty() || runs[0].size() > 3)) {
            error_ = couldnt_group();
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

    // "16k GPUs", "2 trillion", "13 Milliarden", "70 Mrd.", "13 mil millones": words that scale
    // the number, not units. A thousand may scale the next word: "mil millones" is 10⁹.
    double read_multiplier_word() {
        double factor = read_one_multiplier_word();
        if (factor == 1e3) factor *= read_one_multiplier_word();
        // Spanish counts with "de": "13.000 millones de GPU", "1 millón de años".
        if (factor != 1.0 && lowercase(s_.substr(pos_, 3)) == "de ") {
            pos_ += 3;
            skip_space();
        }
        return factor;
    }

    double read_one_multiplier_word() {
        std::size_t end = pos_;
        while (end < s_.size() && (is_letter(s_[end]) || is_non_ascii(s_[end]))) ++end;
        const std::string word = lowercase(s_.substr(pos_, end - pos_));
        double factor = word.empty() ? 0.0 : words::multiplier_word(word);
        // Where a count is asked for, "70B" is 70 billion (as model sizes are written); where
        // anything else is, B is bytes and M, T are prefixes of units.
        if (factor == 0.0 && count_letters_) {
            if (word == "m") factor = 1e6;
            if (word == "b") factor = 1e9;
            if (word == "t") factor = 1e12;
        }
        if (factor == 0.0) return 1.0;
        pos_ = end;
        // The abbreviation's point: "70 Mrd. GPUs", "2 Mio."
        if (pos_ < s_.size() && s_[pos_] == '.') ++pos_;
        skip_space();
        return factor;
    }

    static std::string_view strip_per_parameter(std::string_view unit) {
        // "16 bytes per parameter", "16 B/param", "16 Byte pro Parameter": the quiz asks per
        // parameter already.
        for (const Language language : {current_language(), Language::en}) {
            for (const char* suffix : words::per_parameter_suffixes(language)) {
                if (ends_with(unit, suffix)) return unit.substr(0, unit.size() - std::strlen(suffix));
            }
        }
        return unit;
    }

    // "3 sequences per GPU", "80 GB pro GPU": a question asked per GPU already; the count or
    // amount before it is the answer ("per GPU" alone leaves a plain number).
    static std::string_view strip_per_gpu(std::string_view unit) {
        static const char* const suffixes[] = {"per gpu", "pro gpu", "je gpu", "por gpu", "/gpu"};
        for (const char* suffix : suffixes)
            if (ends_with(unit, suffix)) return trim(unit.substr(0, unit.size() - std::strlen(suffix)));
        return unit;
    }

    std::string not_a_number_message() const {
        const std::string lower = lowercase(s_.substr(pos_));
        // "eight", "a million", "acht", "ocho": numbers in words get an answer too, not silence.
        for (const Language language : {current_language(), Language::en}) {
            for (const words::NumberWord& n : words::number_words(language)) {
                const std::size_t length = std::strlen(n.word);
                // "twenty-one" is not "twenty": a compound gets the plain message, not wrong digits.
                const bool whole_word =
                    n.word[length - 1] == ' ' || lower.size() == length ||
                    !(is_letter(lower[length]) || is_non_ascii(lower[length]) || lower[length] == '-');
                if (lower.compare(0, length, n.word) != 0 || !whole_word) continue;
                if (!n.digits)
                    return message("quantity.digits", "Please type the number in digits, for example 1000000 or 1e6.");
                return message("quantity.digits_for_word", "Please type the number in digits: {digits} for \"{word}\".",
                               {{"digits", n.digits}, {"word", n.word}});
            }
        }
        if (lower.rfind("nan", 0) == 0 || lower.rfind("inf", 0) == 0 || lower.rfind("\u221E", 0) == 0)
            return message("quantity.not_finite", "That is not a finite number: type digits, for example {example}.",
                           {{"example", example_}});
        return message("quantity.not_a_number", "That is not a number: type digits, for example {example}.",
                       {{"example", example_}});
    }

    static std::string unknown_unit_message(const std::string& unit) {
        // The learner's text is repeated only when it is a short run of letters: safe to show.
        bool plain = unit.size() <= 16;
        for (const char c : unit) plain = plain && (is_letter(c) || c == '/' || c == ' ');
        if (plain)
            return message("quantity.unknown_unit",
                           "I don't know the unit \"{unit}\". "
                           "Try bytes, GB, TB, FLOPs, seconds, days, years, GPUs or %.",
                           {{"unit", unit}});
        return message("quantity.unknown_unit_unnamed",
                       "I don't know the unit. Try bytes, GB, TB, FLOPs, seconds, days, years, GPUs or %.");
    }

    bool evaluate(const std::string& digits, long exponent, bool caret_power, long caret_exponent, double& out) {
        if (caret_power && digits != "10") {
            // 2^30: a power of something other than ten.
            const double base = read_decimal(digits);
            const double power = std::pow(base, static_cast<double>(caret_exponent));
            out = power * read_decimal("1e" + std::to_string(exponent));
        } else {
            if (caret_power) exponent += caret_exponent;  // 10^25
            const std::string mantissa = caret_power ? std::string("1") : digits;
            if (exponent > max_exponent || exponent < -max_exponent) {
                error_ = exponent > 0 ? too_large() : too_small();
                return false;
            }
            out = read_decimal(mantissa + "e" + std::to_string(exponent));
        }
        if (!std::isfinite(out)) {
            error_ = too_large();
            return false;
        }
        // Decimal text underflows to 0 without a word: 1e-400 is not zero, it is too small to use.
        if (out == 0.0 && digits.find_first_of("123456789") != std::string::npos) {
            error_ = too_small();
            return false;
        }
        return true;
    }

    std::string_view s_;
    bool count_letters_ = false;
    std::string example_;  // a typed answer of the kind asked for, for the messages
    bool has_e_ = false;
    std::size_t pos_ = 0;
    std::string error_;
};

}  // namespace

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Phrases a question's own words invite (issue 33): a half ("half a byte", "ein halbes Byte",
// "medio byte") and a span of magnitudes ("thousands of years", "Tausende Jahre", "miles de
// años"). A span is read as its geometric middle, 10^(k + ½): "thousands" runs from 10³ to 10⁴,
// a factor of ten, and √10 × 10³ ≈ 3,160 is a factor of √10 from either end. Each phrase ends
// where its noun begins; the digits use '.' (read as the decimal mark in every language: a
// run of fewer than three digits after it cannot be thousands).
struct PhraseDigits {
    const char* phrase;
    const char* digits;
};
const PhraseDigits english_phrases[] = {{"half a ", "0.5 "},          {"half an ", "0.5 "},
                                        {"a half ", "0.5 "},          {"one half ", "0.5 "},
                                        {"tens of ", "31.6 "},        {"hundreds of ", "316 "},
                                        {"thousands of ", "3.16e3 "}, {"millions of ", "3.16e6 "},
                                        {"billions of ", "3.16e9 "},  {"trillions of ", "3.16e12 "}};
const PhraseDigits german_phrases[] = {
    {"ein halbes ", "0.5 "},       {"eine halbe ", "0.5 "},   {"einen halben ", "0.5 "},
    {"halbes ", "0.5 "},           {"halbe ", "0.5 "},        {"halben ", "0.5 "},
    {"dutzende ", "31.6 "},        {"hunderte von ", "316 "}, {"hunderte ", "316 "},
    {"tausende von ", "3.16e3 "},  {"tausende ", "3.16e3 "},  {"millionen von ", "3.16e6 "},
    {"milliarden von ", "3.16e9 "}};
const PhraseDigits spanish_phrases[] = {{"medio ", "0.5 "},         {"media ", "0.5 "},
                                        {"decenas de ", "31.6 "},   {"cientos de ", "316 "},
                                        {"centenares de ", "316 "}, {"miles de millones de ", "3.16e9 "},
                                        {"miles de ", "3.16e3 "},   {"millones de ", "3.16e6 "}};

words::Span<PhraseDigits> phrases(Language language) {
    switch (language) {
        case Language::en:
            return {english_phrases, sizeof english_phrases / sizeof english_phrases[0]};
        case Language::de:
            return {german_phrases, sizeof german_phrases / sizeof german_phrases[0]};
        case Language::es:
            return {spanish_phrases, sizeof spanish_phrases / sizeof spanish_phrases[0]};
    }
    return {english_phrases, sizeof english_phrases / sizeof english_phrases[0]};
}

// The phrase at `start` of `lower` (the current language's, then English), with its digits; the
// text unchanged when none is there. A phrase alone ("half") is the number word's (below).
std::string with_phrase_as_digits(const std::string& normalized, const std::string& lower, std::size_t start) {
    const std::string spaced = lower + " ";
    for (const Language language : {current_language(), Language::en})
        for (const PhraseDigits& p : phrases(language)) {
            const std::size_t length = std::strlen(p.phrase);
            if (spaced.compare(start, length, p.phrase) != 0) continue;
            const std::size_t end = std::min(start + length, normalized.size());
            return normalized.substr(0, start) + p.digits + normalized.substr(end);
        }
    return normalized;
}

// "sixteen", "sechzehn bytes", "dieciséis días": a leading number word of the current language
// or English, with its digits, is read as those digits. A word that has none ("a", "ein") is left
// for the reader, which asks for digits.
std::string with_number_word_as_digits(const std::string& normalized) {
    const std::string lower = lowercase(normalized);
    // After a hedge ("about sixteen") as at the start.
    std::size_t start = 0;
    for (const Language language : {current_language(), Language::en})
        for (const char* hedge : words::hedges(language))
            if (start == 0 && lower.compare(0, std::strlen(hedge), hedge) == 0) start = std::strlen(hedge);
    while (start < lower.size() && lower[start] == ' ') ++start;
    const std::string phrased = with_phrase_as_digits(normalized, lower, start);
    if (phrased != normalized) return phrased;
    for (const Language language : {current_language(), Language::en}) {
        for (const words::NumberWord& n : words::number_words(language)) {
            const std::size_t length = std::strlen(n.word);
            if (!n.digits || lower.compare(start, length, n.word) != 0) continue;
            const std::size_t end = start + length;
            const bool whole_word =
                lower.size() == end || !(is_letter(lower[end]) || is_non_ascii(lower[end]) || lower[end] == '-');
            if (whole_word) return normalized.substr(0, start) + n.digits + normalized.substr(end);
        }
    }
    return normalized;
}

Parsed parse_text(std::string_view text, bool count_letters, const std::string& example) {
    Parsed result;
    while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
    if (text.size() > max_raw_length) {
        result.error = message("quantity.too_long", "That is too long to be one number.");
        return result;
    }
    const std::string normalized = normalize(text);
    if (normalized.size() > max_answer_length) {
        result.error = message("quantity.too_long", "That is too long to be one number.");
        return result;
    }
    if (normalized.empty()) {
        result.error = message("quantity.empty", "Type a number, for example {example}.", {{"example", example}});
        return result;
    }
    const std::string words_read = with_number_word_as_digits(normalized);
    return Reader(words_read, count_letters, example).run();
}

}  // namespace

std::string typing_example(UnitKind kind) {
    switch (kind) {
        case UnitKind::number:
            return format_count(70e9);
        case UnitKind::memory:
            return format(1.1e12, Figure::bytes);
        case UnitKind::compute:
            return localize_digits("3.6") + "e25 FLOPs";
        case UnitKind::rate:
            return format(989e12, Figure::flop_rate);
        case UnitKind::time:
            return format(68 * 86400.0, Figure::duration);
        case UnitKind::gpus:
            return format(16, Figure::gpus);
        case UnitKind::percent:
            return format(0.4, Figure::percent);
    }
    return format(1.1e12, Figure::bytes);
}

std::string typing_example(const Unit& unit) {
    // In the question's own unit where it has one of several sizes: "2.5 bytes", "2.5 GB", "2.5 days".
    if ((unit.kind == UnitKind::memory || unit.kind == UnitKind::time) && !unit.symbol.empty())
        return format_in_unit(2.5 * unit.factor, unit);
    return typing_example(unit.kind);
}

Parsed parse(std::string_view text) {
    // Of no known kind: examples of the two kinds learners type most.
    return parse_text(text, false, typing_example(UnitKind::memory) + " / " + localize_digits("3.6") + "e25");
}

Parsed parse(std::string_view text, UnitKind expected) {
    return parse_text(text, expected == UnitKind::number || expected == UnitKind::gpus, typing_example(expected));
}

Parsed parse(std::string_view text, const Unit& expected) {
    return parse_text(text, expected.kind == UnitKind::number || expected.kind == UnitKind::gpus,
                      typing_example(expected));
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
    const bool same_kind = parsed.kind == kind ||
                           (kind == UnitKind::gpus && parsed.kind == UnitKind::number && parsed.unit.symbol.empty());
    if (parsed.has_unit && !same_kind) {
        reading.error = message("quantity.wrong_kind", "That is {found}; this field takes {expected}.",
                                {{"found", unit_kind_phrase(parsed.kind)}, {"expected", unit_kind_phrase(kind)}});
        return reading;
    }
    const double value = parsed.has_unit ? parsed.value : parsed.value * base_unit(kind).factor;
    if (value != 0.0 && std::fabs(value) < smallest_magnitude) {
        reading.error = too_small();
        return reading;
    }
    reading.ok = true;
    reading.value = value;
    reading.display = format_auto(value, kind);
    return reading;
}

}  // namespace trainscope::quantity
