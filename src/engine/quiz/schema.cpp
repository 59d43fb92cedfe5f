// The item schema (docs/quiz.md, "Items"): what a bank's item must hold, checked without computing
// anything. Computing it is instance.cpp's job; where show-me lands, show.cpp's.
#include <cmath>
#include <string>
#include <vector>

#include "engine/quiz/internal.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"
#include "engine/text/utf8.hpp"

namespace trainscope::quiz_detail {

namespace {

const char* const item_fields[] = {
    "id",          "takeaway",   "kind", "prompt", "options",      "scenario", "randomize", "answer", "misconceptions",
    "explanation", "simulation", "show", "source", "translations", "set",      "practises"};
const char* const option_fields[] = {"id", "text", "correct", "feedback", "misconception"};
const char* const randomize_fields[] = {"path", "distribution", "min", "max", "values", "round", "scale_by"};
const char* const answer_fields[] = {"path", "unit", "tolerance", "tolerance_factor"};
const char* const misconception_fields[] = {"id",        "feedback",    "path",     "factor",
                                            "overrides", "multiply_by", "divide_by"};

}  // namespace

// One body for every list of fields (a template per list size would copy it into the wasm each time).
void check_unknown_fields_in(const Value& object, const char* const* allowed, std::size_t allowed_count,
                             const std::string& item, const std::string& prefix, std::vector<Problem>& problems) {
    for (const auto& member : object.members) {
        bool known = false;
        for (std::size_t i = 0; i < allowed_count; ++i) known = known || member.first == allowed[i];
        if (!known)
            problems.push_back({item, prefix + member.first,
                                message("quiz.schema.unknown_field", "unknown field (a typo?); see docs/quiz.md")});
    }
}

std::string item_label(const Value& item, std::size_t index) {
    const std::string id = text_of(item.find("id"));
    if (!id.empty()) return utf8::truncate(id, 64);  // a broken id is echoed in every message: keep it short
    return "#" + std::to_string(index + 1);
}

std::string item_set(const Value& item) {
    const Value* set = item.find("set");
    return set && set->kind == Kind::string && set->text == set_deeper ? set_deeper : set_lesson;
}

bool valid_id(const std::string& id) {
    if (id.empty() || id.size() > 64) return false;
    for (const char c : id) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        if (!ok) return false;
    }
    return true;
}

namespace {

// ---------------------------------------------------------------------------------------------
// Validation of one item (schema only; computing it is `build_instance`)

void validate_options(const Value& item, const std::string& label, const std::string& kind,
                      std::vector<Problem>& problems) {
    const Value* options = item.find("options");
    if (!options || options->kind != Kind::array || options->items.size() < 2) {
        problems.push_back(
            {label, "options",
             message("quiz.schema.options_missing", "a choice item needs an array of at least two options")});
        return;
    }
    int correct = 0;
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < options->items.size(); ++i) {
        const Value& option = options->items[i];
        const std::string prefix = "options[" + std::to_string(i) + "].";
        if (!option.is_object()) {
            problems.push_back({label, prefix.substr(0, prefix.size() - 1),
                                message("quiz.schema.not_an_object", "must be an object")});
            continue;
        }
        check_unknown_fields(option, option_fields, label, prefix, problems);
        const std::string id = text_of(option.find("id"));
        if (!valid_id(id))
            problems.push_back({label, std::string(prefix) + "id",
                                message("quiz.schema.short_id", "must be a short id: a-z, 0-9, - or _")});
        for (const auto& seen : ids)
            if (seen == id && !id.empty())
                problems.push_back({label, std::string(prefix) + "id",
                                    message("quiz.schema.option_id_repeated", "repeats another option's id")});
        ids.push_back(id);
        if (text_of(option.find("text")).empty())
            problems.push_back({label, std::string(prefix) + "text",
                                message("quiz.schema.non_empty_string", "must be a non-empty string")});
        if (text_of(option.find("feedback")).empty())
            problems.push_back({label, std::string(prefix) + "feedback",
                                message("quiz.schema.option_feedback", "must say why this option is right or wrong")});
        const Value* is_correct = option.find("correct");
        if (!is_correct || is_correct->kind != Kind::boolean)
            problems.push_back({label, std::string(prefix) + "correct",
                                message("quiz.schema.option_correct", "must be true or false")});
        else if (is_correct->boolean)
            ++correct;
        const Value* misconception = option.find("misconception");
        if (misconception && !valid_id(text_of(misconception)))
            problems.push_back({label, std::string(prefix) + "misconception",
                                message("quiz.schema.misconception_id", "must be a short id")});
    }
    if (kind == kind_single && correct != 1)
        problems.push_back(
            {label, "options",
             message("quiz.schema.single_correct", "a single_choice item needs exactly one correct option")});
    if (kind == kind_multiple && correct < 1)
        problems.push_back(
            {label, "options",
             message("quiz.schema.multiple_correct", "a multiple_select item needs at least one correct option")});
}

