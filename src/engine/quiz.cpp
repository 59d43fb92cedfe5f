#include "engine/quiz.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "engine/api.hpp"
#include "engine/json.hpp"
#include "engine/quantity.hpp"

namespace trainscope {

namespace {

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

const char* const kind_single = "single_choice";
const char* const kind_multiple = "multiple_select";
const char* const kind_numeric = "numeric";
const char* const kind_estimate = "estimate";

bool is_choice_kind(const std::string& kind) { return kind == kind_single || kind == kind_multiple; }
bool is_numeric_kind(const std::string& kind) { return kind == kind_numeric || kind == kind_estimate; }

std::string text_of(const Value* value) {
    return value && value->kind == Kind::string ? value->text : std::string();
}

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
        if (existing) merge(*existing, member.second);
        else base.members.push_back(member);
    }
}

// ---------------------------------------------------------------------------------------------
// Deterministic draws: the same seed gives the same question natively and in wasm.

// splitmix64 (Steele, Lea & Flood 2014, "Fast splittable pseudorandom number generators";
// constants from Vigna's reference splitmix64.c). Integer-only, so identical on every platform.
std::uint64_t splitmix64(std::uint64_t& state) {
    state += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// FNV-1a, 64-bit (Fowler, Noll, Vo): mixes the item id in, so two items with the same seed
// draw different numbers.
std::uint64_t fnv1a(std::string_view text) {
    std::uint64_t hash = 0xCBF29CE484222325ULL;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001B3ULL;
    }
    return hash;
}

// A double in [0, 1) from the top 53 bits.
double unit_interval(std::uint64_t& state) {
    return static_cast<double>(splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

double power_of_ten(int exponent) {
    double result = 1.0;
    for (int i = 0; i < (exponent < 0 ? -exponent : exponent); ++i) result *= 10.0;
    return result;
}

// Two significant figures: 13,468,000,000 → 13,000,000,000 ("13 billion"). Scales by exact
// powers of ten so the result is the double nearest the decimal number.
double round_nice(double x) {
    if (!(x > 0.0) || !std::isfinite(x)) return x;
    const int order = static_cast<int>(std::floor(std::log10(x)));
    const int shift = order - 1;
    if (shift >= 0) return std::round(x / power_of_ten(shift)) * power_of_ten(shift);
    return std::round(x * power_of_ten(-shift)) / power_of_ten(-shift);
}

// ---------------------------------------------------------------------------------------------
// Reading the item

const char* const item_fields[] = {"id", "takeaway", "kind", "prompt", "options", "scenario", "randomize",
                                   "answer", "misconceptions", "explanation", "simulation", "source"};
const char* const option_fields[] = {"id", "text", "correct", "feedback", "misconception"};
const char* const randomize_fields[] = {"path", "distribution", "min", "max", "values", "round"};
const char* const answer_fields[] = {"path", "unit", "tolerance", "tolerance_factor"};
const char* const misconception_fields[] = {"id", "feedback", "path", "factor", "overrides", "multiply_by",
                                            "divide_by"};

template <std::size_t N>
void check_unknown_fields(const Value& object, const char* const (&allowed)[N], const std::string& item,
                          const std::string& prefix, std::vector<Problem>& problems) {
    for (const auto& member : object.members) {
        bool known = false;
        for (const char* name : allowed) known = known || member.first == name;
        if (!known)
            problems.push_back({item, prefix + member.first, "unknown field (a typo?); see docs/quiz.md"});
    }
}

std::string item_label(const Value& item, std::size_t index) {
    const std::string id = text_of(item.find("id"));
    if (!id.empty()) return id;
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "#%zu", index + 1);
    return buffer;
}

bool valid_id(const std::string& id) {
    if (id.empty() || id.size() > 64) return false;
    for (const char c : id) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        if (!ok) return false;
    }
    return true;
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
            error = "\"" + part + "\" is not a number in the estimate (docs/scenario.md lists its fields)";
            return false;
        }
        out += term;
    }
    if (!std::isfinite(out)) {
        error = "the sum is not finite";
        return false;
    }
    return true;
}

// The engine's verdict on a scenario: the parsed estimate, or the first error it reports.
bool run_estimate(const Value& scenario, Value& estimate, std::string& error) {
    const json::ParseResult parsed = json::parse(estimate_json(json::serialize(scenario)));
    if (!parsed.ok) {
        error = "the engine returned unreadable JSON";
        return false;
    }
    estimate = parsed.value;
    const Value* errors = estimate.find("errors");
    if (errors && errors->kind == Kind::array && !errors->items.empty()) {
        const Value& first = errors->items.front();
        error = text_of(first.find("field")) + ": " + text_of(first.find("message"));
        return false;
    }
    return true;
}

