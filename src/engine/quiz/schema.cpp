#include "engine/quiz/quiz.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <utility>
#include <vector>

#include "engine/api/api.hpp"
#include "engine/text/json.hpp"
#include "engine/text/language.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"
#include "engine/quiz/internal.hpp"
#include "engine/text/utf8.hpp"

namespace trainscope {
namespace quiz_detail {

namespace {

// ---------------------------------------------------------------------------------------------
// Reading the item

const char* const item_fields[] = {"id", "takeaway", "kind", "prompt", "options", "scenario", "randomize",
                                   "answer", "misconceptions", "explanation", "simulation", "show", "source",
                                   "translations"};
const char* const option_fields[] = {"id", "text", "correct", "feedback", "misconception"};
const char* const randomize_fields[] = {"path", "distribution", "min", "max", "values", "round"};
const char* const answer_fields[] = {"path", "unit", "tolerance", "tolerance_factor"};
const char* const show_fields[] = {"section", "figure", "moment"};
// Moments of the step section's playhead a show-me may open at (web/src/sections/step.ts): the
// peak, or the first event of a phase (docs/model.md §9).
const char* const step_moments[] = {"peak", "gather", "recompute", "backward", "reduce_scatter", "optimizer"};
const char* const misconception_fields[] = {"id", "feedback", "path", "factor", "overrides", "multiply_by",
                                            "divide_by"};

// One body for every list of fields (a template per list size would copy it into the wasm each time).
void check_unknown_fields_in(const Value& object, const char* const* allowed, std::size_t allowed_count,
                             const std::string& item, const std::string& prefix, std::vector<Problem>& problems) {
    for (const auto& member : object.members) {
        bool known = false;
        for (std::size_t i = 0; i < allowed_count; ++i) known = known || member.first == allowed[i];
        if (!known)
            problems.push_back({item, prefix + member.first, message("quiz.schema.unknown_field", "unknown field (a typo?); see docs/quiz.md")});
    }
}

template <std::size_t N>
void check_unknown_fields(const Value& object, const char* const (&allowed)[N], const std::string& item,
                          const std::string& prefix, std::vector<Problem>& problems) {
    check_unknown_fields_in(object, allowed, N, item, prefix, problems);
}

// Every figure the page marks with data-figure that a show-me may land on (web/src/sections/;
// tests/browser/showme.test.mjs follows every item of the default bank to its figure).
const ShowTarget show_targets[] = {
    {"memory", "inference-total", "inference.total"},
    {"memory", "inference-bytes-per-param", "inference.bytes_per_param"},
    {"memory", "inference-min-gpus", "inference.min_gpus"},
    {"memory", "ratio", "ratio_training_to_inference"},
    {"memory", "training-bytes-per-param", "training.bytes_per_param.total"},
    // One unsharded copy on one GPU, whatever the scenario's parallel settings: no estimate path.
    {"memory", "training-total", nullptr},
    {"activations", "activations", "training.per_gpu.activations"},
    {"activations", "activations-saved", "training.activations_saved_by_recompute"},
    {"activations", "recompute-overhead", "compute.recompute_overhead"},
    {"sharding", "model-states-per-gpu", "training.per_gpu.model_states"},
    {"sharding", "model-states-total", "training.model_states.total"},
    {"sharding", "per-gpu-total", "training.per_gpu.total"},
    {"sharding", "min-gpus", "training.min_gpus"},
    {"time", "flops", "compute.flops"},
    {"time", "seconds", "compute.seconds"},
    {"time", "seconds-on-one-gpu", "compute.seconds_on_one_gpu"},
    {"time", "gpu-hours", "compute.gpu_hours"},
    {"time", "mfu", "compute.mfu"},
    // The step section: what the playhead's moment holds, and the peak's sentence.
    {"step", "step-phase", nullptr},
    {"step", "step-held", nullptr},
    {"step", "step-peak-text", "training.per_gpu.total"},
};

std::string known_sections() {
    std::string list;
    for (const ShowTarget& target : show_targets) {
        const std::string quoted = std::string("\"") + target.section + "\"";
        if (list.find(quoted) == std::string::npos) list += (list.empty() ? "" : ", ") + quoted;
    }
    return list;
}

void validate_show(const Value& item, const std::string& label, std::vector<Problem>& problems) {
    const Value* show = item.find("show");
    if (!show || !show->is_object()) {
        problems.push_back({label, "show", message("quiz.schema.show_missing", "must name where \"show me in the simulation\" lands: {\"section\": \"sharding\", \"figure\": \"model-states-per-gpu\"}")});
        return;
    }
    check_unknown_fields(*show, show_fields, label, "show.", problems);
    const std::string section = text_of(show->find("section"));
    const std::string figure = text_of(show->find("figure"));
    bool section_known = false;
    for (const ShowTarget& target : show_targets) section_known = section_known || section == target.section;
    if (!section_known) {
        problems.push_back({label, "show.section", message("quiz.schema.show_section", "must be one of {sections}", {{"sections", known_sections()}})});
        return;
    }
    const ShowTarget* target = find_show_target(section, figure);
    if (!target) {
        std::string figures;
        for (const ShowTarget& t : show_targets)
            if (section == t.section) figures += std::string(figures.empty() ? "\"" : ", \"") + t.figure + "\"";
        problems.push_back({label, "show.figure", message("quiz.schema.show_figure", "must be a figure of the {section} section: {figures}", {{"section", section}, {"figures", figures}})});
    }
    const Value* moment = show->find("moment");
    if (!moment) return;
    if (section != "step") {
        problems.push_back({label, "show.moment", message("quiz.schema.show_moment_section", "only the step section has moments; leave it out for the {section} section", {{"section", section}})});
        return;
    }
    bool moment_known = false;
    std::string moments;
    for (const char* name : step_moments) {
        moment_known = moment_known || text_of(moment) == name;
        moments += std::string(moments.empty() ? "\"" : ", \"") + name + "\"";
    }
    if (moment->kind != Kind::string || !moment_known) problems.push_back({label, "show.moment", message("quiz.schema.show_moment", "must be one of {moments}", {{"moments", moments}})});
}

}  // namespace

const ShowTarget* show_targets_begin() { return show_targets; }
const ShowTarget* show_targets_end() { return show_targets + sizeof show_targets / sizeof show_targets[0]; }

const ShowTarget* find_show_target(const std::string& section, const std::string& figure) {
    for (const ShowTarget* target = show_targets_begin(); target != show_targets_end(); ++target)
        if (section == target->section && figure == target->figure) return target;
    return nullptr;
}

std::string item_label(const Value& item, std::size_t index) {
    const std::string id = text_of(item.find("id"));
    if (!id.empty()) return utf8::truncate(id, 64);  // a broken id is echoed in every message: keep it short
    return "#" + std::to_string(index + 1);
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
        problems.push_back({label, "options", message("quiz.schema.options_missing", "a choice item needs an array of at least two options")});
        return;
    }
    int correct = 0;
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < options->items.size(); ++i) {
        const Value& option = options->items[i];
        const std::string prefix = "options[" + std::to_string(i) + "].";
        if (!option.is_object()) {
            problems.push_back({label, prefix.substr(0, prefix.size() - 1), message("quiz.schema.not_an_object", "must be an object")});
            continue;
        }
        check_unknown_fields(option, option_fields, label, prefix, problems);
        const std::string id = text_of(option.find("id"));
        if (!valid_id(id)) problems.push_back({label, std::string(prefix) + "id", message("quiz.schema.short_id", "must be a short id: a-z, 0-9, - or _")});
        for (const auto& seen : ids)
            if (seen == id && !id.empty()) problems.push_back({label, std::string(prefix) + "id", message("quiz.schema.option_id_repeated", "repeats another option's id")});
        ids.push_back(id);
        if (text_of(option.find("text")).empty())
            problems.push_back({label, std::string(prefix) + "text", message("quiz.schema.non_empty_string", "must be a non-empty string")});
        if (text_of(option.find("feedback")).empty())
            problems.push_back({label, std::string(prefix) + "feedback", message("quiz.schema.option_feedback", "must say why this option is right or wrong")});
        const Value* is_correct = option.find("correct");
        if (!is_correct || is_correct->kind != Kind::boolean)
            problems.push_back({label, std::string(prefix) + "correct", message("quiz.schema.option_correct", "must be true or false")});
        else if (is_correct->boolean)
            ++correct;
        const Value* misconception = option.find("misconception");
        if (misconception && !valid_id(text_of(misconception)))
            problems.push_back({label, std::string(prefix) + "misconception", message("quiz.schema.misconception_id", "must be a short id")});
    }
    if (kind == kind_single && correct != 1)
        problems.push_back({label, "options", message("quiz.schema.single_correct", "a single_choice item needs exactly one correct option")});
    if (kind == kind_multiple && correct < 1)
        problems.push_back({label, "options", message("quiz.schema.multiple_correct", "a multiple_select item needs at least one correct option")});
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
            problems.push_back({label, p.substr(0, p.size() - 1), message("quiz.schema.not_an_object", "must be an object")});
            continue;
        }
        check(array->items[i], p);
    }
}

