// "Check your understanding": quiz items are data (web/quiz/bank.json, schema in docs/quiz.md);
// the engine draws an item's numbers from a seed, computes the expected answer with
// estimate_json, and grades what the learner typed. JSON text in, JSON text out; never throws.
// Everything is written in current_language(): an item's texts from its translation for that
// language when it has a usable one (docs/quiz.md, "Translations"), else its own; the engine's own
// sentences through message() (keys quiz.*); numbers by quantity::format.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace trainscope {

// One question, ready to ask: the item's scenario with its randomised fields drawn from `seed`
// (seed 0: the values as authored), the prompt with its {placeholders} filled, and for numeric
// items the expected answer. Returns
//   {id, kind, takeaway, set, seed, prompt, translation, options:[{id,text}], scenario, simulation, show,
//    expected, expected_display, unit, unit_kind, tolerance, tolerance_factor, errors:[{item,field,message}]}
// `show` is {section, figure, moment?, answer_drawn}: the item's own, or for a numeric item without
// one, where its answer's field is drawn; `answer_drawn` (numeric items) is false when the figure
// only holds the answer (the KV cache is part of the running total), for the page to name the part.
// `set` is the item's set, "lesson" (also when it names none) or "deeper" (docs/quiz.md, "Sets").
// `translation` is the tag of the translation the texts come from ("de"), or null for the item's
// own. `errors` is empty when the item is usable (a broken translation is not an item error).
std::string quiz_instance_json(std::string_view item_json, std::uint32_t seed);

// Grades an answer to the instance that (item, seed) produces. answer_json is {"text": "1.1 TB"}
// for numeric and estimate items, {"choices": ["a", "c"]} for choice items. Returns
//   {status, counts_as_attempt, message, misconception, expected, expected_display,
//    answer_value, answer_display, explanation, options:[{id, selected, correct, feedback}]}
// status: "correct" | "incorrect" (these two count as an attempt) | "not_a_number" |
// "wrong_unit" | "no_answer" | "invalid_item" (these do not).
std::string quiz_grade_json(std::string_view item_json, std::uint32_t seed, std::string_view answer_json);

// Checks a whole bank {version, takeaways, items, order?, draw?, pass_mark?} against the schema,
// and checks every item as authored, as quiz_check_bank_json does (the same checks: the widget and
// quiz-check never disagree). Returns {ok, items, settings:{order, draw, pass_mark}, takeaways:[{id,
// text}], draws_numbers, unusable:[index…], errors:[{item, field, message}]}:
// `settings` as validated (a refused one is an error and reads as its default: "fixed", null,
// null); `takeaways` in the current language; `unusable` lists the items with a problem of their
// own, which the page leaves out (a broken translation is an error, but its item stays usable);
// `draws_numbers` is true when a usable item draws new numbers for a retry.
std::string quiz_validate_bank_json(std::string_view bank_json);

// quiz_validate_bank_json plus, for every item that draws its numbers and seeds 1…seeds (up to the
// first failing seed): the instance computes, the expected answer is finite, its own display grades
// as correct, every misconception is computable and distinguishable from the right answer. Each
// problem is listed once, whatever the seeds that repeat it. For CI (`trainscope quiz-check FILE`).
// Returns {ok, items, numeric_items, seeds, instances_checked, errors:[{item, field, message,
// seed}], warnings:[…same…]}.
std::string quiz_check_bank_json(std::string_view bank_json, int seeds);

// Reads a typed answer without grading it, so the page can show "read as 1.12 TB" while typing.
// Returns {ok, value, unit_kind, has_unit, display, error}.
std::string quiz_read_quantity_json(std::string_view text);
// The same for a question asked in `unit` (its spelling, "" for a plain number: the item's
// answer.unit): read as the grader reads it ("70B" a count where a count is asked), and what it
// cannot read says so with an example in that unit ("2.5 years", not "1.1 TB"), as the grade does.
std::string quiz_read_quantity_json(std::string_view text, std::string_view unit);

}  // namespace trainscope