// How a value is written in a prompt: by an explicit format ("{x|TB}", "{x|count}") or, by
// default, by what the field measures.
std::string format_placeholder(const Value& value, const std::string& path, const std::string& format) {
    if (value.kind == Kind::string) return value.text;
    if (value.kind == Kind::boolean) return value.boolean ? "yes" : "no";
    if (value.kind != Kind::number) return "?";
    const double x = value.number;
    if (format == "count") return quantity::format_count(x);
    if (!format.empty()) {
        Unit unit;
        if (quantity::find_unit(format, unit)) return quantity::format_in_unit(x, unit);
    }
    const std::size_t dot = path.rfind('.');
    const std::string leaf = dot == std::string::npos ? path : path.substr(dot + 1);
    auto is = [&](std::initializer_list<const char*> names) {
        for (const char* name : names)
            if (leaf == name) return true;
        return false;
    };
    if (path.find("bytes_per_param") != std::string::npos) return quantity::format_significant(x) + " bytes";
    if (is({"utilization", "mfu", "recompute_overhead"})) return quantity::format_auto(x, UnitKind::percent);
    if (is({"flops", "hardware_flops"})) return quantity::format_auto(x, UnitKind::compute);
    if (is({"peak_flops"})) return quantity::format_auto(x, UnitKind::rate);
    if (is({"seconds", "seconds_on_one_gpu"})) return quantity::format_auto(x, UnitKind::time);
    if (is({"memory_bytes", "weights", "gradients", "master_weights", "optimizer_states", "activations", "logits",
            "total", "kv_cache", "activations_per_layer", "activations_without_recompute"}))
        return quantity::format_auto(x, UnitKind::memory);
    return quantity::format_count(x);
}

// Replaces each {path} or {path|format}; unknown names are reported, not guessed.
std::string fill(const std::string& text, const Value& estimate, std::vector<std::string>& unknown) {
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t open = text.find('{', i);
        if (open == std::string::npos) break;
        const std::size_t close = text.find('}', open);
        if (close == std::string::npos) break;
        out += text.substr(i, open - i);
        const std::string inside = text.substr(open + 1, close - open - 1);
        const std::size_t bar = inside.find('|');
        const std::string path = inside.substr(0, bar);
        const std::string format = bar == std::string::npos ? std::string() : inside.substr(bar + 1);
        const Value* value = lookup(estimate, path);
        if (value && (value->kind == Kind::number || value->kind == Kind::string || value->kind == Kind::boolean)) {
            out += format_placeholder(*value, path, format);
        } else {
            unknown.push_back(path);
            out += text.substr(open, close - open + 1);
        }
        i = close + 1;
    }
    out += text.substr(i);
    return out;
}

// ---------------------------------------------------------------------------------------------
// Validation of one item (schema only; computing it is `build_instance`)

void validate_options(const Value& item, const std::string& label, const std::string& kind,
                      std::vector<Problem>& problems) {
    const Value* options = item.find("options");
    if (!options || options->kind != Kind::array || options->items.size() < 2) {
        problems.push_back({label, "options", "a choice item needs an array of at least two options"});
        return;
    }
    int correct = 0;
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < options->items.size(); ++i) {
        const Value& option = options->items[i];
        char prefix[48];
        std::snprintf(prefix, sizeof prefix, "options[%zu].", i);
        if (!option.is_object()) {
            problems.push_back({label, std::string(prefix, std::strlen(prefix) - 1), "must be an object"});
            continue;
        }
        check_unknown_fields(option, option_fields, label, prefix, problems);
        const std::string id = text_of(option.find("id"));
        if (!valid_id(id)) problems.push_back({label, std::string(prefix) + "id", "must be a short id: a-z, 0-9, - or _"});
        for (const auto& seen : ids)
            if (seen == id && !id.empty()) problems.push_back({label, std::string(prefix) + "id", "repeats another option's id"});
        ids.push_back(id);
        if (text_of(option.find("text")).empty())
            problems.push_back({label, std::string(prefix) + "text", "must be a non-empty string"});
        if (text_of(option.find("feedback")).empty())
            problems.push_back({label, std::string(prefix) + "feedback", "must say why this option is right or wrong"});
        const Value* is_correct = option.find("correct");
        if (!is_correct || is_correct->kind != Kind::boolean)
            problems.push_back({label, std::string(prefix) + "correct", "must be true or false"});
        else if (is_correct->boolean)
            ++correct;
        const Value* misconception = option.find("misconception");
        if (misconception && !valid_id(text_of(misconception)))
            problems.push_back({label, std::string(prefix) + "misconception", "must be a short id"});
    }
    if (kind == kind_single && correct != 1)
        problems.push_back({label, "options", "a single_choice item needs exactly one correct option"});
    if (kind == kind_multiple && correct < 1)
        problems.push_back({label, "options", "a multiple_select item needs at least one correct option"});
}