void validate_randomize(const Value& item, const std::string& label, std::vector<Problem>& problems) {
    for_each_object_in(item, "randomize", label, problems, message("quiz.schema.randomize_array", "must be an array of {path, distribution, …}"),
                       [&](const Value& draw, const std::string& p) {
        check_unknown_fields(draw, randomize_fields, label, p, problems);
        if (text_of(draw.find("path")).empty())
            problems.push_back({label, p + "path", message("quiz.schema.randomize_path", "must name a scenario field, e.g. \"model.params\"")});
        const std::string distribution = text_of(draw.find("distribution"));
        double low = 0.0, high = 0.0;
        if (distribution == "log_uniform" || distribution == "uniform") {
            const bool has_range = number_of(draw.find("min"), low) && number_of(draw.find("max"), high);
            if (!has_range || !(low < high))
                problems.push_back({label, p + "min", message("quiz.schema.randomize_range", "needs numbers min < max")});
            else if (distribution == "log_uniform" && !(low > 0.0))
                problems.push_back({label, p + "min", message("quiz.schema.randomize_log_min", "log_uniform needs min > 0")});
        } else if (distribution == "choice") {
            const Value* values = draw.find("values");
            if (!values || values->kind != Kind::array || values->items.empty())
                problems.push_back({label, p + "values", message("quiz.schema.randomize_values", "choice needs a non-empty array of values")});
        } else {
            problems.push_back({label, p + "distribution", message("quiz.schema.randomize_distribution", "must be \"log_uniform\", \"uniform\" or \"choice\"")});
        }
        const Value* round = draw.find("round");
        if (round) {
            const std::string r = text_of(round);
            if (r != "nice" && r != "integer" && r != "power_of_two" && r != "none")
                problems.push_back({label, p + "round", message("quiz.schema.randomize_round", "must be \"nice\", \"integer\", \"power_of_two\" or \"none\"")});
        }
    });
}

