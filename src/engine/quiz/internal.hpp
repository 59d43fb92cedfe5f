// Internals shared by the quiz's files, one job each: the item schema (schema.cpp), translations
// (translation.cpp), the page's figures (figures.cpp) and where show-me lands (show.cpp), the
// seed's draws (draw.cpp), one question computed for a seed (instance.cpp) with its texts filled
// in (placeholders.cpp), grading (grade.cpp), checking an item as learners meet it (check.cpp)
// and a whole bank (bank.cpp).
// Not part of the API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/text/json.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope::quiz_detail {

using json::Kind;
using json::Value;
using quantity::Unit;
using quantity::UnitKind;

struct Problem {
    std::string item;
    std::string field;
    std::string message;
    long long seed = -1;  // only for quiz_check_bank_json; -1: not tied to a seed
};

inline const char* const kind_single = "single_choice";
inline const char* const kind_multiple = "multiple_select";
inline const char* const kind_numeric = "numeric";
inline const char* const kind_estimate = "estimate";

// The two sets of a bank (docs/quiz.md, "Sets"): the lesson's questions, asked by default, and the
// deeper ones past it. An item without `set` is a lesson item, so a bank written before sets asks
// every question as it did.
inline const char* const set_lesson = "lesson";
inline const char* const set_deeper = "deeper";

inline bool is_choice_kind(const std::string& kind) { return kind == kind_single || kind == kind_multiple; }
inline bool is_numeric_kind(const std::string& kind) { return kind == kind_numeric || kind == kind_estimate; }

std::string text_of(const Value* value);
bool number_of(const Value* value, double& out);
Value object_value();
Value number_value(double x);
// Sets a dotted path in a JSON object, creating objects on the way ("model.params").
void set_path(Value& root, std::string_view path, const Value& value);
double power_of_ten(int exponent);

// Draws (draw.cpp): the item's randomised fields for `seed` into `scenario`, in order, each also
// listed in `drawn`; seed 0 leaves the scenario as authored.
void draw(const Value& item, std::uint32_t seed, Value& scenario, std::vector<std::pair<std::string, Value>>& drawn);
// Sets one drawn field; a drawn parameter count replaces the authored preset or architecture.
void set_drawn(Value& scenario, const std::string& path, const Value& value);

// Schema (schema.cpp)

// Reports every member of `object` not in `allowed` as a likely typo, under `prefix`.
void check_unknown_fields_in(const Value& object, const char* const* allowed, std::size_t allowed_count,
                             const std::string& item, const std::string& prefix, std::vector<Problem>& problems);
template <std::size_t N>
void check_unknown_fields(const Value& object, const char* const (&allowed)[N], const std::string& item,
                          const std::string& prefix, std::vector<Problem>& problems) {
    check_unknown_fields_in(object, allowed, N, item, prefix, problems);
}

// The page's figures (figures.cpp). A place "show me in the simulation" can land on: a section
// and one figure in it (the page's data-ts-section and data-figure names). `path` is the estimate
// field the figure draws, or null for a figure that is not one estimate number.
struct ShowTarget {
    const char* section;
    const char* figure;
    const char* path;
};
const ShowTarget* show_targets_begin();
const ShowTarget* show_targets_end();
const ShowTarget* find_show_target(const std::string& section, const std::string& figure);
// The first figure that draws the estimate field `path` exactly, or null when none does.
const ShowTarget* figure_drawing(const std::string& path);
// For a field no figure draws: the section that holds it and the figure it is part of.
struct FieldHome {
    const char* prefix;  // the fields whose path starts so
    const char* section;
    const char* figure;
};
const FieldHome& home_of(const std::string& path);

// Where an instance's show-me lands (show.cpp).
struct ShowPlace {
    std::string section, figure;
    std::string moment;         // the step section's playhead moment, or empty
    bool answer_drawn = false;  // a numeric item's figure shows the very answer; false: it holds it
};
// The item's `show` checked: a known section, figure and moment; for a numeric item (whose `show`
// may be left out) the place its answer is drawn or held.
void validate_show(const Value& item, const std::string& label, bool numeric, std::vector<Problem>& problems);
// A numeric item's own `show` lands where its answer is: on the figure that draws the answer's
// field when there is one, else in the section that holds it; the advice names the right place.
// Checked once the answer's path is known to name a number (check.cpp, seed 0).
void check_show_holds_answer(const Value& item, const std::string& label, std::vector<Problem>& problems);
// The item's `show`, or for a numeric item without one, the place derived from its answer's field.
ShowPlace show_place(const Value& item, bool numeric);

std::string item_label(const Value& item, std::size_t index);
bool valid_id(const std::string& id);
// The item's set: "deeper" when it says so, else "lesson" (absent or refused: the default).
std::string item_set(const Value& item);
void validate_item(const Value& item, const std::string& label, std::vector<Problem>& problems);

// Translations (docs/quiz.md, "Translations"). A translation's problems are kept apart from the
// item's: a broken translation is an error for the author, but the item still runs in its own
// language, so they never make the item unusable.
void validate_translations(const Value& item, const std::string& label, std::vector<Problem>& problems);
// The problems of one language's translation of the item ("de"); empty when it is usable.
void validate_translation(const Value& item, const std::string& label, const std::string& tag, const Value& translation,
                          std::vector<Problem>& problems);
