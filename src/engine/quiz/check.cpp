// An item computed and checked as its learners will meet it (docs/quiz.md, "Checking a bank"): the
// widget's `quizValidateBank` and `quiz-check` run these same checks on the item as authored (seed
// 0); `quiz-check` also runs them for the seeds of an item that draws its numbers.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "engine/api/api.hpp"
#include "engine/quiz/internal.hpp"
#include "engine/text/json.hpp"
#include "engine/text/language.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope::quiz_detail {

namespace {

// A word of a sum: a number, an operator, or a unit or size word ("GB", "billion", "GPUs").
bool is_arithmetic_word(const std::string& word) {
    static const char* const operators[] = {"+", "-",      "\u2212", "\u00D7", "\u00F7", "/", "*",
                                            "=", "\u2248", "(",      ")",      ";",      ":"};
    std::string rest = word;
    bool trimmed = true;
    while (trimmed && !rest.empty()) {
        trimmed = false;
        for (const char* op : operators) {
            const std::size_t n = std::char_traits<char>::length(op);
            if (rest.size() >= n && rest.compare(rest.size() - n, n, op) == 0) {
                rest.erase(rest.size() - n);
                trimmed = true;
            }
            if (rest.size() >= n && rest.compare(0, n, op) == 0) {
                rest.erase(0, n);
                trimmed = true;
            }
        }
    }
    if (rest.empty() || rest.find_first_not_of("0123456789.,") == std::string::npos) return true;
    return quantity::parse("1 " + rest).ok;
}

// The text between a figure and the answer is the rest of a sum that ends in "= answer" or
// "≈ answer": numbers, operators and units only ("+ 86 GB =", "; 120 GB ÷ 64 =").
bool is_operator_text(const std::string& between) {
    std::size_t end = between.size();
    while (end > 0 && between[end - 1] == ' ') --end;
    const std::string tail = between.substr(0, end);
    auto ends_with = [&](const std::string& mark) {
        return tail.size() >= mark.size() && tail.compare(tail.size() - mark.size(), mark.size(), mark) == 0;
    };
    if (!ends_with("=") && !ends_with("\u2248")) return false;
    std::size_t start = 0;
    while (start < tail.size()) {
        std::size_t stop = tail.find(' ', start);
        if (stop == std::string::npos) stop = tail.size();
        if (stop > start && !is_arithmetic_word(tail.substr(start, stop - start))) return false;
        start = stop + 1;
    }
    return true;
}

// Whether the figure at `at` is a step of the arithmetic that ends in the answer, in the same
// sentence: "141 GB + 86 GB = 227 GB". A learner who typed 141 GB reads it as a part, not a verdict.
bool leads_to_answer(const std::string& text, std::size_t at, std::size_t length, const std::string& answer) {
    const std::size_t end = at + length;
    const std::size_t found = answer.empty() ? std::string::npos : text.find(answer, end);
    return found != std::string::npos && is_operator_text(text.substr(end, found - end));
}

// Whether the number that starts at `end` continues the figure before it: "1" is not in "1.05 GB"
// nor in "141 GB" (a count's figure has no unit to end it).
bool number_goes_on(const std::string& text, std::size_t end) {
    auto digit = [&](std::size_t at) { return at < text.size() && text[at] >= '0' && text[at] <= '9'; };
    return digit(end) || ((end < text.size() && (text[end] == '.' || text[end] == ',')) && digit(end + 1));
}

// Whether `text` shows `figure` as a figure of its own: "10²² FLOPs" is not in "3 × 10²² FLOPs",
// nor "2 bytes" in "12 bytes", nor "1" in "1.05 GB"; nor is a figure that leads to the answer by arithmetic.
bool shows_figure(const std::string& text, const std::string& figure, const std::string& answer) {
    for (std::size_t at = text.find(figure); at != std::string::npos; at = text.find(figure, at + 1)) {
        std::size_t before = at;
        while (before > 0 && text[before - 1] == ' ') --before;
        const bool glued =
            before < at ? text.compare(before >= 2 ? before - 2 : 0, before >= 2 ? 2 : before, "\u00D7") == 0 : false;
        const char previous = at > 0 ? text[at - 1] : ' ';
        if (glued || (previous >= '0' && previous <= '9') || previous == '.' || previous == ',') continue;
        if (number_goes_on(text, at + figure.size())) continue;
        if (leads_to_answer(text, at, figure.size(), answer)) continue;
        return true;
    }
    return false;
}

std::string shows_misconception(const std::string& shown, const std::string& id) {
    return message("quiz.check.explanation_shows_misconception",
                   "shows \"{shown}\", the value of misconception \"{misconception}\"; a learner who typed it would "
                   "read it as confirmation",
                   {{"shown", shown}, {"misconception", id}});
}

// A show-me that opens the step at a phase needs that phase in the simulation's step (a gather
// needs ZeRO-3, a recompute needs checkpointing).
void check_moment(const Instance& instance, std::vector<Problem>& errors) {
    if (instance.show.moment.empty() || instance.show.moment == "peak") return;
    const json::ParseResult step = json::parse(step_timeline_json(json::serialize(instance.simulation)));
    bool found = false;
    if (step.ok)
        if (const Value* events = step.value.find("events"))
            for (const Value& event : events->items)
                found = found || text_of(event.find("phase")) == instance.show.moment;
    if (!found)
        errors.push_back(
            {instance.label, "show.moment",
             message("quiz.check.moment_missing",
                     "the simulation's step has no \"{moment}\" event: change the simulation or the moment",
                     {{"moment", instance.show.moment}})});
}

// "Show me" loads the simulation: it must compute the very answer the question expects. A
// simulation that is the question's scenario does by construction, so only another one is checked.
void check_simulation(const Value& item, const Instance& instance, std::vector<Problem>& errors) {
    if (json::serialize(instance.simulation) == json::serialize(instance.scenario)) return;
    Value estimate;
    std::string error;
    if (!run_estimate(instance.simulation, estimate, error, instance.with_fit)) {
        errors.push_back(
            {instance.label, "simulation",
             message("quiz.instance.engine_refuses", "the engine refuses it: {error}", {{"error", error}})});
        return;
    }
    double shown = 0.0;
    if (!evaluate_sum(estimate, text_of(item.find("answer")->find("path")), shown, error)) return;
    if (std::fabs(shown - instance.expected) <= 1e-9 * std::fabs(instance.expected)) return;
    errors.push_back({instance.label, "simulation",
                      message("quiz.check.simulation_answers_other",
                              "computes {shown} for the answer, not {answer}: make the simulation the question's "
                              "scenario (or leave the fields it changes out)",
                              {{"shown", figure_text(instance, shown)}, {"answer", answer_text(instance)}})});
}

// The misconceptions whose value the explanation shows as a figure of its own (the figure, the id),
// and those graded correct, which can never be shown. A learner who typed a misconception's value
// must not find it in the explanation, where it would read as confirmation ("120 GB in all" for a
// per-GPU question).
struct MisconceptionsSeen {
    std::vector<std::pair<std::string, std::string>> shown;
    std::vector<std::string> hidden;
};

MisconceptionsSeen misconceptions_seen(const Value& item, Instance& instance) {
    MisconceptionsSeen seen;
    compute_misconceptions(item, instance);
    const std::string answer = answer_text(instance);
    for (const auto& m : instance.misconceptions) {
        if (!m.computed) continue;
        if (close_enough(instance, m.value, instance.expected)) {
            seen.hidden.push_back(m.id);
            continue;
        }
        // As the engine writes it, and in the answer's unit, as an author might ("0.14 TB").
        for (const std::string& figure :
             {figure_text(instance, m.value), quantity::format_in_unit(m.value, instance.unit)}) {
            if (!shows_figure(instance.explanation, figure, answer)) continue;
            seen.shown.emplace_back(figure, m.id);
            break;
        }
    }
    return seen;
}

void check_misconceptions(const Value& item, Instance& instance, ItemCheck& out) {
    const MisconceptionsSeen seen = misconceptions_seen(item, instance);
    for (const auto& p : instance.problems) out.errors.push_back(p);
    for (const auto& [figure, id] : seen.shown)
        out.errors.push_back({instance.label, "explanation", shows_misconception(figure, id)});
    for (const auto& id : seen.hidden)
        out.warnings.push_back(
            {instance.label, "misconceptions",
             message("quiz.check.misconception_hidden",
                     "\"{misconception}\" gives an answer that is graded correct, so it is never shown",
                     {{"misconception", id}})});
}

void check_numeric(const Value& item, Instance& instance, ItemCheck& out) {
    check_simulation(item, instance, out.errors);
    // A numeric item's explanation states the engine's answer, so that no other figure in it
    // (a part of the sum, a misconception's value) can be read as the answer.
    if (instance.explanation.find(answer_text(instance)) == std::string::npos)
        out.errors.push_back(
            {instance.label, "explanation",
             message("quiz.check.explanation_states_answer", "must state the answer \"{value}\" (write {answer})",
                     {{"value", answer_text(instance)}})});
    if (!grades_correct(item, instance, expected_display(instance)))
        out.errors.push_back(
            {instance.label, "answer",
             message("quiz.check.expected_not_correct", "the expected answer \"{expected}\" does not grade as correct",
                     {{"expected", expected_display(instance)}})});
    check_misconceptions(item, instance, out);
}

// One instance of a schema-valid item, every problem tagged with its seed.
void check_instance(const Value& item, std::uint32_t seed, ItemCheck& out) {
    Instance instance = build_instance(item, seed);
    out.instances += 1;
    ItemCheck found;
    found.errors = instance.problems;
    if (instance.ok()) {
        if (seed == 0) {
            Value unused;
            std::string error;
            if (!run_estimate(instance.simulation, unused, error))
                found.errors.push_back(
                    {instance.label, "simulation",
                     message("quiz.instance.engine_refuses", "the engine refuses it: {error}", {{"error", error}})});
            else
                check_moment(instance, found.errors);
            if (instance.numeric) check_show_holds_answer(item, instance.label, found.errors);
        }
        if (instance.numeric) check_numeric(item, instance, found);
    }
    for (Problem& p : found.errors) out.errors.push_back((p.seed = seed, p));
    for (Problem& p : found.warnings) out.warnings.push_back((p.seed = seed, p));
}

bool draws_numbers(const Value& item) {
    const Value* randomize = item.find("randomize");
    return is_numeric_kind(text_of(item.find("kind"))) && randomize && randomize->kind == Kind::array &&
           !randomize->items.empty();
}

}  // namespace