void validate_numeric(const Value& item, const std::string& label, const std::string& kind,
                      std::vector<Problem>& problems) {
    const Value* scenario = item.find("scenario");
    if (!scenario || !scenario->is_object())
        problems.push_back({label, "scenario", message("quiz.schema.scenario_missing", "a numeric item needs a scenario object (docs/scenario.md)")});
    const Value* answer = item.find("answer");
    if (!answer || !answer->is_object()) {
        problems.push_back({label, "answer", message("quiz.schema.answer_missing", "a numeric item needs an answer {path, unit, tolerance}")});
    } else {
        check_unknown_fields(*answer, answer_fields, label, "answer.", problems);
        if (text_of(answer->find("path")).empty())
            problems.push_back({label, "answer.path", message("quiz.schema.answer_path", "must name a number in the estimate, e.g. \"compute.flops\"")});
        Unit unit;
        const Value* unit_text = answer->find("unit");
        if (!unit_text || unit_text->kind != Kind::string || !quantity::find_unit(unit_text->text, unit))
            problems.push_back({label, "answer.unit", message("quiz.schema.answer_unit", "must be a unit the parser knows (\"TB\", \"days\", \"FLOPs\", \"%\", \"GPUs\", \"\")")});
        double tolerance = 0.0;
        if (kind == kind_numeric) {
            if (!number_of(answer->find("tolerance"), tolerance) || !(tolerance > 0.0 && tolerance <= 0.5))
                problems.push_back({label, "answer.tolerance", message("quiz.schema.answer_tolerance", "a numeric item needs a relative tolerance in (0, 0.5]")});
            if (answer->find("tolerance_factor"))
                problems.push_back({label, "answer.tolerance_factor", message("quiz.schema.tolerance_factor_numeric", "only estimate items use tolerance_factor")});
        } else {
            if (!number_of(answer->find("tolerance_factor"), tolerance) || !(tolerance > 1.0 && tolerance <= 10.0))
                problems.push_back({label, "answer.tolerance_factor", message("quiz.schema.answer_tolerance_factor", "an estimate item needs a factor in (1, 10]")});
            if (answer->find("tolerance"))
                problems.push_back({label, "answer.tolerance", message("quiz.schema.tolerance_estimate", "estimate items use tolerance_factor")});
        }
    }
    validate_randomize(item, label, problems);
    for_each_object_in(item, "misconceptions", label, problems, message("quiz.schema.misconceptions_array", "must be an array"),
                       [&](const Value& m, const std::string& p) {
        check_unknown_fields(m, misconception_fields, label, p, problems);
        if (!valid_id(text_of(m.find("id"))))
            problems.push_back({label, p + "id", message("quiz.schema.short_id", "must be a short id: a-z, 0-9, - or _")});
        if (text_of(m.find("feedback")).empty())
            problems.push_back({label, p + "feedback", message("quiz.schema.misconception_feedback", "must say what the learner probably did")});
        double factor = 1.0;
        if (m.find("factor") && (!number_of(m.find("factor"), factor) || !(factor > 0.0)))
            problems.push_back({label, p + "factor", message("quiz.schema.misconception_factor", "must be a positive number")});
        if (!m.find("factor") && !m.find("path") && !m.find("overrides") && !m.find("multiply_by") &&
            !m.find("divide_by"))
            problems.push_back({label, p.substr(0, p.size() - 1),
                                message("quiz.schema.misconception_value", "needs at least one of factor, path, overrides, multiply_by, divide_by")});
        const Value* overrides = m.find("overrides");
        if (overrides && !overrides->is_object())
            problems.push_back({label, p + "overrides", message("quiz.schema.misconception_overrides", "must be a scenario object to merge")});
    });
    if (item.find("options")) problems.push_back({label, "options", message("quiz.schema.options_not_choice", "only choice items have options")});
}

}  // namespace

void validate_item(const Value& item, const std::string& label, std::vector<Problem>& problems) {
    if (!item.is_object()) {
        problems.push_back({label, "", message("quiz.schema.item_not_object", "an item must be a JSON object")});
        return;
    }
    check_unknown_fields(item, item_fields, label, "", problems);
    if (!valid_id(text_of(item.find("id"))))
        problems.push_back({label, "id", message("quiz.schema.item_id", "must be a short id: a-z, 0-9, - or _ (at most 64)")});
    if (text_of(item.find("takeaway")).empty())
        problems.push_back({label, "takeaway", message("quiz.schema.takeaway_missing", "must name the key takeaway this item checks")});
    if (text_of(item.find("prompt")).empty()) problems.push_back({label, "prompt", message("quiz.schema.non_empty_string", "must be a non-empty string")});
    if (text_of(item.find("explanation")).empty())
        problems.push_back({label, "explanation", message("quiz.schema.explanation_missing", "must explain the answer")});
    const Value* simulation = item.find("simulation");
    if (!simulation || !simulation->is_object())
        problems.push_back({label, "simulation", message("quiz.schema.simulation_missing", "must be a scenario object for \"show me in the simulation\"")});
    validate_show(item, label, problems);
    const std::string kind = text_of(item.find("kind"));
    if (is_choice_kind(kind)) {
        validate_options(item, label, kind, problems);
        for (const char* field : {"scenario", "randomize", "answer", "misconceptions"})
            if (item.find(field)) problems.push_back({label, field, message("quiz.schema.numeric_only_field", "only numeric and estimate items have this field")});
    } else if (is_numeric_kind(kind)) {
        validate_numeric(item, label, kind, problems);
    } else {
        problems.push_back({label, "kind", message("quiz.schema.kind", "must be single_choice, multiple_select, numeric or estimate")});
    }
}

