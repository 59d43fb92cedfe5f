#include "engine/quiz/quiz.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "engine/api/api.hpp"
#include "engine/quiz/internal.hpp"
#include "engine/text/json.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {
namespace quiz_detail {

namespace {

// ---------------------------------------------------------------------------------------------
// Grading

struct Grade {
    std::string status = "invalid_item";
    bool counts_as_attempt = false;
    std::string message;
    std::string misconception;  // empty: null
    double answer_value = 0.0;
    bool has_answer_value = false;
    std::string answer_display;
};

// "Too high" and "too low" are whole sentences of their own: a language may place the words
// anywhere, and an adjective passed in as a value would not agree with its sentence.
std::string ratio_hint(double answer, double expected) {
    if (answer < 0.0 && expected > 0.0)
        return message("quiz.grade.negative", "Not quite: this amount cannot be negative.");
    if (!(answer > 0.0) || !(expected > 0.0)) return message("quiz.grade.not_quite", "Not quite.");
    const double ratio = answer > expected ? answer / expected : expected / answer;
    if (ratio >= 1000.0) {
        const std::string thousand = quantity::format_count(1000.0);
        return answer > expected ? message("quiz.grade.far_too_high",
                                           "Not quite: your answer is more than {thousand}× too high. Check the unit "
                                           "and the powers of ten.",
                                           {{"thousand", thousand}})
                                 : message("quiz.grade.far_too_low",
                                           "Not quite: your answer is more than {thousand}× too low. Check the unit "
                                           "and the powers of ten.",
                                           {{"thousand", thousand}});
    }
    const std::string factor = quantity::format_significant(ratio, 2);
    return answer > expected ? message("quiz.grade.too_high", "Not quite: your answer is about {factor}× too high.",
                                       {{"factor", factor}})
                             : message("quiz.grade.too_low", "Not quite: your answer is about {factor}× too low.",
                                       {{"factor", factor}});
}

// Slips that any numeric question can reveal, whatever its topic.
bool built_in_misconception(const Instance& instance, const quantity::Parsed& parsed, double value, Grade& grade) {
    const UnitKind kind = instance.unit.kind;
    // GB vs GiB: bytes divided by 2^30 and labelled GB (docs/model.md: some tools print GiB as "GB").
    if (kind == UnitKind::memory && parsed.has_unit && !parsed.unit.binary && parsed.unit.factor >= 1e3) {
        const double k = std::round(std::log10(parsed.unit.factor) / 3.0);
        const double binary_factor = std::exp2(10.0 * k);
        if (close_enough(instance, value * binary_factor / parsed.unit.factor, instance.expected)) {
            grade.misconception = "gib_vs_gb";
            grade.message = message("quiz.grade.gib_vs_gb",
                                    "Close, but that number is in binary units (1 GiB = 2^30 bytes) labelled with a "
                                    "decimal unit (1 GB = 10^9 bytes). Divide the bytes by 10^9 for GB, or write GiB.");
            return true;
        }
    }
    if (kind == UnitKind::memory && parsed.has_unit && parsed.unit.binary) {
        const double k = std::round(std::log2(parsed.unit.factor) / 10.0);
        const double decimal_factor = power_of_ten(static_cast<int>(3.0 * k));
        if (close_enough(instance, value * decimal_factor / parsed.unit.factor, instance.expected)) {
            grade.misconception = "gb_vs_gib";
            grade.message = message("quiz.grade.gb_vs_gib",
                                    "Close, but that number is in decimal units (GB = 10^9 bytes) labelled with a "
                                    "binary unit (GiB = 2^30 bytes). Write GB, or divide the bytes by 2^30.");
            return true;
        }
    }
    // A prefix slip: GB for TB, seconds for days and so on.
    if (parsed.has_unit && (kind == UnitKind::memory || kind == UnitKind::compute || kind == UnitKind::rate)) {
        for (const double step : {1e3, 1e6, 1e-3, 1e-6}) {
            if (close_enough(instance, value * step, instance.expected)) {
                grade.misconception = "unit_prefix";
                grade.message = message("quiz.grade.unit_prefix",
                                        "Your digits are right but the size is off by a factor of {factor}: check the "
                                        "unit prefix (k, M, G, T, P).",
                                        {{"factor", quantity::format_count(step >= 1.0 ? step : 1.0 / step)}});
                return true;
            }
        }
    }
    return false;
}

// Whether an answer says it is per parameter: "1.12 TB per parameter", "16 bytes/param"
// ("989 TFLOP/s" is a rate, not a share; the reader itself refuses "per GPU").
bool says_per_parameter(const std::string& text) {
    std::string lower;
    for (const char c : text) lower += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    for (std::size_t at = 0; at < lower.size(); ++at) {
        std::size_t word = std::string::npos;
        if (lower.compare(at, 4, "per ") == 0 && (at == 0 || lower[at - 1] == ' '))
            word = at + 4;
        else if (lower[at] == '/')
            word = at + 1;
        if (word == std::string::npos) continue;
        while (word < lower.size() && lower[word] == ' ') ++word;
        if (lower.compare(word, 5, "param") == 0 || lower.compare(word, 6, "weight") == 0) return true;
    }
    return false;
}

// Why a wrong answer is wrong, most telling first: a binary unit on decimal digits, the item's
// misconceptions, a missing unit, a fraction for a percentage, a built-in slip, else how far off.
void explain_wrong_answer(const Value& item, Instance& instance, const quantity::Parsed& parsed, double value,
                          Grade& grade) {
    const Unit& unit = instance.unit;
    // A binary unit written on decimal digits ("1.12 TiB" for 1.12 TB) explains the gap better
    // than any coincidence with an item's misconception, so it is checked first.
    if (parsed.has_unit && parsed.unit.binary && built_in_misconception(instance, parsed, value, grade)) return;
    compute_misconceptions(item, instance);
    for (const auto& m : instance.misconceptions) {
        if (m.computed && close_enough(instance, value, m.value)) {
            grade.misconception = m.id;
            grade.message = m.feedback;
            return;
        }
    }
    if (!parsed.has_unit && unit.kind != UnitKind::number && unit.kind != UnitKind::gpus) {
        // Right digits in another unit of the same kind: ask for the unit, don't count the attempt.
        static const char* const spellings[] = {"bytes", "KB",      "MB",      "GB",    "TB",
                                                "PB",    "seconds", "minutes", "hours", "days",
                                                "weeks", "months",  "years",   "FLOPs", "%"};
        for (const char* spelling : spellings) {
            Unit other;
            quantity::find_unit(spelling, other);
            if (other.kind != unit.kind || other.factor == unit.factor) continue;
            if (close_enough(instance, parsed.value * other.factor, instance.expected)) {
                grade.status = "wrong_unit";
                grade.counts_as_attempt = false;
                grade.misconception = "missing_unit";
                grade.message = message("quiz.grade.missing_unit",
                                        "Which unit? The question asks in {unit}, and a bare number is read in {unit}. "
                                        "Type the unit you used.",
                                        {{"unit", quantity::unit_name(instance.unit)}});
                return;
            }
        }
    }
    if (!parsed.has_unit && unit.kind == UnitKind::percent && close_enough(instance, parsed.value, instance.expected)) {
        grade.status = "wrong_unit";
        grade.counts_as_attempt = false;
        grade.misconception = "fraction_for_percent";
        grade.message = message("quiz.grade.fraction_for_percent",
                                "A bare number is read as a percentage here, so that is {reading}. If you meant a "
                                "fraction of one, write it as a percentage with %.",
                                {{"reading", grade.answer_display}});
        return;
    }
    if (built_in_misconception(instance, parsed, value, grade)) return;
    grade.message = ratio_hint(value, instance.expected);
}

Grade grade_numeric(const Value& item, Instance& instance, const Value& answer) {
    Grade grade;
    const Value* text = answer.find("text");
    if (!text || text->kind != Kind::string) {
        grade.status = "not_a_number";
        // An example of what the question asks for, in its unit and as the language writes numbers.
        grade.message = message("quiz.grade.type_an_answer", "Type an answer, for example {example}.",
                                {{"example", quantity::typing_example(instance.unit)}});
        return grade;
    }
    // Read as the question's kind: where a count is asked for, "70B" is 70 billion.
    const quantity::Parsed parsed = quantity::parse(text->text, instance.unit);
    if (!parsed.ok) {
        grade.status = "not_a_number";
        grade.message = parsed.error;
        return grade;
    }
    const Unit& unit = instance.unit;
    // An amount per parameter answers another question than a total does, even when its
    // digits match: ask which is meant instead of grading it.
    if (says_per_parameter(text->text) &&
        text_of(item.find("answer")->find("path")).find("per_param") == std::string::npos) {
        grade.status = "wrong_unit";
        grade.misconception = "per_parameter_for_total";
        grade.message = message("quiz.grade.per_parameter",
                                "That is an amount per parameter; the question asks for the total. Give the total, "
                                "without “per parameter”.");
        return grade;
    }
    // A bare number is read in the question's unit; "8x" and "8" are the same plain number.
    if (parsed.has_unit && parsed.kind != unit.kind) {
        grade.status = "wrong_unit";
        grade.message = message(
            "quiz.grade.wrong_kind", "That is {given}; the question asks for {asked}.",
            {{"given", quantity::unit_kind_phrase(parsed.kind)}, {"asked", quantity::unit_kind_phrase(unit.kind)}});
        return grade;
    }
    const double scale = parsed.has_unit ? 1.0 : unit.factor;
    const double value = parsed.value * scale;
    grade.has_answer_value = true;
    grade.answer_value = value;
    // Read back in the learner's own unit ("15.4 hours" stays hours); a bare number in the question's.
    const Unit& shown_unit = parsed.has_unit ? parsed.unit : unit;
    grade.answer_display = quantity::format_in_unit(value, shown_unit);
    grade.counts_as_attempt = true;
    if (close_enough(instance, value, instance.expected)) {
        grade.status = "correct";
        grade.message =
            message("quiz.grade.correct_numeric", "Correct: {expected}.", {{"expected", expected_display(instance)}});
        return grade;
    }
    if (parsed.has_alternative && close_enough(instance, parsed.alternative_value * scale, instance.expected)) {
        grade.status = "correct";
        grade.answer_value = parsed.alternative_value * scale;
        grade.answer_display = quantity::format_in_unit(grade.answer_value, shown_unit);
        grade.message =
            message("quiz.grade.correct_other_reading", "Correct: {expected} (I read your number as {reading}).",
                    {{"expected", expected_display(instance)}, {"reading", grade.answer_display}});
        return grade;
    }
    grade.status = "incorrect";
    explain_wrong_answer(item, instance, parsed, value, grade);
    return grade;
}

// The option ids the answer picks; `well_formed` turns false when it is not a list of known ids.
std::vector<std::string> selected_options(const Value* choices, const Value& options, bool& well_formed) {
    std::vector<std::string> selected;
    well_formed = choices && choices->kind == Kind::array;
    if (!well_formed) return selected;
    for (const auto& c : choices->items) {
        bool known = false;
        for (const auto& option : options.items)
            known = known || (c.kind == Kind::string && text_of(option.find("id")) == c.text);
        if (!known)
            well_formed = false;
        else
            selected.push_back(c.text);
    }
    return selected;
}

// The right options' texts, "; " between them: what the learner is told the answer was.
std::string right_options_text(const Value& item, const Instance& instance, const Value& options) {
    std::string text;
    for (const auto& option : options.items) {
        const Value* correct = option.find("correct");
        if (correct && correct->boolean) {
            if (!text.empty()) text += "; ";
            text += option_text(item, instance, option, "text");
        }
    }
    return text;
}

Grade grade_choice(const Value& item, const Instance& instance, const Value& answer, json::Writer& options_out,
                   std::string& expected_text) {
    Grade grade;
    const Value& options = *item.find("options");
    const bool single = text_of(item.find("kind")) == kind_single;
    bool well_formed = false;
    const std::vector<std::string> selected = selected_options(answer.find("choices"), options, well_formed);
    expected_text += right_options_text(item, instance, options);
    options_out.begin_array();
    if (!well_formed || selected.empty() || (single && selected.size() > 1)) {
        options_out.end_array();
        grade.status = "no_answer";
        grade.message = !well_formed       ? message("quiz.grade.unknown_option",
                                                     "That answer names an option this question does not have.")
                        : selected.empty() ? message("quiz.grade.pick_an_option", "Pick an option first.")
                                           : message("quiz.grade.pick_one_option", "Pick just one option.");
        return grade;
    }
    bool all_right = true;
    int missed = 0;
    std::string wrong_feedback;
    for (const auto& option : options.items) {
        const std::string id = text_of(option.find("id"));
        bool is_selected = false;
        for (const auto& s : selected) is_selected = is_selected || s == id;
        const bool is_correct = option.find("correct")->boolean;
        const std::string feedback = option_text(item, instance, option, "feedback");
        options_out.begin_object();
        options_out.field("id", id).field_bool("selected", is_selected).field_bool("correct", is_correct);
        options_out.field("feedback", feedback);
        options_out.end_object();
        if (is_selected != is_correct) {
            all_right = false;
            if (grade.misconception.empty() && is_selected && option.find("misconception"))
                grade.misconception = text_of(option.find("misconception"));
            if (is_selected) {
                // Feedback on what was picked; missed options are only counted, so a retry
                // still asks the learner to think (the options array tells all, for afterwards).
                if (!wrong_feedback.empty()) wrong_feedback += " ";
                // The option is named in the language's quotation marks („…“ in German).
                wrong_feedback +=
                    single ? feedback
                           : message("quiz.grade.option_feedback", "“{option}”: {feedback}",
                                     {{"option", option_text(item, instance, option, "text")}, {"feedback", feedback}});
            } else {
                ++missed;
            }
        } else if (single && is_selected) {
            grade.message = feedback;
        }
    }
    options_out.end_array();
    grade.counts_as_attempt = true;
    grade.status = all_right ? "correct" : "incorrect";
    if (all_right)
        grade.message = single
                            ? message("quiz.grade.correct_choice", "Correct: {feedback}", {{"feedback", grade.message}})
                            : message("quiz.grade.correct_all_options", "Correct: you found every right option.");
    else
        grade.message = wrong_feedback;
    if (!all_right && !single && missed > 0) {
        if (!grade.message.empty()) grade.message += " ";
        grade.message += missed == 1
                             ? message("quiz.grade.missed_one", "One right option is still unselected.")
                             : message("quiz.grade.missed_several", "{count} right options are still unselected.",
                                       {{"count", quantity::format_count(missed)}});
    }
    return grade;
}

}  // namespace

bool grades_correct(const Value& item, const Instance& instance, const std::string& text) {
    Instance copy = instance;  // grading may compute the misconceptions into it
    Value answer = object_value();
    Value typed;
    typed.kind = Kind::string;
    typed.text = text;
    answer.members.emplace_back("text", typed);
    return grade_numeric(item, copy, answer).status == "correct";
}

}  // namespace quiz_detail