// Calls check(element, "name[i].") for each object in the array `name`; reports a missing-array
// shape or a non-object element under the item's label. Absent arrays are fine.
template <typename Check>
void for_each_object_in(const Value& item, const char* name, const std::string& label, std::vector<Problem>& problems,
                        const char* array_hint, Check check) {
    const Value* array = item.find(name);
    if (!array) return;
    if (array->kind != Kind::array) {
        problems.push_back({label, name, array_hint});
        return;
    }
    for (std::size_t i = 0; i < array->items.size(); ++i) {
        char prefix[64];
        std::snprintf(prefix, sizeof prefix, "%s[%zu].", name, i);
        const std::string p(prefix);
        if (!array->items[i].is_object()) {
            problems.push_back({label, p.substr(0, p.size() - 1), "must be an object"});
            continue;
        }
        check(array->items[i], p);
    }
}

void validate_randomize(const Value& item, const std::string& label, std::vector<Problem>& problems) {
    for_each_object_in(item, "randomize", label, problems, "must be an array of {path, distribution, …}",
                       [&](const Value& draw, const std::string& p) {
        check_unknown_fields(draw, randomize_fields, label, p, problems);
        if (text_of(draw.find("path")).empty())
            problems.push_back({label, p + "path", "must name a scenario field, e.g. \"model.params\""});
        const std::string distribution = text_of(draw.find("distribution"));
        double low = 0.0, high = 0.0;
        if (distribution == "log_uniform" || distribution == "uniform") {
            const bool has_range = number_of(draw.find("min"), low) && number_of(draw.find("max"), high);
            if (!has_range || !(low < high))
                problems.push_back({label, p + "min", "needs numbers min < max"});
            else if (distribution == "log_uniform" && !(low > 0.0))
                problems.push_back({label, p + "min", "log_uniform needs min > 0"});
        } else if (distribution == "choice") {
            const Value* values = draw.find("values");
            if (!values || values->kind != Kind::array || values->items.empty())
                problems.push_back({label, p + "values", "choice needs a non-empty array of values"});
        } else {
            problems.push_back({label, p + "distribution", "must be \"log_uniform\", \"uniform\" or \"choice\""});
        }
        const Value* round = draw.find("round");
        if (round) {
            const std::string r = text_of(round);
            if (r != "nice" && r != "integer" && r != "power_of_two" && r != "none")
                problems.push_back({label, p + "round", "must be \"nice\", \"integer\", \"power_of_two\" or \"none\""});
        }
    });
}

void validate_numeric(const Value& item, const std::string& label, const std::string& kind,
                      std::vector<Problem>& problems) {
    const Value* scenario = item.find("scenario");
    if (!scenario || !scenario->is_object())
        problems.push_back({label, "scenario", "a numeric item needs a scenario object (docs/scenario.md)"});
    const Value* answer = item.find("answer");
    if (!answer || !answer->is_object()) {
        problems.push_back({label, "answer", "a numeric item needs an answer {path, unit, tolerance}"});
    } else {
        check_unknown_fields(*answer, answer_fields, label, "answer.", problems);
        if (text_of(answer->find("path")).empty())
            problems.push_back({label, "answer.path", "must name a number in the estimate, e.g. \"compute.flops\""});
        Unit unit;
        const Value* unit_text = answer->find("unit");
        if (!unit_text || unit_text->kind != Kind::string || !quantity::find_unit(unit_text->text, unit))
            problems.push_back({label, "answer.unit", "must be a unit the parser knows (\"TB\", \"days\", \"FLOPs\", \"%\", \"GPUs\", \"\")"});
        double tolerance = 0.0;
        if (kind == kind_numeric) {
            if (!number_of(answer->find("tolerance"), tolerance) || !(tolerance > 0.0 && tolerance <= 0.5))
                problems.push_back({label, "answer.tolerance", "a numeric item needs a relative tolerance in (0, 0.5]"});
            if (answer->find("tolerance_factor"))
                problems.push_back({label, "answer.tolerance_factor", "only estimate items use tolerance_factor"});
        } else {
            if (!number_of(answer->find("tolerance_factor"), tolerance) || !(tolerance > 1.0 && tolerance <= 10.0))
                problems.push_back({label, "answer.tolerance_factor", "an estimate item needs a factor in (1, 10]"});
            if (answer->find("tolerance"))
                problems.push_back({label, "answer.tolerance", "estimate items use tolerance_factor"});
        }
    }
    validate_randomize(item, label, problems);
    for_each_object_in(item, "misconceptions", label, problems, "must be an array",
                       [&](const Value& m, const std::string& p) {
        check_unknown_fields(m, misconception_fields, label, p, problems);
        if (!valid_id(text_of(m.find("id"))))
            problems.push_back({label, p + "id", "must be a short id: a-z, 0-9, - or _"});
        if (text_of(m.find("feedback")).empty())
            problems.push_back({label, p + "feedback", "must say what the learner probably did"});
        double factor = 1.0;
        if (m.find("factor") && (!number_of(m.find("factor"), factor) || !(factor > 0.0)))
            problems.push_back({label, p + "factor", "must be a positive number"});
        if (!m.find("factor") && !m.find("path") && !m.find("overrides") && !m.find("multiply_by") &&
            !m.find("divide_by"))
            problems.push_back({label, p.substr(0, p.size() - 1),
                                "needs at least one of factor, path, overrides, multiply_by, divide_by"});
        const Value* overrides = m.find("overrides");
        if (overrides && !overrides->is_object())
            problems.push_back({label, p + "overrides", "must be a scenario object to merge"});
    });
    if (item.find("options")) problems.push_back({label, "options", "only choice items have options"});
}