// ---------------------------------------------------------------------------------------------
// Translations (docs/quiz.md, "Translations"): the item's texts in another language, by tag.

namespace {

const char* const translation_fields[] = {"prompt", "explanation", "options", "misconceptions"};
const char* const translated_option_fields[] = {"text", "feedback"};
const char* const translated_misconception_fields[] = {"feedback"};

// The distinct {placeholders} of a text, as written inside the braces ("model.params", "x|TB"),
// found as fill() finds them.
std::vector<std::string> placeholders_of(const std::string& text) {
    std::vector<std::string> names;
    for (std::size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
        const std::size_t close = text.find('}', open);
        if (close == std::string::npos) break;
        const std::string name = text.substr(open + 1, close - open - 1);
        bool seen = false;
        for (const auto& known : names) seen = seen || known == name;
        if (!seen) names.push_back(name);
        open = close;
    }
    return names;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
    for (const auto& known : names)
        if (known == name) return true;
    return false;
}

// A translated text is there, is text, and keeps the original's placeholders: the same values
// must reach the learner in every language ({answer} above all), and a placeholder the original
// lacks would name a value nobody checked.
void check_translated_text(const std::string& original, const Value* translated, const std::string& label,
                           const std::string& field, std::vector<Problem>& problems) {
    if (!translated) {
        problems.push_back({label, field, message("quiz.translation.missing", "is missing: a translation translates every text of the item")});
        return;
    }
    if (translated->kind != Kind::string || translated->text.empty()) {
        problems.push_back({label, field, message("quiz.translation.not_text", "must be a non-empty string")});
        return;
    }
    const std::vector<std::string> wanted = placeholders_of(original);
    const std::vector<std::string> written = placeholders_of(translated->text);
    for (const auto& name : wanted)
        if (!contains(written, name))
            problems.push_back({label, field, message("quiz.translation.placeholder_missing", "lacks the placeholder {placeholder}, which the original has", {{"placeholder", "{" + name + "}"}})});
    for (const auto& name : written)
        if (!contains(wanted, name))
            problems.push_back({label, field, message("quiz.translation.placeholder_extra", "has the placeholder {placeholder}, which the original does not", {{"placeholder", "{" + name + "}"}})});
}

// A language tag as the bank writes it: exactly "en", "de" or "es", so that one language has one
// translation ("de" and "de-AT" side by side would leave the engine to pick one).
bool check_language_tag(const std::string& tag, const std::string& label, const std::string& field,
                        std::vector<Problem>& problems) {
    Language language = Language::en;
    if (!language_from_tag(tag, language)) {
        problems.push_back({label, field, message("quiz.translation.unknown_language", "is not a language the widget speaks: write \"en\", \"de\" or \"es\"")});
        return false;
    }
    if (tag != language_tag(language)) {
        problems.push_back({label, field, message("quiz.translation.tag_form", "write the language as \"{tag}\"", {{"tag", language_tag(language)}})});
        return false;
    }
    return true;
}

// The texts of an array of objects with ids (options, misconceptions), translated in an object
// keyed by those ids: every id translated, no other id, no other field.
void check_translated_list(const Value* originals, const Value* translated, const char* list_name,
                           const char* const* fields, std::size_t field_count, const std::string& label,
                           const std::string& prefix, std::vector<Problem>& problems) {
    const std::string field = prefix + "." + list_name;
    const bool has_originals = originals && originals->kind == Kind::array && !originals->items.empty();
    if (!has_originals) {
        if (translated)
            problems.push_back({label, field, message("quiz.translation.nothing_to_translate", "the item has none to translate")});
        return;
    }
    if (!translated) {
        problems.push_back({label, field, message("quiz.translation.missing", "is missing: a translation translates every text of the item")});
        return;
    }
    if (!translated->is_object()) {
        problems.push_back({label, field, message("quiz.translation.list_not_object", "must be an object keyed by their ids: {\"id\": {…}}")});
        return;
    }
    std::vector<std::string> ids;
    for (const Value& original : originals->items) {
        const std::string id = text_of(original.find("id"));
        if (!valid_id(id)) continue;  // the item's own error; nothing to translate it against
        ids.push_back(id);
        const std::string entry_field = field + "." + id;
        const Value* entry = translated->find(id);
        if (!entry) {
            problems.push_back({label, entry_field, message("quiz.translation.missing", "is missing: a translation translates every text of the item")});
            continue;
        }
        if (!entry->is_object()) {
            problems.push_back({label, entry_field, message("quiz.schema.not_an_object", "must be an object")});
            continue;
        }
        check_unknown_fields_in(*entry, fields, field_count, label, entry_field + ".", problems);
        for (std::size_t i = 0; i < field_count; ++i)
            check_translated_text(text_of(original.find(fields[i])), entry->find(fields[i]), label,
                                  entry_field + "." + fields[i], problems);
    }
    for (const auto& member : translated->members)
        if (!contains(ids, member.first))
            problems.push_back({label, field + "." + utf8::truncate(member.first, 64),
                                message("quiz.translation.unknown_id", "names nothing in the item (a typo?)")});
}

}  // namespace