// Calls check(element, "name[i].") for each object in the array `name`; reports a missing-array
// shape or a non-object element under the item's label. Absent arrays are fine.
template <typename Check>
void for_each_object_in(const Value& item, const char* name, const std::string& label, std::vector<Problem>& problems,
                        const std::string& array_hint, Check check) {
    const Value* array = item.find(name);
    if (!array) return;
    if (array->kind != Kind::array) {
        problems.push_back({label, name, array_hint});
        return;
    }
    for (std::size_t i = 0; i < array->items.size(); ++i) {
        const std::string p = std::string(name) + "[" + std::to_string(i) + "].";
        if (!array->items[i].is_object()) {
            problems.push_back(
                {label, p.substr(0, p.size() - 1), message("quiz.schema.not_an_object", "must be an object")});
            continue;
        }
        check(array->items[i], p);
    }
}

void validate_randomize(const Value& item, const std::string& label, std::vector<Problem>& problems) {
    for_each_object_in(
        item, "randomize", label, problems,
        message("quiz.schema.randomize_array", "must be an array of {path, distribution, …}"),
        [&](const Value& draw, const std::string& p) {
            check_unknown_fields(draw, randomize_fields, label, p, problems);
            if (text_of(draw.find("path")).empty())
                problems.push_back(
                    {label, p + "path",
                     message("quiz.schema.randomize_path", "must name a scenario field, e.g. \"model.params\"")});
            const std::string distribution = text_of(draw.find("distribution"));
            double low = 0.0, high = 0.0;
            if (distribution == "log_uniform" || distribution == "uniform") {
                const bool has_range = number_of(draw.find("min"), low) && number_of(draw.find("max"), high);
                if (!has_range || !(low < high))
                    problems.push_back(
                        {label, p + "min", message("quiz.schema.randomize_range", "needs numbers min < max")});
                else if (distribution == "log_uniform" && !(low > 0.0))
                    problems.push_back(
                        {label, p + "min", message("quiz.schema.randomize_log_min", "log_uniform needs min > 0")});
            } else if (distribution == "choice") {
                const Value* values = draw.find("values");
                if (!values || values->kind != Kind::array || values->items.empty())
                    problems.push_back(
                        {label, p + "values",
                         message("quiz.schema.randomize_values", "choice needs a non-empty array of values")});
            } else {
                problems.push_back({label, p + "distribution",
                                    message("quiz.schema.randomize_distribution",
                                            "must be \"log_uniform\", \"uniform\" or \"choice\"")});
            }
            const Value* round = draw.find("round");
            if (round) {
                const std::string r = text_of(round);
                if (r != "nice" && r != "integer" && r != "power_of_two" && r != "none")
                    problems.push_back({label, p + "round",
                                        message("quiz.schema.randomize_round",
                                                "must be \"nice\", \"integer\", \"power_of_two\" or \"none\"")});
            }
            if (const Value* scale_by = draw.find("scale_by");
                scale_by && (text_of(scale_by).empty() || distribution == "choice"))
                problems.push_back({label, p + "scale_by",
                                    message("quiz.schema.randomize_scale_by",
                                            "must name a scenario field whose value scales min and max, e.g. "
                                            "\"model.params\" (not for choice)")});
        });
}