using namespace quiz_detail;

std::string quiz_grade_json(std::string_view item_json, std::uint32_t seed, std::string_view answer_json) {
    LoadedItem loaded = load_item(item_json, seed);
    const json::ParseResult& parsed = loaded.parsed;
    Instance& instance = loaded.instance;
    const std::vector<Problem>& problems = loaded.problems;
    Grade grade;
    json::Writer options;
    std::string expected_text;
    const bool usable = loaded.usable();
    if (!usable) {
        grade.message = problems.empty()
                            ? message("quiz.grade.broken_unknown", "This question is broken: unknown problem")
                            : message("quiz.grade.broken", "This question is broken: {field} {problem}",
                                      {{"field", problems.front().field}, {"problem", problems.front().message}});
        options.begin_array().end_array();
    } else {
        const json::ParseResult answer = json::parse(answer_json);
        const Value empty = object_value();
        const Value& answer_value = answer.ok && answer.value.is_object() ? answer.value : empty;
        if (instance.numeric) {
            grade = grade_numeric(parsed.value, instance, answer_value);
            options.begin_array().end_array();
            expected_text = expected_display(instance);
        } else {
            grade = grade_choice(parsed.value, instance, answer_value, options, expected_text);
        }
    }
    json::Writer w;
    w.begin_object();
    w.field("status", grade.status).field_bool("counts_as_attempt", grade.counts_as_attempt);
    w.field("message", grade.message);
    w.key("misconception");
    if (grade.misconception.empty())
        w.null();
    else
        w.string(grade.misconception);
    w.key("expected");
    if (usable && instance.numeric)
        w.number(instance.expected);
    else
        w.null();
    w.field("expected_display", expected_text);
    w.key("answer_value");
    if (grade.has_answer_value)
        w.number(grade.answer_value);
    else
        w.null();
    w.field("answer_display", grade.answer_display);
    w.field("explanation", usable ? instance.explanation : std::string());
    w.key("options").raw(options.text());
    w.key("errors");
    write_problems(w, problems);
    w.end_object();
    return w.take();
}

namespace {

std::string read_quantity_json(const quantity::Parsed& parsed) {
    json::Writer w;
    w.begin_object();
    w.field_bool("ok", parsed.ok);
    w.key("value");
    if (parsed.ok)
        w.number(parsed.value);
    else
        w.null();
    w.field("unit_kind", parsed.ok ? quantity::unit_kind_name(parsed.kind) : "");
    w.field_bool("has_unit", parsed.ok && parsed.has_unit);
    w.field("display", parsed.ok ? (parsed.has_unit ? quantity::format_in_unit(parsed.value, parsed.unit)
                                                    : quantity::format_significant(parsed.value))
                                 : std::string());
    w.field("error", parsed.error);
    w.end_object();
    return w.take();
}

}  // namespace

std::string quiz_read_quantity_json(std::string_view text) { return read_quantity_json(quantity::parse(text)); }

std::string quiz_read_quantity_json(std::string_view text, std::string_view unit) {
    Unit asked;
    if (!quantity::find_unit(unit, asked)) return quiz_read_quantity_json(text);
    return read_quantity_json(quantity::parse(text, asked));
}

}  // namespace trainscope