void validate_translation(const Value& item, const std::string& label, const std::string& tag, const Value& translation,
                          std::vector<Problem>& problems) {
    const std::string prefix = "translations." + tag;
    if (!translation.is_object()) {
        problems.push_back({label, prefix, message("quiz.translation.not_object", "must be an object with the item's texts: {\"prompt\": …, \"explanation\": …}")});
        return;
    }
    check_unknown_fields(translation, translation_fields, label, prefix + ".", problems);
    check_translated_text(text_of(item.find("prompt")), translation.find("prompt"), label, prefix + ".prompt", problems);
    check_translated_text(text_of(item.find("explanation")), translation.find("explanation"), label, prefix + ".explanation",
                          problems);
    check_translated_list(item.find("options"), translation.find("options"), "options", translated_option_fields,
                          std::size(translated_option_fields), label, prefix, problems);
    check_translated_list(item.find("misconceptions"), translation.find("misconceptions"), "misconceptions",
                          translated_misconception_fields, std::size(translated_misconception_fields), label, prefix,
                          problems);
}

void validate_translations(const Value& item, const std::string& label, std::vector<Problem>& problems) {
    if (!item.is_object()) return;
    const Value* translations = item.find("translations");
    if (!translations) return;
    if (!translations->is_object()) {
        problems.push_back({label, "translations", message("quiz.translation.not_by_language", "must be an object of translations by language: {\"de\": {…}, \"es\": {…}}")});
        return;
    }
    for (const auto& [tag, translation] : translations->members) {
        const std::string field = "translations." + utf8::truncate(tag, 16);
        if (check_language_tag(tag, label, field, problems)) validate_translation(item, label, tag, translation, problems);
    }
}

std::string usable_translation(const Value& item) {
    const Value* translations = item.find("translations");
    if (!translations || !translations->is_object()) return "";
    const std::string tag = language_tag(current_language());
    const Value* translation = translations->find(tag);
    if (!translation) return "";
    std::vector<Problem> problems;
    validate_translation(item, "", tag, *translation, problems);
    return problems.empty() ? tag : "";
}

void validate_takeaway_translations(const Value& takeaway, const std::string& field, std::vector<Problem>& problems) {
    const Value* translations = takeaway.find("translations");
    if (!translations) return;
    if (!translations->is_object()) {
        problems.push_back({"", field + ".translations", message("quiz.translation.takeaway_not_by_language", "must be an object of texts by language: {\"de\": \"…\"}")});
        return;
    }
    for (const auto& [tag, text] : translations->members) {
        const std::string translated_field = field + ".translations." + utf8::truncate(tag, 16);
        if (check_language_tag(tag, "", translated_field, problems))
            check_translated_text(text_of(takeaway.find("text")), &text, "", translated_field, problems);
    }
}

std::string takeaway_text(const Value& takeaway) {
    if (const Value* translations = takeaway.find("translations"); translations && translations->is_object()) {
        if (const Value* text = translations->find(language_tag(current_language()))) {
            std::vector<Problem> problems;
            check_translated_text(text_of(takeaway.find("text")), text, "", "", problems);
            if (problems.empty()) return text->text;
        }
    }
    return text_of(takeaway.find("text"));
}