void validate_numeric(const Value& item, const std::string& label, const std::string& kind,
                      std::vector<Problem>& problems) {
    const Value* scenario = item.find("scenario");
    if (!scenario || !scenario->is_object())
        problems.push_back(
            {label, "scenario",
             message("quiz.schema.scenario_missing", "a numeric item needs a scenario object (docs/scenario.md)")});
    const Value* answer = item.find("answer");
    if (!answer || !answer->is_object()) {
        problems.push_back(
            {label, "answer",
             message("quiz.schema.answer_missing", "a numeric item needs an answer {path, unit, tolerance}")});
    } else {
        check_unknown_fields(*answer, answer_fields, label, "answer.", problems);
        if (text_of(answer->find("path")).empty())
            problems.push_back(
                {label, "answer.path",
                 message("quiz.schema.answer_path", "must name a number in the estimate, e.g. \"compute.flops\"")});
        Unit unit;
        const Value* unit_text = answer->find("unit");
        if (!unit_text || unit_text->kind != Kind::string || !quantity::find_unit(unit_text->text, unit))
            problems.push_back(
                {label, "answer.unit",
                 message("quiz.schema.answer_unit",
                         "must be a unit the parser knows (\"TB\", \"days\", \"FLOPs\", \"%\", \"GPUs\", \"\")")});
        double tolerance = 0.0;
        if (kind == kind_numeric) {
            if (!number_of(answer->find("tolerance"), tolerance) || !(tolerance > 0.0 && tolerance <= 0.5))
                problems.push_back(
                    {label, "answer.tolerance",
                     message("quiz.schema.answer_tolerance", "a numeric item needs a relative tolerance in (0, 0.5]")});
            if (answer->find("tolerance_factor"))
                problems.push_back(
                    {label, "answer.tolerance_factor",
                     message("quiz.schema.tolerance_factor_numeric", "only estimate items use tolerance_factor")});
        } else {
            if (!number_of(answer->find("tolerance_factor"), tolerance) || !(tolerance > 1.0 && tolerance <= 10.0))
                problems.push_back(
                    {label, "answer.tolerance_factor",
                     message("quiz.schema.answer_tolerance_factor", "an estimate item needs a factor in (1, 10]")});
            if (answer->find("tolerance"))
                problems.push_back({label, "answer.tolerance",
                                    message("quiz.schema.tolerance_estimate", "estimate items use tolerance_factor")});
        }
    }
    validate_randomize(item, label, problems);
    for_each_object_in(
        item, "misconceptions", label, problems, message("quiz.schema.misconceptions_array", "must be an array"),
        [&](const Value& m, const std::string& p) {
            check_unknown_fields(m, misconception_fields, label, p, problems);
            if (!valid_id(text_of(m.find("id"))))
                problems.push_back(
                    {label, p + "id", message("quiz.schema.short_id", "must be a short id: a-z, 0-9, - or _")});
            if (text_of(m.find("feedback")).empty())
                problems.push_back(
                    {label, p + "feedback",
                     message("quiz.schema.misconception_feedback", "must say what the learner probably did")});
            double factor = 1.0;
            if (m.find("factor") && (!number_of(m.find("factor"), factor) || !(factor > 0.0)))
                problems.push_back(
                    {label, p + "factor", message("quiz.schema.misconception_factor", "must be a positive number")});
            if (!m.find("factor") && !m.find("path") && !m.find("overrides") && !m.find("multiply_by") &&
                !m.find("divide_by"))
                problems.push_back({label, p.substr(0, p.size() - 1),
                                    message("quiz.schema.misconception_value",
                                            "needs at least one of factor, path, overrides, multiply_by, divide_by")});
            const Value* overrides = m.find("overrides");
            if (overrides && !overrides->is_object())
                problems.push_back(
                    {label, p + "overrides",
                     message("quiz.schema.misconception_overrides", "must be a scenario object to merge")});
        });
    if (item.find("options"))
        problems.push_back(
            {label, "options", message("quiz.schema.options_not_choice", "only choice items have options")});
}

}  // namespace

// `practises`: the slips (misconception ids) this item is the next practice question for
// (docs/quiz.md, "Practice"). Whether each names a slip of the bank is the bank's check (bank.cpp).
static void validate_practises(const Value& item, const std::string& label, std::vector<Problem>& problems) {
    const Value* practises = item.find("practises");
    if (!practises) return;
    bool ok = practises->kind == Kind::array && !practises->items.empty();
    if (ok)
        for (const auto& slip : practises->items) ok = ok && slip.kind == Kind::string && valid_id(slip.text);
    if (!ok)
        problems.push_back({label, "practises",
                            message("quiz.schema.practises",
                                    "must be a non-empty array of misconception ids, e.g. [\"forgot-master-copy\"]")});
}

void validate_item(const Value& item, const std::string& label, std::vector<Problem>& problems) {
    if (!item.is_object()) {
        problems.push_back({label, "", message("quiz.schema.item_not_object", "an item must be a JSON object")});
        return;
    }
    check_unknown_fields(item, item_fields, label, "", problems);
    if (!valid_id(text_of(item.find("id"))))
        problems.push_back(
            {label, "id", message("quiz.schema.item_id", "must be a short id: a-z, 0-9, - or _ (at most 64)")});
    if (text_of(item.find("takeaway")).empty())
        problems.push_back({label, "takeaway",
                            message("quiz.schema.takeaway_missing", "must name the key takeaway this item checks")});
    if (const Value* set = item.find("set");
        set && !(set->kind == Kind::string && (set->text == set_lesson || set->text == set_deeper)))
        problems.push_back(
            {label, "set", message("quiz.schema.set", "must be \"lesson\" (the default) or \"deeper\"")});
    if (text_of(item.find("prompt")).empty())
        problems.push_back({label, "prompt", message("quiz.schema.non_empty_string", "must be a non-empty string")});
    if (text_of(item.find("explanation")).empty())
        problems.push_back(
            {label, "explanation", message("quiz.schema.explanation_missing", "must explain the answer")});
    const Value* simulation = item.find("simulation");
    if (!simulation || !simulation->is_object())
        problems.push_back(
            {label, "simulation",
             message("quiz.schema.simulation_missing", "must be a scenario object for \"show me in the simulation\"")});
    const std::string kind = text_of(item.find("kind"));
    validate_show(item, label, is_numeric_kind(kind), problems);
    validate_practises(item, label, problems);
    if (is_choice_kind(kind)) {
        validate_options(item, label, kind, problems);
        for (const char* field : {"scenario", "randomize", "answer", "misconceptions"})
            if (item.find(field))
                problems.push_back(
                    {label, field,
                     message("quiz.schema.numeric_only_field", "only numeric and estimate items have this field")});
    } else if (is_numeric_kind(kind)) {
        validate_numeric(item, label, kind, problems);
    } else {
        problems.push_back(
            {label, "kind",
             message("quiz.schema.kind", "must be single_choice, multiple_select, numeric or estimate")});
    }
}

}  // namespace trainscope::quiz_detail
