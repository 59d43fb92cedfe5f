#include "engine/quiz/quiz.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "engine/api/api.hpp"
#include "engine/api/fit.hpp"
#include "engine/quiz/internal.hpp"
#include "engine/text/json.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {
namespace quiz_detail {

std::string text_of(const Value* value) { return value && value->kind == Kind::string ? value->text : std::string(); }

bool number_of(const Value* value, double& out) {
    if (!value || value->kind != Kind::number || !std::isfinite(value->number)) return false;
    out = value->number;
    return true;
}

Value object_value() {
    Value v;
    v.kind = Kind::object;
    return v;
}

Value number_value(double x) {
    Value v;
    v.kind = Kind::number;
    v.number = x;
    return v;
}

// Sets a dotted path in a JSON object, creating objects on the way ("model.params").
void set_path(Value& root, std::string_view path, const Value& value) {
    if (root.kind != Kind::object) root = object_value();
    Value* current = &root;
    while (true) {
        const std::size_t dot = path.find('.');
        const std::string key(path.substr(0, dot));
        Value* next = nullptr;
        for (auto& member : current->members)
            if (member.first == key) next = &member.second;
        if (!next) {
            current->members.emplace_back(key, Value{});
            next = &current->members.back().second;
        }
        if (dot == std::string_view::npos) {
            *next = value;
            return;
        }
        if (next->kind != Kind::object) *next = object_value();
        current = next;
        path = path.substr(dot + 1);
    }
}

namespace {

// JSON merge patch (RFC 7386, without null-deletes): objects merge member by member.
void merge(Value& base, const Value& patch) {
    if (patch.kind != Kind::object || base.kind != Kind::object) {
        base = patch;
        return;
    }
    for (const auto& member : patch.members) {
        Value* existing = nullptr;
        for (auto& m : base.members)
            if (m.first == member.first) existing = &m.second;
        if (existing)
            merge(*existing, member.second);
        else
            base.members.push_back(member);
    }
}

// "a.b + c.d": the sum of several numbers from the estimate.
std::vector<std::string> split_sum(const std::string& expression) {
    std::vector<std::string> parts;
    std::string current;
    for (const char c : expression + "+") {
        if (c == '+') {
            std::size_t a = 0, b = current.size();
            while (a < b && current[a] == ' ') ++a;
            while (b > a && current[b - 1] == ' ') --b;
            parts.push_back(current.substr(a, b - a));
            current.clear();
        } else {
            current += c;
        }
    }
    return parts;
}

}  // namespace

// A value the prompt or a misconception may name: the scenario as the engine resolved it
// (defaults filled in: "hardware.utilization"), then the estimate itself ("compute.flops").
const Value* lookup(const Value& estimate, std::string_view path) {
    if (const Value* scenario = estimate.find("scenario")) {
        if (const Value* found = scenario->find_path(path)) return found;
    }
    return estimate.find_path(path);
}

bool evaluate_sum(const Value& estimate, const std::string& expression, double& out, std::string& error) {
    out = 0.0;
    for (const auto& part : split_sum(expression)) {
        double term = 0.0;
        if (part.empty() || !number_of(estimate.find_path(part), term)) {
            error = message("quiz.instance.not_in_estimate",
                            "\"{path}\" is not a number in the estimate (docs/scenario.md lists its fields)",
                            {{"path", part}});
            return false;
        }
        out += term;
    }
    if (!std::isfinite(out)) {
        error = message("quiz.instance.sum_not_finite", "the sum is not finite");
        return false;
    }
    return true;
}

namespace {

// The engine's JSON answer, parsed, or the first error it reports.
bool read_answer(const std::string& answer_json, Value& out, std::string& error) {
    const json::ParseResult parsed = json::parse(answer_json);
    if (!parsed.ok) {
        error = message("quiz.instance.unreadable_estimate", "the engine returned unreadable JSON");
        return false;
    }
    out = parsed.value;
    const Value* errors = out.find("errors");
    if (errors && errors->kind == Kind::array && !errors->items.empty()) {
        const Value& first = errors->items.front();
        error = text_of(first.find("field")) + ": " + text_of(first.find("message"));
        return false;
    }
    return true;
}

// Whether a text or path names a value of the fit search: a path that starts "fit." or a term of a
// sum or a placeholder that does ("a + fit.x", "{fit.x}").
bool names_fit(const std::string& text) {
    for (std::size_t at = text.find("fit."); at != std::string::npos; at = text.find("fit.", at + 1)) {
        std::size_t before = at;
        while (before > 0 && text[before - 1] == ' ') --before;
        if (before == 0 || text[before - 1] == '{' || text[before - 1] == '+') return true;
    }
    return false;
}

}  // namespace

bool item_uses_fit(const Value& item) {
    if (item.kind == Kind::string) return names_fit(item.text);
    for (const Value& element : item.items)
        if (item_uses_fit(element)) return true;
    for (const auto& member : item.members)
        if (item_uses_fit(member.second)) return true;
    return false;
}

// The engine's verdict on a scenario: the parsed estimate, or the first error it reports. With
// `with_fit`, the fit search's answer for the same scenario (docs/scenario.md, "What fits") is the
// estimate's member "fit", so that answers, misconceptions and placeholders name its numbers as
// they name the estimate's ("fit.largest_micro_batch.value"). The search is the page's own: one
// layout listed, as its ranked list is not an answer a question asks for.
bool run_estimate(const Value& scenario, Value& estimate, std::string& error, bool with_fit) {
    const std::string scenario_json = json::serialize(scenario);
    if (!read_answer(estimate_json(scenario_json), estimate, error)) return false;
    if (!with_fit) return true;
    json::Writer input;
    input.begin_object().key("scenario").raw(scenario_json).field("max_layouts", 1.0).end_object();
    Value fit;
    if (!read_answer(fit_json(input.take()), fit, error)) return false;
    estimate.members.emplace_back("fit", std::move(fit));
    return true;
}

namespace {

std::string refused(const std::string& error) {
    return message("quiz.instance.engine_refuses", "the engine refuses it: {error}", {{"error", error}});
}

std::string unknown_placeholder(const std::string& name) {
    return message("quiz.instance.unknown_placeholder",
                   "placeholder {placeholder} names no value in the scenario or estimate",
                   {{"placeholder", "{" + name + "}"}});
}

// The translation the instance uses, as an object, or null for the item's own text.
const Value* translation_in_use(const Value& item, const Instance& instance) {
    if (instance.translation.empty()) return nullptr;
    const Value* translations = item.find("translations");
    return translations ? translations->find(instance.translation) : nullptr;
}

// The fit search's largest micro-batch and longest sequence are 0 when nothing fits: a question
// that asks for one must be asked where something does. The search's own reason says what overflows.
void check_something_fits(Instance& instance, const std::string& answer_path) {
    if (instance.expected != 0.0) return;
    for (const char* path : {"fit.largest_micro_batch.value", "fit.largest_sequence.value"}) {
        if (answer_path.find(path) == std::string::npos) continue;
        const Value* reasons = instance.estimate.find_path("fit.reasons");
        const std::string reason = reasons && !reasons->items.empty() ? text_of(reasons->items[0].find("message")) : "";
        instance.problems.push_back({instance.label, "answer.path",
                                     message("quiz.instance.nothing_fits",
                                             "the fit search finds nothing that fits here ({reason}): ask about a "
                                             "scenario where something does",
                                             {{"reason", reason}})});
        return;
    }
}

json::ParseResult parse_item(std::string_view item_json, std::vector<Problem>& problems) {
    json::ParseResult parsed = json::parse(item_json);
    if (!parsed.ok)
        problems.push_back(
            {"", parsed.path,
             message("quiz.instance.not_json", "the item is not valid JSON: {error}", {{"error", parsed.error}})});
    return parsed;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The item's texts in the language the instance is asked in. A translation in use was validated
// whole (schema.cpp), so every text it is asked for is there; the fallback to the item's own
// text is only a guard.

std::string item_text(const Value& item, const Instance& instance, const char* field) {
    if (const Value* translation = translation_in_use(item, instance))
        if (const Value* text = translation->find(field); text && text->kind == Kind::string) return text->text;
    return text_of(item.find(field));
}

std::string option_text(const Value& item, const Instance& instance, const Value& option, const char* field) {
    if (const Value* translation = translation_in_use(item, instance))
        if (const Value* options = translation->find("options"))
            if (const Value* translated = options->find(text_of(option.find("id"))))
                if (const Value* text = translated->find(field); text && text->kind == Kind::string) return text->text;
    return localize_numbers(text_of(option.find(field)));
}

std::string misconception_feedback(const Value& item, const Instance& instance, const Value& misconception) {
    if (const Value* translation = translation_in_use(item, instance))
        if (const Value* misconceptions = translation->find("misconceptions"))
            if (const Value* translated = misconceptions->find(text_of(misconception.find("id"))))
                if (const Value* text = translated->find("feedback"); text && text->kind == Kind::string)
                    return text->text;
    return text_of(misconception.find("feedback"));
}

// ---------------------------------------------------------------------------------------------
// One question, computed
bool close_enough(const Instance& instance, double answer, double target) {
    if (!std::isfinite(answer) || !std::isfinite(target)) return false;
    if (instance.kind == kind_estimate) {
        if (!(answer > 0.0) || !(target > 0.0)) return false;
        const double ratio = answer > target ? answer / target : target / answer;
        return ratio <= instance.tolerance_factor * (1.0 + 1e-9);
    }
    return std::fabs(answer - target) <= instance.tolerance * std::fabs(target) + 1e-12 * std::fabs(target);
}

Instance build_instance(const Value& item, std::uint32_t seed) {
    Instance instance;
    instance.label = item_label(item, 0);
    validate_item(item, instance.label, instance.problems);
    if (!instance.ok()) return instance;
    instance.kind = text_of(item.find("kind"));
    instance.takeaway = text_of(item.find("takeaway"));
    instance.set = item_set(item);
    instance.simulation = *item.find("simulation");
    instance.numeric = is_numeric_kind(instance.kind);
    instance.with_fit = item_uses_fit(item);
    instance.show = show_place(item, instance.numeric);

    std::vector<std::pair<std::string, Value>> drawn;
    if (instance.numeric) {
        instance.scenario = *item.find("scenario");
        draw(item, seed, instance.scenario, drawn);
        for (const auto& [path, value] : drawn)
            set_drawn(instance.simulation, path, value);  // "show me" shows the numbers asked about
        std::string error;
        if (!run_estimate(instance.scenario, instance.estimate, error, instance.with_fit)) {
            instance.problems.push_back({instance.label, "scenario", refused(error)});
            return instance;
        }
        const Value& answer = *item.find("answer");
        if (!evaluate_sum(instance.estimate, text_of(answer.find("path")), instance.expected, error)) {
            instance.problems.push_back({instance.label, "answer.path", error});
            return instance;
        }
        instance.unit_spelling = text_of(answer.find("unit"));
        quantity::find_unit(instance.unit_spelling, instance.unit);
        number_of(answer.find("tolerance"), instance.tolerance);
        number_of(answer.find("tolerance_factor"), instance.tolerance_factor);
        check_something_fits(instance, text_of(answer.find("path")));
        if (instance.kind == kind_estimate && !(instance.expected > 0.0))
            instance.problems.push_back(
                {instance.label, "answer.path",
                 message("quiz.instance.estimate_not_positive", "an estimate needs a positive expected value")});
    } else {
        // Choice items still fill placeholders from the simulation's estimate ("{params}").
        std::string error;
        if (!run_estimate(instance.simulation, instance.estimate, error, instance.with_fit)) {
            instance.problems.push_back({instance.label, "simulation", refused(error)});
            return instance;
        }
    }

    // A translation keeps the original's placeholders (validated), so whichever text is used
    // resolves the same names; the problems still name the item's own field.
    instance.translation = usable_translation(item);
    std::vector<std::string> unknown;
    const bool own_text = instance.translation.empty();
    instance.prompt = fill(item_text(item, instance, "prompt"), {instance.estimate, nullptr, own_text}, unknown);
    for (const auto& name : unknown) instance.problems.push_back({instance.label, "prompt", unknown_placeholder(name)});
    unknown.clear();
    const std::string stated_answer = instance.numeric ? answer_text(instance) : std::string();
    instance.explanation = fill(item_text(item, instance, "explanation"),
                                {instance.estimate, instance.numeric ? &stated_answer : nullptr, own_text}, unknown);
    for (const auto& name : unknown)
        instance.problems.push_back({instance.label, "explanation", unknown_placeholder(name)});
    return instance;
}

// Misconceptions are computed only when grading a wrong answer (each may need its own estimate).
void compute_misconceptions(const Value& item, Instance& instance) {
    const Value* list = item.find("misconceptions");
    if (!list || list->kind != Kind::array) return;
    const std::string answer_path = text_of(item.find("answer")->find("path"));
    for (std::size_t i = 0; i < list->items.size(); ++i) {
        const Value& m = list->items[i];
        Misconception result;
        result.id = text_of(m.find("id"));
        std::vector<std::string> unknown;
        result.feedback = fill(misconception_feedback(item, instance, m),
                               {instance.estimate, nullptr, instance.translation.empty()}, unknown);
        const std::string field = "misconceptions[" + std::to_string(i) + "]";
        Value estimate = instance.estimate;
        std::string error;
        if (const Value* overrides = m.find("overrides")) {
            Value scenario = instance.scenario;
            merge(scenario, *overrides);
            if (!run_estimate(scenario, estimate, error, instance.with_fit)) {
                instance.problems.push_back({instance.label, std::string(field) + ".overrides", refused(error)});
                instance.misconceptions.push_back(result);
                continue;
            }
        }
        const std::string path = m.find("path") ? text_of(m.find("path")) : answer_path;
        double value = 0.0;
        if (!evaluate_sum(estimate, path, value, error)) {
            instance.problems.push_back({instance.label, std::string(field) + ".path", error});
            instance.misconceptions.push_back(result);
            continue;
        }
        double factor = 1.0;
        if (number_of(m.find("factor"), factor)) value *= factor;
        double by = 0.0;
        if (m.find("multiply_by")) {
            if (!number_of(lookup(instance.estimate, text_of(m.find("multiply_by"))), by)) {
                instance.problems.push_back(
                    {instance.label, std::string(field) + ".multiply_by",
                     message("quiz.instance.multiply_by_unknown", "names no number in the scenario or estimate")});
                instance.misconceptions.push_back(result);
                continue;
            }
            value *= by;
        }
        if (m.find("divide_by")) {
            if (!number_of(lookup(instance.estimate, text_of(m.find("divide_by"))), by) || by == 0.0) {
                instance.problems.push_back({instance.label, std::string(field) + ".divide_by",
                                             message("quiz.instance.divide_by_unknown",
                                                     "names no non-zero number in the scenario or estimate")});
                instance.misconceptions.push_back(result);
                continue;
            }
            value /= by;
        }
        result.value = value;
        result.computed = std::isfinite(value);
        instance.misconceptions.push_back(result);
    }
}

std::string figure_text(const Instance& instance, double value) {
    return quantity::format_natural(value, instance.unit);
}

std::string answer_text(const Instance& instance) { return figure_text(instance, instance.expected); }

std::string expected_display(const Instance& instance) {
    const std::string shown = answer_text(instance);
    return instance.kind == kind_estimate ? message("quiz.expected.about", "about {answer}", {{"answer", shown}})
                                          : shown;
}

void write_problems(json::Writer& w, const std::vector<Problem>& problems) {
    w.begin_array();
    for (const auto& p : problems) {
        w.begin_object();
        w.field("item", p.item).field("field", p.field).field("message", p.message);
        if (p.seed >= 0) w.key("seed").integer(p.seed);
        w.end_object();
    }
    w.end_array();
}

LoadedItem load_item(std::string_view item_json, std::uint32_t seed) {
    LoadedItem item;
    item.parsed = parse_item(item_json, item.problems);
    if (item.parsed.ok) {
        item.instance = build_instance(item.parsed.value, seed);
        item.problems = item.instance.problems;
    }
    return item;
}

}  // namespace quiz_detail

using namespace quiz_detail;

// ---------------------------------------------------------------------------------------------

std::string quiz_instance_json(std::string_view item_json, std::uint32_t seed) {
    LoadedItem loaded = load_item(item_json, seed);
    const json::ParseResult& parsed = loaded.parsed;
    Instance& instance = loaded.instance;
    const std::vector<Problem>& problems = loaded.problems;
    json::Writer w;
    w.begin_object();
    w.field("id", instance.label).field("kind", instance.kind).field("takeaway", instance.takeaway);
    w.field("set", instance.set);
    w.field("seed", static_cast<double>(seed));
    w.field("prompt", instance.prompt);
    // Which translation the texts come from ("de"), or null for the item's own language: the page
    // marks the question's language (lang) so that a screen reader pronounces it right.
    w.key("translation");
    if (instance.translation.empty())
        w.null();
    else
        w.string(instance.translation);
    w.key("options").begin_array();
    if (parsed.ok && problems.empty() && !instance.numeric) {
        for (const auto& option : parsed.value.find("options")->items) {
            w.begin_object()
                .field("id", text_of(option.find("id")))
                .field("text", option_text(parsed.value, instance, option, "text"))
                .end_object();
        }
    }
    w.end_array();
    const bool usable = loaded.usable();
    w.key("scenario");
    if (usable && instance.numeric)
        w.raw(json::serialize(instance.scenario));
    else
        w.null();
    w.key("simulation");
    if (usable)
        w.raw(json::serialize(instance.simulation));
    else
        w.null();
    w.key("show");
    if (usable) {
        w.begin_object().field("section", instance.show.section).field("figure", instance.show.figure);
        if (!instance.show.moment.empty()) w.field("moment", instance.show.moment);
        // Whether the figure reads the very answer, or only holds it (the KV cache is part of the
        // running memory's total): the page then says which part of the figure is meant.
        if (instance.numeric) w.field_bool("answer_drawn", instance.show.answer_drawn);
        w.end_object();
    } else
        w.null();
    w.key("expected");
    if (usable && instance.numeric)
        w.number(instance.expected);
    else
        w.null();
    w.field("expected_display", usable && instance.numeric ? expected_display(instance) : std::string());
    w.field("unit", instance.unit_spelling)
        .field("unit_name", instance.numeric ? quantity::unit_name(instance.unit) : "")
        .field("unit_kind", instance.numeric ? quantity::unit_kind_name(instance.unit.kind) : "");
    w.key("tolerance");
    if (usable && instance.kind == kind_numeric)
        w.number(instance.tolerance);
    else
        w.null();
    w.key("tolerance_factor");
    if (usable && instance.kind == kind_estimate)
        w.number(instance.tolerance_factor);
    else
        w.null();
    w.key("errors");
    write_problems(w, problems);
    w.end_object();
    return w.take();
}

}  // namespace trainscope