namespace {

// The author's choices for the whole bank (docs/quiz.md, "The bank"); a refused value is reported
// and its default used, so a typo in a setting never stops the questions.
struct BankSettings {
    bool shuffled = false;
    int draw = 0;            // 0: every usable item
    double pass_mark = -1;   // < 0: none
};

struct BankReport {
    std::vector<Problem> errors, warnings;
    int items = 0, numeric_items = 0;
    double instances_checked = 0;
    BankSettings settings;
    // Per item: it has a problem of its own, so the page leaves it out (a learner never sees a
    // half-broken question). Bank-level problems mark no item.
    std::vector<bool> unusable;
    // The takeaways' texts in the current language (a usable translation, else their own), so the
    // page's summary never picks a translation itself.
    std::vector<std::pair<std::string, std::string>> takeaways;
};

void read_bank_settings(const Value& bank, std::size_t item_count, BankReport& report) {
    if (const Value* order = bank.find("order")) {
        const std::string text = text_of(order);
        if (order->kind == Kind::string && (text == "fixed" || text == "shuffled"))
            report.settings.shuffled = text == "shuffled";
        else
            report.errors.push_back({"", "order", message("quiz.bank.order", "must be \"fixed\" (the bank's order, the default) or \"shuffled\" (an order per learner)")});
    }
    if (const Value* draw = bank.find("draw")) {
        double count = 0.0;
        if (!number_of(draw, count) || count < 1 || count != std::floor(count) || count > 100000)
            report.errors.push_back({"", "draw", message("quiz.bank.draw", "must be a whole number of questions to ask, at least 1")});
        else if (item_count > 0 && count > static_cast<double>(item_count))
            report.errors.push_back({"", "draw", message("quiz.bank.draw_too_many", "asks for {draw} questions but the bank has {items}; every question is asked", {{"draw", quantity::format_count(count)}, {"items", quantity::format_count(static_cast<double>(item_count))}})});
        else
            report.settings.draw = static_cast<int>(count);
    }
    if (const Value* pass_mark = bank.find("pass_mark")) {
        double mark = 0.0;
        if (!number_of(pass_mark, mark) || !(mark >= 0.0 && mark <= 1.0))
            report.errors.push_back({"", "pass_mark", message("quiz.bank.pass_mark", "must be a fraction from 0 to 1 (0.7 for 70%)")});
        else
            report.settings.pass_mark = mark;
    }
}

const Value* bank_items(const Value& bank, BankReport& report) {
    if (!bank.is_object()) {
        report.errors.push_back({"", "", message("quiz.bank.not_an_object", "the bank must be an object {version, takeaways, items}")});
        return nullptr;
    }
    for (const auto& member : bank.members) {
        if (member.first != "version" && member.first != "takeaways" && member.first != "items" && member.first != "$comment" &&
            member.first != "order" && member.first != "draw" && member.first != "pass_mark")
            report.errors.push_back({"", member.first, message("quiz.schema.unknown_field", "unknown field (a typo?); see docs/quiz.md")});
    }
    double version = 0.0;
    if (!number_of(bank.find("version"), version) || version != 1.0)
        report.errors.push_back({"", "version", message("quiz.bank.version", "must be 1")});
    std::vector<std::string> takeaways;
    const Value* takeaway_list = bank.find("takeaways");
    if (!takeaway_list || takeaway_list->kind != Kind::array || takeaway_list->items.empty()) {
        report.errors.push_back({"", "takeaways", message("quiz.bank.takeaways", "must list the lesson's takeaways as [{id, text}]")});
    } else {
        for (std::size_t i = 0; i < takeaway_list->items.size(); ++i) {
            const Value& t = takeaway_list->items[i];
            const std::string field = "takeaways[" + std::to_string(i) + "]";
            const std::string id = text_of(t.find("id"));
            if (!valid_id(id) || text_of(t.find("text")).empty())
                report.errors.push_back({"", field, message("quiz.bank.takeaway", "needs an id (a-z, 0-9, -, _) and a text")});
            takeaways.push_back(id);
            validate_takeaway_translations(t, field, report.errors);
            if (valid_id(id)) report.takeaways.push_back({id, takeaway_text(t)});
        }
    }
    const Value* items = bank.find("items");
    if (!items || items->kind != Kind::array || items->items.empty()) {
        report.errors.push_back({"", "items", message("quiz.bank.items", "must be a non-empty array of items")});
        return nullptr;
    }
    read_bank_settings(bank, items->items.size(), report);
    report.unusable.assign(items->items.size(), false);
    std::vector<std::string> ids;
    std::vector<int> covered(takeaways.size(), 0);
    for (std::size_t i = 0; i < items->items.size(); ++i) {
        const Value& item = items->items[i];
        const std::string label = item_label(item, i);
        const std::size_t errors_before = report.errors.size();
        ++report.items;
        validate_item(item, label, report.errors);
        const std::string id = text_of(item.find("id"));
        for (const auto& seen : ids)
            if (!id.empty() && seen == id) report.errors.push_back({label, "id", message("quiz.bank.item_id_repeated", "repeats another item's id")});
        ids.push_back(id);
        const std::string takeaway = text_of(item.find("takeaway"));
        bool known = false;
        for (std::size_t t = 0; t < takeaways.size(); ++t) {
            if (takeaways[t] == takeaway) {
                known = true;
                ++covered[t];
            }
        }
        if (!takeaway.empty() && !takeaways.empty() && !known)
            report.errors.push_back({label, "takeaway", message("quiz.bank.takeaway_unknown", "is not one of the bank's takeaways")});
        if (is_numeric_kind(text_of(item.find("kind")))) ++report.numeric_items;
        if (report.errors.size() > errors_before) report.unusable[i] = true;
        // After the verdict above: a broken translation is the author's to fix, but the learner is
        // then asked in the item's own language, so the item stays usable.
        validate_translations(item, label, report.errors);
    }
    for (std::size_t t = 0; t < takeaways.size(); ++t) {
        if (covered[t] == 0) report.errors.push_back({"", "takeaways", message("quiz.bank.takeaway_unchecked", "no item checks the takeaway \"{takeaway}\"", {{"takeaway", takeaways[t]}})});
    }
    return items;
}

// Computes an item as authored (seed 0) and, for simulation, checks that the engine accepts it.
// Whether `text` shows `figure` as a figure of its own: "10²² FLOPs" is not in "3 × 10²² FLOPs",
// nor "2 bytes" in "12 bytes".
bool shows_figure(const std::string& text, const std::string& figure) {
    for (std::size_t at = text.find(figure); at != std::string::npos; at = text.find(figure, at + 1)) {
        std::size_t before = at;
        while (before > 0 && text[before - 1] == ' ') --before;
        const bool glued = before < at ? text.compare(before >= 2 ? before - 2 : 0, before >= 2 ? 2 : before, "\u00D7") == 0
                                       : false;
        const char previous = at > 0 ? text[at - 1] : ' ';
        if (glued || (previous >= '0' && previous <= '9') || previous == '.' || previous == ',') continue;
        return true;
    }
    return false;
}

void check_computes(const Value& item, std::size_t index, std::uint32_t seed, BankReport& report, bool deep) {
    const std::string label = item_label(item, index);
    std::vector<Problem> schema;
    validate_item(item, label, schema);
    if (!schema.empty()) return;  // already reported
    Instance instance = build_instance(item, seed);
    report.instances_checked += 1;
    auto tag = [&](Problem p) {
        p.seed = seed;
        return p;
    };
    for (const auto& p : instance.problems) report.errors.push_back(tag(p));
    if (!instance.ok()) return;
    if (seed == 0 && is_numeric_kind(instance.kind)) {
        Value unused;
        std::string error;
        if (!run_estimate(*item.find("simulation"), unused, error))
            report.errors.push_back({label, "simulation", message("quiz.instance.engine_refuses", "the engine refuses it: {error}", {{"error", error}}), 0});
    }
    // A show-me that opens the step at a phase needs that phase in the simulation's step (a
    // gather needs ZeRO-3, a recompute needs checkpointing).
    if (seed == 0 && !instance.show_moment.empty() && instance.show_moment != "peak") {
        const json::ParseResult step = json::parse(step_timeline_json(json::serialize(instance.simulation)));
        bool found = false;
        if (step.ok)
            if (const Value* events = step.value.find("events"))
                for (const Value& event : events->items) found = found || text_of(event.find("phase")) == instance.show_moment;
        if (!found)
            report.errors.push_back({label, "show.moment", message("quiz.check.moment_missing", "the simulation's step has no \"{moment}\" event: change the simulation or the moment", {{"moment", instance.show_moment}}), 0});
    }
    // "Show me" lands on the figure of the answer: in the simulation it loads, that figure must
    // read the very number the question expects (the simulation carries the drawn values too).
    if (instance.numeric) {
        const ShowTarget* target = find_show_target(instance.show_section, instance.show_figure);
        // A numeric question's show-me lands on the figure that holds its answer.
        const std::string path = text_of(item.find("answer")->find("path"));
        if (target && (!target->path || path != target->path))
            report.errors.push_back(tag({label, "show.figure", message("quiz.check.figure_not_answer", "\"{figure}\" does not show the answer \"{path}\"; pick the figure that does (docs/quiz.md, \"show\")", {{"figure", instance.show_figure}, {"path", path}})}));
        Value shown_estimate;
        std::string error;
        double shown = 0.0;
        if (target && target->path && run_estimate(instance.simulation, shown_estimate, error) &&
            number_of(shown_estimate.find_path(target->path), shown) &&
            !(std::fabs(shown - instance.expected) <= 1e-9 * std::fabs(instance.expected)))
            report.errors.push_back(tag({label, "simulation", message("quiz.check.simulation_shows_other", "shows {shown} at \"{figure}\", not the answer {answer}: make the simulation the question's scenario", {{"shown", quantity::format_in_unit(shown, instance.unit)}, {"figure", instance.show_figure}, {"answer", answer_text(instance)}})}));
    }
    // A numeric item's explanation states the engine's answer, so that no other figure in it
    // (a part of the sum, a misconception's value) can be read as the answer.
    if (instance.numeric && instance.explanation.find(answer_text(instance)) == std::string::npos)
        report.errors.push_back(tag({label, "explanation", message("quiz.check.explanation_states_answer", "must state the answer \"{value}\" (write {answer})", {{"value", answer_text(instance)}})}));
    if (!deep || !instance.numeric) return;
    // The answer we show must itself be graded correct (display and parser agree).
    json::Writer answer;
    answer.begin_object().field("text", expected_display(instance)).end_object();
    const json::ParseResult graded = json::parse(quiz_grade_json(json::serialize(item), seed, answer.text()));
    if (!graded.ok || text_of(graded.value.find("status")) != "correct")
        report.errors.push_back(tag({label, "answer", message("quiz.check.expected_not_correct", "the expected answer \"{expected}\" does not grade as correct", {{"expected", expected_display(instance)}})}));
    compute_misconceptions(item, instance);
    for (const auto& p : instance.problems) report.errors.push_back(tag(p));
    for (const auto& m : instance.misconceptions) {
        // A learner who typed a misconception's value must not find it in the explanation,
        // where it would read as confirmation ("120 GB in all" for a per-GPU question).
        const std::string shown = quantity::format_in_unit(m.value, instance.unit);
        if (m.computed && !close_enough(instance, m.value, instance.expected) &&
            shows_figure(instance.explanation, shown))
            report.errors.push_back(tag({label, "explanation", message("quiz.check.explanation_shows_misconception", "shows \"{shown}\", the value of misconception \"{misconception}\"; a learner who typed it would read it as confirmation", {{"shown", shown}, {"misconception", m.id}})}));
        if (m.computed && close_enough(instance, m.value, instance.expected))
            report.warnings.push_back(tag({label, "misconceptions", message("quiz.check.misconception_hidden", "\"{misconception}\" gives an answer that is graded correct, so it is never shown", {{"misconception", m.id}})}));
    }
}

// A translation checked as its learners meet it: the item built in the translation's language, with
// that language's numbers. Its placeholders are the original's (validated), so what is left to
// check is what the translator wrote around them and how the language writes the answer: the
// explanation must not show a misconception's value as a figure of its own, and the expected
// answer as this language writes it must read back as correct. Seed 0 only: the draws are the
// original's, already checked. The problems are the translation's, so the item stays usable.
void check_translations_compute(const Value& item, std::size_t index, BankReport& report) {
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
        std::string expected_shown;
        bool expected_reads_back = true;
        std::vector<std::pair<std::string, std::string>> shown_misconceptions;  // figure, id
        {
            LanguageScope scope(language);
            Instance instance = build_instance(item, 0);
            if (!instance.ok() || instance.translation != tag) continue;  // broken: reported elsewhere
            expected_shown = expected_display(instance);
            json::Writer answer;
            answer.begin_object().field("text", expected_shown).end_object();
            const json::ParseResult graded = json::parse(quiz_grade_json(json::serialize(item), 0, answer.text()));
            expected_reads_back = graded.ok && text_of(graded.value.find("status")) == "correct";
            compute_misconceptions(item, instance);
            for (const auto& m : instance.misconceptions) {
                const std::string shown = quantity::format_in_unit(m.value, instance.unit);
                if (m.computed && !close_enough(instance, m.value, instance.expected) && shows_figure(instance.explanation, shown))
                    shown_misconceptions.emplace_back(shown, m.id);
            }
        }
        if (!expected_reads_back)
            report.errors.push_back({label, "translations." + tag,
                                     message("quiz.check.expected_not_correct", "the expected answer \"{expected}\" does not grade as correct", {{"expected", expected_shown}}), 0});
        for (const auto& [shown, id] : shown_misconceptions)
            report.errors.push_back({label, "translations." + tag + ".explanation",
                                     message("quiz.check.explanation_shows_misconception", "shows \"{shown}\", the value of misconception \"{misconception}\"; a learner who typed it would read it as confirmation", {{"shown", shown}, {"misconception", id}}), 0});
    }
}

