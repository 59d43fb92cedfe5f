// Small text helpers shared by the quantity reader, unit table and formatter, and the words each
// language writes and reads numbers with (the tables are in quantity_units.cpp). Locale-free on
// purpose: <cctype> and the C locale differ between hosts, and the wasm module has none.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "engine/text/language.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope::quantity::text {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// A byte of a UTF-8 sequence: part of a letter such as "ñ" or "ä" in a unit word ("años", "Mrd").
inline bool is_non_ascii(char c) { return static_cast<unsigned char>(c) >= 0x80; }
inline char to_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// ASCII and the Latin-1 capitals (À–Þ, in UTF-8 C3 80–C3 9E, but not × at C3 97) lowered, so
// that "DÍAS", "AÑOS" and "MILLÓN" find their words.
inline std::string lowercase(std::string_view text) {
    std::string out(text);
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i] = to_lower(out[i]);
        if (static_cast<unsigned char>(out[i]) == 0xC3 && i + 1 < out.size()) {
            const unsigned char next = static_cast<unsigned char>(out[i + 1]);
            if (next >= 0x80 && next <= 0x9E && next != 0x97) out[i + 1] = static_cast<char>(next + 0x20);
            ++i;
        }
    }
    return out;
}

inline std::string_view trim(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    return text;
}

inline bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace trainscope::quantity::text

namespace trainscope::quantity::words {

// A noun's two forms: "Tag"/"Tage", "día"/"días", "GPU"/"GPUs". The singular is for exactly one.
struct Noun {
    const char* one;
    const char* other;
};

// A large number's word: from `size` on, the value is written in units of `size` followed by
// the word ("13 Milliarden", "1,23 Mio.").
struct ScaleWord {
    double size;
    Noun word;
};

// A span of a table: the tables differ in length from language to language.
template <typename T>
struct Span {
    const T* items = nullptr;
    std::size_t count = 0;
    const T* begin() const { return items; }
    const T* end() const { return items + count; }
};

// How a language writes numbers, after CLDR (unicode.org/cldr, "numbers" and "units" of en, de, es).
struct Writing {
    char decimal_mark;  // '.' or ','
    char group_mark;    // ',' or '.'
    // CLDR's minimumGroupingDigits: the integer part is grouped from 3 + this many digits on.
    // English and German group 1,638 / 1.638; Spanish writes 1638 but 16.384.
    int minimum_grouping_digits;
    const char* percent_sign;     // "%" or "\u00A0%" (CLDR de and es: "40 %")
    Span<ScaleWord> count_words;  // long: "13 billion", "13 Milliarden", "13.000 millones"; largest first
    Span<ScaleWord> short_words;  // where a word does not fit: "70.6B", "70,6 Mrd.", "70,6 mil M"
    const char* short_space;      // between the number and a short word: "" or a no-break space
    // Between a number ending in a word and the noun it counts: Spanish "13.000 millones de GPU".
    const char* of;
    Noun second, minute, hour, day, week, month, year, byte, gpu;
    // What a count slider counts, for its spoken value ("1 sequence", "8 Sequenzen").
    Noun sequence, token, parameter;
    // Money in US dollars: prefix + number + suffix ("$1,234", "1.234 $", "1234 US$").
    const char* money_prefix;
    const char* money_suffix;
    Span<ScaleWord> money_words;  // "$1.23 million", "1,23 Mio. $", "1,23 M US$"
    const char* money_space;      // between the number and a money word
};

const Writing& writing(Language language);
inline const Writing& writing() { return writing(current_language()); }

// The noun a unit symbol of the unit table names ("days" → Tag/Tage), or null for a symbol that
// stays as written in every language ("TB", "FLOPs", "%").
const Noun* noun_for_symbol(const Writing& writing, std::string_view symbol);

// A word that multiplies the number before it ("thousand", "Milliarden", "millones", "Mrd"), as
// written lower-case. The current language's words come first (German "Billion" is 10¹², the
// English "billion" 10⁹), then English's. 0 when the word is none.
double multiplier_word(std::string_view lower_word);

// Hedges before a number ("about ", "etwa ", "unos "), suffixes after a unit ("per parameter",
// "pro Parameter") and number words ("eight" → "8"), of the current language and English.
struct NumberWord {
    const char* word;
    const char* digits;  // as that language writes them; null: "type the number in digits"
};
Span<const char*> hedges(Language language);
Span<const char*> per_parameter_suffixes(Language language);
Span<NumberWord> number_words(Language language);

}  // namespace trainscope::quantity::words