void validate_item(const Value& item, const std::string& label, std::vector<Problem>& problems) {
    if (!item.is_object()) {
        problems.push_back({label, "", "an item must be a JSON object"});
        return;
    }
    check_unknown_fields(item, item_fields, label, "", problems);
    if (!valid_id(text_of(item.find("id"))))
        problems.push_back({label, "id", "must be a short id: a-z, 0-9, - or _ (at most 64)"});
    if (text_of(item.find("takeaway")).empty())
        problems.push_back({label, "takeaway", "must name the key takeaway this item checks"});
    if (text_of(item.find("prompt")).empty()) problems.push_back({label, "prompt", "must be a non-empty string"});
    if (text_of(item.find("explanation")).empty())
        problems.push_back({label, "explanation", "must explain the answer"});
    const Value* simulation = item.find("simulation");
    if (!simulation || !simulation->is_object())
        problems.push_back({label, "simulation", "must be a scenario object for \"show me in the simulation\""});
    const std::string kind = text_of(item.find("kind"));
    if (is_choice_kind(kind)) {
        validate_options(item, label, kind, problems);
        for (const char* field : {"scenario", "randomize", "answer", "misconceptions"})
            if (item.find(field)) problems.push_back({label, field, "only numeric and estimate items have this field"});
    } else if (is_numeric_kind(kind)) {
        validate_numeric(item, label, kind, problems);
    } else {
        problems.push_back({label, "kind", "must be single_choice, multiple_select, numeric or estimate"});
    }
}

// ---------------------------------------------------------------------------------------------
// One question, computed

struct Misconception {
    std::string id;
    std::string feedback;
    double value = 0.0;
    bool computed = false;
};

struct Instance {
    std::vector<Problem> problems;
    std::string label, kind, takeaway;
    std::string prompt, explanation;
    Value scenario, simulation, estimate;
    bool numeric = false;
    double expected = 0.0;
    Unit unit;
    std::string unit_spelling;
    double tolerance = 0.0;         // numeric: relative
    double tolerance_factor = 0.0;  // estimate: geometric
    std::vector<Misconception> misconceptions;
    bool ok() const { return problems.empty(); }
};