std::string write_report(const BankReport& report, bool with_counts, int seeds) {
    json::Writer w;
    w.begin_object();
    w.field_bool("ok", report.errors.empty());
    w.key("items").integer(report.items);
    w.key("settings").begin_object();
    w.field("order", report.settings.shuffled ? "shuffled" : "fixed");
    w.key("draw");
    if (report.settings.draw > 0) w.integer(report.settings.draw); else w.null();
    w.key("pass_mark");
    if (report.settings.pass_mark >= 0) w.number(report.settings.pass_mark); else w.null();
    w.end_object();
    w.key("takeaways").begin_array();
    for (const auto& [id, text] : report.takeaways) w.begin_object().field("id", id).field("text", text).end_object();
    w.end_array();
    w.key("unusable").begin_array();
    for (std::size_t i = 0; i < report.unusable.size(); ++i)
        if (report.unusable[i]) w.integer(static_cast<long long>(i));
    w.end_array();
    if (with_counts) {
        w.key("numeric_items").integer(report.numeric_items);
        w.key("seeds").integer(seeds);
        w.field("instances_checked", report.instances_checked);
    }
    w.key("errors");
    write_problems(w, report.errors);
    if (with_counts) {
        w.key("warnings");
        write_problems(w, report.warnings);
    }
    w.end_object();
    return w.take();
}

}  // namespace

}  // namespace quiz_detail

