// An item's texts filled in (docs/quiz.md, "Placeholders"): each {path} written as what its field
// measures, in the current language, with the grammar around it kept right.
#include <cstring>
#include <string>
#include <vector>

#include "engine/quiz/internal.hpp"
#include "engine/text/language.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope::quiz_detail {

namespace {

using quantity::Figure;

// What an estimate or scenario field measures, by its path (docs/scenario.md): the first row whose
// test matches. A path nobody listed is a count ("13 billion", "16,384").
struct FieldFigure {
    const char* text;
    enum Match { leaf, prefix, contains } match;
    Figure figure;
};
const FieldFigure field_figures[] = {
    {"bytes_per_param", FieldFigure::contains, Figure::bytes},  // "16 bytes"
    {"min_gpus", FieldFigure::contains, Figure::count},
    {"utilization", FieldFigure::leaf, Figure::percent},
    {"mfu", FieldFigure::leaf, Figure::percent},
    {"recompute_overhead", FieldFigure::leaf, Figure::percent},
    {"peak_flops", FieldFigure::leaf, Figure::flop_rate},
    {"flops", FieldFigure::leaf, Figure::flops},
    {"hardware_flops", FieldFigure::leaf, Figure::flops},
    {"seconds", FieldFigure::contains, Figure::duration},
    {"energy_joules", FieldFigure::leaf, Figure::energy},
    {"cost", FieldFigure::leaf, Figure::money},
    // Memory: every part one GPU holds, the unsharded model states, running memory, activations.
    {"training.per_gpu.", FieldFigure::prefix, Figure::bytes},
    {"training.overhead.", FieldFigure::prefix, Figure::bytes},
    {"training.model_states.", FieldFigure::prefix, Figure::bytes},
    {"training.activations", FieldFigure::prefix, Figure::bytes},
    {"inference.weights", FieldFigure::prefix, Figure::bytes},
    {"inference.kv_cache", FieldFigure::prefix, Figure::bytes},
    {"inference.total", FieldFigure::prefix, Figure::bytes},
    {"step.peak", FieldFigure::prefix, Figure::bytes},
    // Fine-tuning (docs/model.md §15): the base as stored and the checkpoint a run saves.
    {"base_weights", FieldFigure::leaf, Figure::bytes},
    {"checkpoint_bytes", FieldFigure::leaf, Figure::bytes},
    {"memory_bytes", FieldFigure::leaf, Figure::bytes},
    {"peak_bytes", FieldFigure::leaf, Figure::bytes},
};

Figure figure_of_field(const std::string& path) {
    const std::size_t dot = path.rfind('.');
    const std::string leaf = dot == std::string::npos ? path : path.substr(dot + 1);
    for (const FieldFigure& row : field_figures) {
        const bool matches = row.match == FieldFigure::leaf     ? leaf == row.text
                             : row.match == FieldFigure::prefix ? path.compare(0, std::strlen(row.text), row.text) == 0
                                                                : path.find(row.text) != std::string::npos;
        if (matches) return row.figure;
    }
    return Figure::count;
}

// How a value is written: by an explicit format ("{x|TB}", "{x|count}") or, by default, by what the
// field measures.
std::string format_placeholder(const Value& value, const std::string& path, const std::string& format) {
    if (value.kind == Kind::string) return value.text;
    if (value.kind == Kind::boolean)
        return value.boolean ? message("quiz.value.yes", "yes") : message("quiz.value.no", "no");
    if (value.kind != Kind::number) return "?";
    if (format == "count") return quantity::format_count(value.number);
    Unit unit;
    if (!format.empty() && quantity::find_unit(format, unit)) return quantity::format_in_unit(value.number, unit);
    return quantity::format(value.number, figure_of_field(path));
}

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// English "a" before a number said with a vowel takes "an": an 8, an 11, an 18, an 80, an 83
// billion, an 8,192 (the first group of digits is what is said first).
bool said_with_a_vowel(const std::string& written) {
    std::size_t digits = 0;
    while (digits < written.size() && written[digits] >= '0' && written[digits] <= '9') ++digits;
    if (digits == 0) return false;
    const std::string group = written.substr(0, digits);
    return group[0] == '8' || group == "11" || group == "18";
}

// Whether `out` ends in the article "a"/"A" as a word of its own, followed by one space.
bool ends_in_article_a(const std::string& out) {
    const std::size_t n = out.size();
    if (n < 2 || out[n - 1] != ' ' || (out[n - 2] != 'a' && out[n - 2] != 'A')) return false;
    return n == 2 || !is_ascii_letter(out[n - 3]);
}

// Whether `text` starts with a letter a Spanish noun may start with: ASCII, or a Latin-1 letter
// in UTF-8 (á, é, ñ, …: 0xC3 then 0x80–0xBF), but not the signs that share that range, × and ÷,
// nor any other symbol ("≈", "→"), after which "6 × 406.000 millones × …" needs no "de".
bool starts_with_letter(const std::string& text) {
    if (text.empty()) return false;
    if (is_ascii_letter(text[0])) return true;
    if (text.size() < 2 || static_cast<unsigned char>(text[0]) != 0xC3) return false;
    const unsigned char second = static_cast<unsigned char>(text[1]);
    return second >= 0x80 && second <= 0xBF && second != 0x97 && second != 0xB7;
}

// Spanish puts "de" between a number that ends in a word and the noun it counts: "406.000
// millones de parámetros" (RAE, Nueva gramática §21.3). `rest` is the text after the placeholder.
bool needs_of(const std::string& written, const std::string& rest) {
    if (current_language() != Language::es || !quantity::ends_in_count_word(written)) return false;
    if (rest.size() < 2 || rest[0] != ' ' || !starts_with_letter(rest.substr(1, 2))) return false;
    return rest.compare(0, 4, " de ") != 0 && rest.compare(0, 4, " del") != 0;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// An English number with separators: "16,384", "1,120.5", "3.8", "0.0001" (never "1,12" or "1.2.3").
bool english_separated_number(const std::string& run) {
    const std::size_t point = run.find('.');
    if (point != std::string::npos && run.find('.', point + 1) != std::string::npos) return false;
    const std::string whole = run.substr(0, point);
    if (point != std::string::npos && run.find(',', point) != std::string::npos) return false;
    std::size_t group = 0;
    bool grouped = false;
    for (std::size_t i = 0; i < whole.size(); ++i) {
        if (whole[i] != ',') {
            ++group;
            continue;
        }
        if (grouped ? group != 3 : (group == 0 || group > 3)) return false;
        grouped = true;
        group = 0;
    }
    return !grouped || group == 3;
}

}  // namespace

std::string localize_numbers(const std::string& english) {
    if (current_language() == Language::en) return english;
    std::string out;
    std::size_t i = 0;
    while (i < english.size()) {
        const char previous = i > 0 ? english[i - 1] : ' ';
        if (!is_digit(english[i]) || is_digit(previous) || is_ascii_letter(previous) || previous == '.' ||
            previous == ',') {
            out += english[i++];
            continue;
        }
        // Versions and sections ("§3.3", "H100") are not quantities: only a run after a blank or a
        // bracket is rewritten, and only one with a separator English writes.
        std::size_t end = i;
        while (end < english.size() && (is_digit(english[end]) || english[end] == ',' || english[end] == '.')) ++end;
        while (end > i && !is_digit(english[end - 1])) --end;
        std::string run = english.substr(i, end - i);
        const bool after_section = i >= 2 && english.compare(i - 2, 2, "\u00A7") == 0;
        if (!after_section && run.find_first_of(".,") != std::string::npos && english_separated_number(run)) {
            std::string plain;
            for (const char c : run)
                if (c != ',') plain += c;
            run = quantity::localize_digits(plain);
        }
        out += run;
        i = end;
    }
    return out;
}

std::string fill(const std::string& text, const FillContext& context, std::vector<std::string>& unknown) {
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t open = text.find('{', i);
        if (open == std::string::npos) break;
        const std::size_t close = text.find('}', open);
        if (close == std::string::npos) break;
        out += context.own_text ? localize_numbers(text.substr(i, open - i)) : text.substr(i, open - i);
        const std::string inside = text.substr(open + 1, close - open - 1);
        const std::size_t bar = inside.find('|');
        const std::string path = inside.substr(0, bar);
        const std::string format = bar == std::string::npos ? std::string() : inside.substr(bar + 1);
        const Value* value = lookup(context.estimate, path);
        std::string written;
        if (path == "answer" && format.empty() && context.answer) {
            written = *context.answer;
        } else if (value &&
                   (value->kind == Kind::number || value->kind == Kind::string || value->kind == Kind::boolean)) {
            written = format_placeholder(*value, path, format);
        } else {
            unknown.push_back(path);
            written = text.substr(open, close - open + 1);
        }
        if (context.own_text && ends_in_article_a(out) && said_with_a_vowel(written)) out.insert(out.size() - 1, "n");
        out += written;
        if (needs_of(written, text.substr(close + 1))) out += " de";
        i = close + 1;
    }
    out += context.own_text ? localize_numbers(text.substr(i)) : text.substr(i);
    return out;
}

}  // namespace trainscope::quiz_detail