// Draws the item's randomised fields from the seed; seed 0 leaves the scenario as authored.
void draw(const Value& item, std::uint32_t seed, std::vector<std::pair<std::string, Value>>& drawn) {
    const Value* randomize = item.find("randomize");
    if (seed == 0 || !randomize || randomize->kind != Kind::array) return;
    std::uint64_t state = (static_cast<std::uint64_t>(seed) * 0x9E3779B97F4A7C15ULL) ^ fnv1a(text_of(item.find("id")));
    for (const Value& entry : randomize->items) {
        const std::string path = text_of(entry.find("path"));
        const std::string distribution = text_of(entry.find("distribution"));
        const std::string round = entry.find("round") ? text_of(entry.find("round")) : std::string("nice");
        const double u = unit_interval(state);
        if (distribution == "choice") {
            const Value* values = entry.find("values");
            const double count = static_cast<double>(values->items.size());
            std::size_t index = static_cast<std::size_t>(std::floor(u * count));
            if (index >= values->items.size()) index = values->items.size() - 1;
            drawn.emplace_back(path, values->items[index]);
            continue;
        }
        double low = 0.0, high = 0.0;
        number_of(entry.find("min"), low);
        number_of(entry.find("max"), high);
        double x = distribution == "log_uniform" ? std::exp(std::log(low) + u * (std::log(high) - std::log(low)))
                                                 : low + u * (high - low);
        if (round == "nice") x = round_nice(x);
        else if (round == "integer") x = std::round(x);
        else if (round == "power_of_two") x = std::exp2(std::round(std::log2(x)));
        if (x < low) x = low;
        if (x > high) x = high;
        drawn.emplace_back(path, number_value(x));
    }
}

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
    instance.simulation = *item.find("simulation");
    instance.numeric = is_numeric_kind(instance.kind);

    std::vector<std::pair<std::string, Value>> drawn;
    if (instance.numeric) {
        instance.scenario = *item.find("scenario");
        draw(item, seed, drawn);
        for (const auto& [path, value] : drawn) {
            set_path(instance.scenario, path, value);
            set_path(instance.simulation, path, value);  // "show me" shows the numbers asked about
        }
        std::string error;
        if (!run_estimate(instance.scenario, instance.estimate, error)) {
            instance.problems.push_back({instance.label, "scenario", "the engine refuses it: " + error});
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
        if (instance.kind == kind_estimate && !(instance.expected > 0.0))
            instance.problems.push_back({instance.label, "answer.path", "an estimate needs a positive expected value"});
    } else {
        // Choice items still fill placeholders from the simulation's estimate ("{params}").
        std::string error;
        if (!run_estimate(instance.simulation, instance.estimate, error)) {
            instance.problems.push_back({instance.label, "simulation", "the engine refuses it: " + error});
            return instance;
        }
    }

    std::vector<std::string> unknown;
    instance.prompt = fill(text_of(item.find("prompt")), instance.estimate, unknown);
    for (const auto& name : unknown)
        instance.problems.push_back({instance.label, "prompt", "placeholder {" + name + "} names no value in the scenario or estimate"});
    unknown.clear();
    instance.explanation = fill(text_of(item.find("explanation")), instance.estimate, unknown);
    for (const auto& name : unknown)
        instance.problems.push_back({instance.label, "explanation", "placeholder {" + name + "} names no value in the scenario or estimate"});
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
        result.feedback = fill(text_of(m.find("feedback")), instance.estimate, unknown);
        char field[48];
        std::snprintf(field, sizeof field, "misconceptions[%zu]", i);
        Value estimate = instance.estimate;
        std::string error;
        if (const Value* overrides = m.find("overrides")) {
            Value scenario = instance.scenario;
            merge(scenario, *overrides);
            if (!run_estimate(scenario, estimate, error)) {
                instance.problems.push_back({instance.label, std::string(field) + ".overrides", "the engine refuses it: " + error});
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
                instance.problems.push_back({instance.label, std::string(field) + ".multiply_by", "names no number in the scenario or estimate"});
                instance.misconceptions.push_back(result);
                continue;
            }
            value *= by;
        }
        if (m.find("divide_by")) {
            if (!number_of(lookup(instance.estimate, text_of(m.find("divide_by"))), by) || by == 0.0) {
                instance.problems.push_back({instance.label, std::string(field) + ".divide_by", "names no non-zero number in the scenario or estimate"});
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

std::string expected_display(const Instance& instance) {
    const std::string shown = quantity::format_in_unit(instance.expected, instance.unit);
    return instance.kind == kind_estimate ? "about " + shown : shown;
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

json::ParseResult parse_item(std::string_view item_json, std::vector<Problem>& problems) {
    json::ParseResult parsed = json::parse(item_json);
    if (!parsed.ok) problems.push_back({"", "", "the item is not valid JSON: " + parsed.error});
    return parsed;
}

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

std::string ratio_hint(double answer, double expected) {
    if (answer < 0.0 && expected > 0.0) return "Not quite: this amount cannot be negative.";
    if (!(answer > 0.0) || !(expected > 0.0)) return "Not quite.";
    const double ratio = answer > expected ? answer / expected : expected / answer;
    if (ratio >= 1000.0)
        return std::string("Not quite: your answer is more than 1,000\u00D7 too ") + (answer > expected ? "high" : "low") +
               ". Check the unit and the powers of ten.";
    return "Not quite: your answer is about " + quantity::format_significant(ratio, 2) + "\u00D7 too " +
           (answer > expected ? "high." : "low.");
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
            grade.message = "Close, but that number is in binary units (1 GiB = 2^30 bytes) labelled with a decimal "
                            "unit (1 GB = 10^9 bytes). Divide the bytes by 10^9 for GB, or write GiB.";
            return true;
        }
    }
    if (kind == UnitKind::memory && parsed.has_unit && parsed.unit.binary) {
        const double k = std::round(std::log2(parsed.unit.factor) / 10.0);
        const double decimal_factor = power_of_ten(static_cast<int>(3.0 * k));
        if (close_enough(instance, value * decimal_factor / parsed.unit.factor, instance.expected)) {
            grade.misconception = "gb_vs_gib";
            grade.message = "Close, but that number is in decimal units (GB = 10^9 bytes) labelled with a binary "
                            "unit (GiB = 2^30 bytes). Write GB, or divide the bytes by 2^30.";
            return true;
        }
    }
    // A prefix slip: GB for TB, seconds for days and so on.
    if (parsed.has_unit && (kind == UnitKind::memory || kind == UnitKind::compute || kind == UnitKind::rate)) {
        for (const double step : {1e3, 1e6, 1e-3, 1e-6}) {
            if (close_enough(instance, value * step, instance.expected)) {
                grade.misconception = "unit_prefix";
                grade.message = "Your digits are right but the size is off by a factor of " +
                                quantity::format_count(step >= 1.0 ? step : 1.0 / step) +
                                ": check the unit prefix (k, M, G, T, P).";
                return true;
            }
        }
    }
    return false;
}

Grade grade_numeric(const Value& item, Instance& instance, const Value& answer) {
    Grade grade;
    const Value* text = answer.find("text");
    if (!text || text->kind != Kind::string) {
        grade.status = "not_a_number";
        grade.message = "Type an answer, for example 1.1 TB.";
        return grade;
    }
    // Read as the question's kind: where a count is asked for, "70B" is 70 billion.
    const quantity::Parsed parsed = quantity::parse(text->text, instance.unit.kind);
    if (!parsed.ok) {
        grade.status = "not_a_number";
        grade.message = parsed.error;
        return grade;
    }
    const Unit& unit = instance.unit;
    // A bare number is read in the question's unit; "8x" and "8" are the same plain number.
    if (parsed.has_unit && parsed.kind != unit.kind) {
        grade.status = "wrong_unit";
        grade.message = std::string("That is ") + quantity::unit_kind_phrase(parsed.kind) + "; the question asks for " +
                        quantity::unit_kind_phrase(unit.kind) + ".";
        return grade;
    }
    const double scale = parsed.has_unit ? 1.0 : unit.factor;
    const double value = parsed.value * scale;
    grade.has_answer_value = true;
    grade.answer_value = value;
    grade.answer_display = quantity::format_in_unit(value, unit);
    grade.counts_as_attempt = true;
    if (close_enough(instance, value, instance.expected)) {
        grade.status = "correct";
        grade.message = "Correct: " + expected_display(instance) + ".";
        return grade;
    }
    if (parsed.has_alternative && close_enough(instance, parsed.alternative_value * scale, instance.expected)) {
        grade.status = "correct";
        grade.answer_value = parsed.alternative_value * scale;
        grade.answer_display = quantity::format_in_unit(grade.answer_value, unit);
        grade.message = "Correct: " + expected_display(instance) + " (I read your number as " + grade.answer_display + ").";
        return grade;
    }
    grade.status = "incorrect";
    // A binary unit written on decimal digits ("1.12 TiB" for 1.12 TB) explains the gap better
    // than any coincidence with an item's misconception, so it is checked first.
    if (parsed.has_unit && parsed.unit.binary && built_in_misconception(instance, parsed, value, grade)) return grade;
    compute_misconceptions(item, instance);
    for (const auto& m : instance.misconceptions) {
        if (m.computed && close_enough(instance, value, m.value)) {
            grade.misconception = m.id;
            grade.message = m.feedback;
            return grade;
        }
    }
    if (!parsed.has_unit && unit.kind != UnitKind::number && unit.kind != UnitKind::gpus) {
        // Right digits in another unit of the same kind: ask for the unit, don't count the attempt.
        static const char* const spellings[] = {"bytes", "KB", "MB", "GB", "TB", "PB", "seconds", "minutes", "hours",
                                                "days", "weeks", "months", "years", "FLOPs", "%"};
        for (const char* spelling : spellings) {
            Unit other;
            quantity::find_unit(spelling, other);
            if (other.kind != unit.kind || other.factor == unit.factor) continue;
            if (close_enough(instance, parsed.value * other.factor, instance.expected)) {
                grade.status = "wrong_unit";
                grade.counts_as_attempt = false;
                grade.misconception = "missing_unit";
                grade.message = "Which unit? The question asks in " + instance.unit_spelling +
                                ", and a bare number is read in " + instance.unit_spelling + ". Type the unit you used.";
                return grade;
            }
        }
    }
    if (!parsed.has_unit && unit.kind == UnitKind::percent && close_enough(instance, parsed.value, instance.expected)) {
        grade.status = "wrong_unit";
        grade.counts_as_attempt = false;
        grade.misconception = "fraction_for_percent";
        grade.message = "A bare number is read as a percentage here, so that is " + grade.answer_display +
                        ". If you meant a fraction of one, write it as a percentage with %.";
        return grade;
    }
    if (built_in_misconception(instance, parsed, value, grade)) return grade;
    grade.message = ratio_hint(value, instance.expected);
    return grade;
}

Grade grade_choice(const Value& item, const Value& answer, json::Writer& options_out, std::string& expected_text) {
    Grade grade;
    const Value* choices = answer.find("choices");
    const Value& options = *item.find("options");
    const bool single = text_of(item.find("kind")) == kind_single;
    std::vector<std::string> selected;
    bool well_formed = choices && choices->kind == Kind::array;
    if (well_formed) {
        for (const auto& c : choices->items) {
            bool known = false;
            for (const auto& option : options.items) known = known || (c.kind == Kind::string && text_of(option.find("id")) == c.text);
            if (!known) well_formed = false;
            else selected.push_back(c.text);
        }
    }
    for (const auto& option : options.items) {
        const Value* correct = option.find("correct");
        if (correct && correct->boolean) {
            if (!expected_text.empty()) expected_text += "; ";
            expected_text += text_of(option.find("text"));
        }
    }
    options_out.begin_array();
    if (!well_formed || selected.empty() || (single && selected.size() > 1)) {
        options_out.end_array();
        grade.status = "no_answer";
        grade.message = !well_formed ? "That answer names an option this question does not have."
                        : selected.empty() ? "Pick an option first."
                                           : "Pick just one option.";
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
        const std::string feedback = text_of(option.find("feedback"));
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
                wrong_feedback += single ? feedback : "\u201C" + text_of(option.find("text")) + "\u201D: " + feedback;
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
    if (all_right) grade.message = single ? "Correct: " + grade.message : "Correct: you found every right option.";
    else grade.message = wrong_feedback;
    if (!all_right && !single && missed > 0) {
        if (!grade.message.empty()) grade.message += " ";
        grade.message += missed == 1 ? std::string("One right option is still unselected.")
                                     : std::to_string(missed) + " right options are still unselected.";
    }
    return grade;
}

// An item read from its JSON and instantiated for a seed, with every problem found on the way.
struct LoadedItem {
    json::ParseResult parsed;
    Instance instance;
    std::vector<Problem> problems;
    bool usable() const { return parsed.ok && problems.empty(); }
};

LoadedItem load_item(std::string_view item_json, std::uint32_t seed) {
    LoadedItem item;
    item.parsed = parse_item(item_json, item.problems);
    if (item.parsed.ok) {
        item.instance = build_instance(item.parsed.value, seed);
        item.problems = item.instance.problems;
    }
    return item;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

std::string quiz_instance_json(std::string_view item_json, std::uint32_t seed) {
    LoadedItem loaded = load_item(item_json, seed);
    const json::ParseResult& parsed = loaded.parsed;
    Instance& instance = loaded.instance;
    const std::vector<Problem>& problems = loaded.problems;
    json::Writer w;
    w.begin_object();
    w.field("id", instance.label).field("kind", instance.kind).field("takeaway", instance.takeaway);
    w.field("seed", static_cast<double>(seed));
    w.field("prompt", instance.prompt);
    w.key("options").begin_array();
    if (parsed.ok && problems.empty() && !instance.numeric) {
        for (const auto& option : parsed.value.find("options")->items) {
            w.begin_object().field("id", text_of(option.find("id"))).field("text", text_of(option.find("text"))).end_object();
        }
    }
    w.end_array();
    const bool usable = loaded.usable();
    w.key("scenario");
    if (usable && instance.numeric) w.raw(json::serialize(instance.scenario));
    else w.null();
    w.key("simulation");
    if (usable) w.raw(json::serialize(instance.simulation));
    else w.null();
    w.key("expected");
    if (usable && instance.numeric) w.number(instance.expected);
    else w.null();
    w.field("expected_display", usable && instance.numeric ? expected_display(instance) : std::string());
    w.field("unit", instance.unit_spelling).field("unit_kind", instance.numeric ? quantity::unit_kind_name(instance.unit.kind) : "");
    w.key("tolerance");
    if (usable && instance.kind == kind_numeric) w.number(instance.tolerance);
    else w.null();
    w.key("tolerance_factor");
    if (usable && instance.kind == kind_estimate) w.number(instance.tolerance_factor);
    else w.null();
    w.key("errors");
    write_problems(w, problems);
    w.end_object();
    return w.take();
}

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
        grade.message = "This question is broken: " +
                        (problems.empty() ? std::string("unknown problem")
                                          : problems.front().field + " " + problems.front().message);
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
            grade = grade_choice(parsed.value, answer_value, options, expected_text);
        }
    }
    json::Writer w;
    w.begin_object();
    w.field("status", grade.status).field_bool("counts_as_attempt", grade.counts_as_attempt);
    w.field("message", grade.message);
    w.key("misconception");
    if (grade.misconception.empty()) w.null();
    else w.string(grade.misconception);
    w.key("expected");
    if (usable && instance.numeric) w.number(instance.expected);
    else w.null();
    w.field("expected_display", expected_text);
    w.key("answer_value");
    if (grade.has_answer_value) w.number(grade.answer_value);
    else w.null();
    w.field("answer_display", grade.answer_display);
    w.field("explanation", usable ? instance.explanation : std::string());
    w.key("options").raw(options.text());
    w.key("errors");
    write_problems(w, problems);
    w.end_object();
    return w.take();
}

namespace {

struct BankReport {
    std::vector<Problem> errors, warnings;
    int items = 0, numeric_items = 0;
    double instances_checked = 0;
};

const Value* bank_items(const Value& bank, BankReport& report) {
    if (!bank.is_object()) {
        report.errors.push_back({"", "", "the bank must be an object {version, takeaways, items}"});
        return nullptr;
    }
    for (const auto& member : bank.members) {
        if (member.first != "version" && member.first != "takeaways" && member.first != "items" && member.first != "$comment")
            report.errors.push_back({"", member.first, "unknown field (a typo?); see docs/quiz.md"});
    }
    double version = 0.0;
    if (!number_of(bank.find("version"), version) || version != 1.0)
        report.errors.push_back({"", "version", "must be 1"});
    std::vector<std::string> takeaways;
    const Value* takeaway_list = bank.find("takeaways");
    if (!takeaway_list || takeaway_list->kind != Kind::array || takeaway_list->items.empty()) {
        report.errors.push_back({"", "takeaways", "must list the lesson's takeaways as [{id, text}]"});
    } else {
        for (std::size_t i = 0; i < takeaway_list->items.size(); ++i) {
            const Value& t = takeaway_list->items[i];
            char field[32];
            std::snprintf(field, sizeof field, "takeaways[%zu]", i);
            const std::string id = text_of(t.find("id"));
            if (!valid_id(id) || text_of(t.find("text")).empty())
                report.errors.push_back({"", field, "needs an id (a-z, 0-9, -, _) and a text"});
            takeaways.push_back(id);
        }
    }
    const Value* items = bank.find("items");
    if (!items || items->kind != Kind::array || items->items.empty()) {
        report.errors.push_back({"", "items", "must be a non-empty array of items"});
        return nullptr;
    }
    std::vector<std::string> ids;
    std::vector<int> covered(takeaways.size(), 0);
    for (std::size_t i = 0; i < items->items.size(); ++i) {
        const Value& item = items->items[i];
        const std::string label = item_label(item, i);
        ++report.items;
        validate_item(item, label, report.errors);
        const std::string id = text_of(item.find("id"));
        for (const auto& seen : ids)
            if (!id.empty() && seen == id) report.errors.push_back({label, "id", "repeats another item's id"});
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
            report.errors.push_back({label, "takeaway", "is not one of the bank's takeaways"});
        if (is_numeric_kind(text_of(item.find("kind")))) ++report.numeric_items;
    }
    for (std::size_t t = 0; t < takeaways.size(); ++t) {
        if (covered[t] == 0) report.errors.push_back({"", "takeaways", "no item checks the takeaway \"" + takeaways[t] + "\""});
    }
    return items;
}

// Computes an item as authored (seed 0) and, for simulation, checks that the engine accepts it.
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
            report.errors.push_back({label, "simulation", "the engine refuses it: " + error, 0});
    }
    if (!deep || !instance.numeric) return;
    // The answer we show must itself be graded correct (display and parser agree).
    json::Writer answer;
    answer.begin_object().field("text", expected_display(instance)).end_object();
    const json::ParseResult graded = json::parse(quiz_grade_json(json::serialize(item), seed, answer.text()));
    if (!graded.ok || text_of(graded.value.find("status")) != "correct")
        report.errors.push_back(tag({label, "answer", "the expected answer \"" + expected_display(instance) +
                                                          "\" does not grade as correct"}));
    compute_misconceptions(item, instance);
    for (const auto& p : instance.problems) report.errors.push_back(tag(p));
    for (const auto& m : instance.misconceptions) {
        if (m.computed && close_enough(instance, m.value, instance.expected))
            report.warnings.push_back(tag({label, "misconceptions", "\"" + m.id + "\" gives an answer that is graded correct, so it is never shown"}));
    }
}