using namespace quiz_detail;

std::string quiz_validate_bank_json(std::string_view bank_json) {
    BankReport report;
    const json::ParseResult parsed = json::parse(bank_json);
    if (!parsed.ok) {
        report.errors.push_back({"", parsed.path, message("quiz.bank.not_json", "the bank is not valid JSON: {error}", {{"error", parsed.error}})});
        return write_report(report, false, 0);
    }
    if (const Value* items = bank_items(parsed.value, report)) {
        for (std::size_t i = 0; i < items->items.size(); ++i) {
            const std::size_t errors_before = report.errors.size();
            check_computes(items->items[i], i, 0, report, false);
            if (report.errors.size() > errors_before) report.unusable[i] = true;
        }
    }
    return write_report(report, false, 0);
}

std::string quiz_check_bank_json(std::string_view bank_json, int seeds) {
    BankReport report;
    if (seeds < 0) seeds = 0;
    const json::ParseResult parsed = json::parse(bank_json);
    if (!parsed.ok) {
        report.errors.push_back({"", parsed.path, message("quiz.bank.not_json", "the bank is not valid JSON: {error}", {{"error", parsed.error}})});
        return write_report(report, true, seeds);
    }
    if (const Value* items = bank_items(parsed.value, report)) {
        for (std::size_t i = 0; i < items->items.size(); ++i) {
            const Value& item = items->items[i];
            const std::size_t errors_before = report.errors.size();
            check_computes(item, i, 0, report, true);
            if (report.errors.size() > errors_before) report.unusable[i] = true;
            check_translations_compute(item, i, report);
            if (!is_numeric_kind(text_of(item.find("kind")))) continue;
            for (int seed = 1; seed <= seeds; ++seed) {
                const std::size_t before = report.errors.size();
                check_computes(item, i, static_cast<std::uint32_t>(seed), report, true);
                if (report.errors.size() > before) break;  // one failing seed is enough to act on
            }
        }
    }
    return write_report(report, true, seeds);
}

}  // namespace trainscope