// The tag of the item's translation for current_language() ("de") when it has one and it is
// usable; "" to ask the item in its own language.
std::string usable_translation(const Value& item);
// The problems of a takeaway's translations ({"de": "text"}), under the bank (item "").
void validate_takeaway_translations(const Value& takeaway, const std::string& field, std::vector<Problem>& problems);
// A takeaway's text in the current language: its usable translation, else its own.
std::string takeaway_text(const Value& takeaway);

// One question, computed (instance.cpp)
struct Misconception {
    std::string id;
    std::string feedback;
    double value = 0.0;
    bool computed = false;
};

struct Instance {
    std::vector<Problem> problems;
    std::string label, kind, takeaway;
    std::string set;  // "lesson" or "deeper" (item_set)
    std::string prompt, explanation;
    std::string translation;  // the language tag of the translation the texts come from; "": the item's own
    Value scenario, simulation, estimate;
    bool with_fit = false;  // the item names a number of the fit search: every estimate carries it
    ShowPlace show;         // where "show me" lands
    bool numeric = false;
    double expected = 0.0;
    Unit unit;
    std::string unit_spelling;
    double tolerance = 0.0;         // numeric: relative
    double tolerance_factor = 0.0;  // estimate: geometric
    std::vector<Misconception> misconceptions;
    bool ok() const { return problems.empty(); }
};

const Value* lookup(const Value& estimate, std::string_view path);
// The sum of the numbers an answer path names ("a.b + c.d"); false with the reason when one is not
// a number in the estimate.
bool evaluate_sum(const Value& estimate, const std::string& expression, double& out, std::string& error);
// The item's texts in the instance's language: prompt or explanation; an option's text or
// feedback; a misconception's feedback (placeholders not yet filled).
std::string item_text(const Value& item, const Instance& instance, const char* field);
std::string option_text(const Value& item, const Instance& instance, const Value& option, const char* field);
std::string misconception_feedback(const Value& item, const Instance& instance, const Value& misconception);
// The estimate of a scenario; with `with_fit` also the fit search's answer as its member "fit"
// (docs/quiz.md: an item that names "fit.…" anywhere, item_uses_fit).
bool run_estimate(const Value& scenario, Value& estimate, std::string& error, bool with_fit = false);
bool item_uses_fit(const Value& item);

// Placeholders (placeholders.cpp). What a text is filled from: the estimate (and the scenario in
// it), the expected answer for {answer} (numeric items' explanations; null elsewhere), and
// whether the text is the item's own (English, docs/quiz.md: its numbers are written in the
// widget's language and its "a" agrees with the number) or a translation's.
struct FillContext {
    const Value& estimate;
    const std::string* answer = nullptr;
    bool own_text = true;
};
// Replaces each {path} or {path|format}; unknown names are reported, not guessed.
std::string fill(const std::string& text, const FillContext& context, std::vector<std::string>& unknown);
// The numbers an English text writes ("16,384", "0.0001") as the current language writes them.
std::string localize_numbers(const std::string& english);
Instance build_instance(const Value& item, std::uint32_t seed);
// Misconceptions are computed only when grading a wrong answer (each may need its own estimate).
void compute_misconceptions(const Value& item, Instance& instance);
bool close_enough(const Instance& instance, double answer, double target);
std::string expected_display(const Instance& instance);
// The expected answer as {answer} fills it ("1.88 GB"; no "about"): in the answer's unit where
// that reads well, else in the unit a person would use ("256 GB", not "0.256 TB").
std::string answer_text(const Instance& instance);
// Any value of the answer's kind written as the answer is (a misconception's, a simulation's).
std::string figure_text(const Instance& instance, double value);
void write_problems(json::Writer& w, const std::vector<Problem>& problems);
// Whether `text` typed as the answer to a numeric instance grades as correct (grade.cpp).
bool grades_correct(const Value& item, const Instance& instance, const std::string& text);

// An item read from its JSON and instantiated for a seed, with every problem found on the way.
struct LoadedItem {
    json::ParseResult parsed;
    Instance instance;
    std::vector<Problem> problems;
    bool usable() const { return parsed.ok && problems.empty(); }
};

LoadedItem load_item(std::string_view item_json, std::uint32_t seed);

// Checking (check.cpp): the same for the widget's validation and quiz-check.
struct ItemCheck {
    std::vector<Problem> errors, warnings;
    double instances = 0;
};
// A schema-valid item as authored (seed 0) and, when it draws numbers, for seeds 1…seeds (stopping
// at the first seed that fails). A schema-invalid item gives nothing: its problems are the schema's.
ItemCheck check_item(const Value& item, std::size_t index, int seeds);
// A numeric item's translations, each built in its language (seed 0); problems named
// "translations.<tag>…", which leave the item usable.
void check_translations(const Value& item, std::size_t index, std::vector<Problem>& errors);

}  // namespace trainscope::quiz_detail