ItemCheck check_item(const Value& item, std::size_t index, int seeds) {
    ItemCheck out;
    std::vector<Problem> schema;
    validate_item(item, item_label(item, index), schema);
    if (!schema.empty()) return out;  // the schema's problems are reported by the bank
    check_instance(item, 0, out);
    // An item that draws nothing asks the same question for every seed: once is enough.
    if (!draws_numbers(item)) return out;
    for (int seed = 1; seed <= seeds; ++seed) {
        const std::size_t before = out.errors.size();
        check_instance(item, static_cast<std::uint32_t>(seed), out);
        if (out.errors.size() > before) break;  // one failing seed is enough to act on
    }
    return out;
}

// A translation checked as its learners meet it: the item built in the translation's language, with
// that language's numbers. Its placeholders are the original's (validated), so what is left to
// check is what the translator wrote around them and how the language writes the answer: the
// explanation must not show a misconception's value as a figure of its own, and the expected
// answer as this language writes it must read back as correct. Seed 0 only: the draws are the
// original's. The problems are the translation's, so the item stays usable.
void check_translations(const Value& item, std::size_t index, std::vector<Problem>& errors) {
    const Value* translations = item.find("translations");
    if (!translations || !translations->is_object()) return;
    const std::string label = item_label(item, index);
    std::vector<Problem> schema;
    validate_item(item, label, schema);
    if (!schema.empty() || !is_numeric_kind(text_of(item.find("kind")))) return;
    for (const auto& [tag, translation] : translations->members) {
        Language language = Language::en;
        if (!language_from_tag(tag, language) || tag != language_tag(language)) continue;
        // Found in the translation's language, reported in the caller's.
        MisconceptionsSeen seen;
        std::string expected_shown;
        bool reads_back = true;
        {
            LanguageScope scope(language);
            Instance instance = build_instance(item, 0);
            if (!instance.ok() || instance.translation != tag) continue;  // broken: reported elsewhere
            expected_shown = expected_display(instance);
            reads_back = grades_correct(item, instance, expected_shown);
            seen = misconceptions_seen(item, instance);
        }
        if (!reads_back)
            errors.push_back({label, "translations." + tag,
                              message("quiz.check.expected_not_correct",
                                      "the expected answer \"{expected}\" does not grade as correct",
                                      {{"expected", expected_shown}}),
                              0});
        for (const auto& [figure, id] : seen.shown)
            errors.push_back({label, "translations." + tag + ".explanation", shows_misconception(figure, id), 0});
    }
}

}  // namespace trainscope::quiz_detail