std::string write_report(const BankReport& report, bool with_counts, int seeds) {
    json::Writer w;
    w.begin_object();
    w.field_bool("ok", report.errors.empty());
    w.key("items").integer(report.items);
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

std::string quiz_validate_bank_json(std::string_view bank_json) {
    BankReport report;
    const json::ParseResult parsed = json::parse(bank_json);
    if (!parsed.ok) {
        report.errors.push_back({"", "", "the bank is not valid JSON: " + parsed.error});
        return write_report(report, false, 0);
    }
    if (const Value* items = bank_items(parsed.value, report)) {
        for (std::size_t i = 0; i < items->items.size(); ++i) check_computes(items->items[i], i, 0, report, false);
    }
    return write_report(report, false, 0);
}

std::string quiz_check_bank_json(std::string_view bank_json, int seeds) {
    BankReport report;
    if (seeds < 0) seeds = 0;
    const json::ParseResult parsed = json::parse(bank_json);
    if (!parsed.ok) {
        report.errors.push_back({"", "", "the bank is not valid JSON: " + parsed.error});
        return write_report(report, true, seeds);
    }
    if (const Value* items = bank_items(parsed.value, report)) {
        for (std::size_t i = 0; i < items->items.size(); ++i) {
            const Value& item = items->items[i];
            check_computes(item, i, 0, report, true);
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

std::string quiz_read_quantity_json(std::string_view text) {
    const quantity::Parsed parsed = quantity::parse(text);
    json::Writer w;
    w.begin_object();
    w.field_bool("ok", parsed.ok);
    w.key("value");
    if (parsed.ok) w.number(parsed.value);
    else w.null();
    w.field("unit_kind", parsed.ok ? quantity::unit_kind_name(parsed.kind) : "");
    w.field_bool("has_unit", parsed.ok && parsed.has_unit);
    w.field("display", parsed.ok ? (parsed.has_unit ? quantity::format_in_unit(parsed.value, parsed.unit)
                                                    : quantity::format_significant(parsed.value))
                                 : std::string());
    w.field("error", parsed.error);
    w.end_object();
    return w.take();
}

}  // namespace trainscope
