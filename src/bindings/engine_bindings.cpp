// The engine's JavaScript surface. Only mapping lives here: embind passes JavaScript strings as
// std::string and numbers as double/unsigned/int, so each adapter below only converts types and
// calls the engine. Scenario, estimate and quiz calls take and return JSON text in the schemas of
// docs/scenario.md and docs/quiz.md; the quantity calls, made on every keystroke and slider step,
// take and return plain numbers and strings (docs/numbers.md); the step chart's timeline, also
// asked on every slider step, comes as a short JSON and a typed array of numbers.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "engine/api/api.hpp"
#include "engine/api/estimate_json.hpp"
#include "engine/api/fit.hpp"
#include "engine/api/methods.hpp"
#include "engine/api/validation.hpp"
#include "engine/api/view.hpp"
#include "engine/model/choices.hpp"
#include "engine/model/estimate.hpp"
#include "engine/model/field_limits.hpp"
#include "engine/model/glossary.hpp"
#include "engine/model/hf_config.hpp"
#include "engine/quiz/quiz.hpp"
#include "engine/text/language.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace {

using trainscope::quantity::Figure;
using trainscope::quantity::Reading;
using trainscope::quantity::UnitKind;

// What readQuantity and readField return to JavaScript, as a plain object.
struct QuantityReading {
    bool ok = false;
    double value = 0;
    std::string kind;
    std::string display;
    std::string error;
};

QuantityReading to_javascript(const Reading& reading) {
    QuantityReading out;
    out.ok = reading.ok;
    out.value = reading.ok ? reading.value : 0.0;
    out.kind = trainscope::quantity::unit_kind_name(reading.kind);
    out.display = reading.display;
    out.error = reading.error;
    return out;
}

std::string estimate(const std::string& scenario_json) { return trainscope::estimate_json(scenario_json); }
std::string step_timeline(const std::string& scenario_json) { return trainscope::step_timeline_json(scenario_json); }

// The step chart asks on every slider step; JSON of 1,500 event objects cost more to write and
// parse than the timeline costs to compute. stepTimelineColumns returns the summary JSON and keeps
// the events' numbers for stepTimelineNumbers, a Float64Array view of wasm memory valid only
// until the next call: the caller copies it. Two plain calls cost less code than one object.
std::vector<double> step_numbers;
std::string step_timeline_columns(const std::string& scenario_json) {
    return trainscope::step_timeline_columns(scenario_json, step_numbers);
}
// The page's one call per input (api/view.hpp): its step numbers, when asked, are read like
// stepTimelineColumns' through stepTimelineNumbers.
std::string view(const std::string& scenario_json, const trainscope::ViewRequest& request) {
    return trainscope::view_json(scenario_json, request, step_numbers);
}
emscripten::val step_timeline_numbers() {
    return emscripten::val(emscripten::typed_memory_view(step_numbers.size(), step_numbers.data()));
}

std::string quiz_instance(const std::string& item_json, unsigned seed) {
    return trainscope::quiz_instance_json(item_json, seed);
}
std::string quiz_grade(const std::string& item_json, unsigned seed, const std::string& answer_json) {
    return trainscope::quiz_grade_json(item_json, seed, answer_json);
}
std::string quiz_validate_bank(const std::string& bank_json) { return trainscope::quiz_validate_bank_json(bank_json); }
std::string quiz_check_bank(const std::string& bank_json, int seeds) {
    return trainscope::quiz_check_bank_json(bank_json, seeds);
}
std::string quiz_read_quantity(const std::string& text, const std::string& unit) {
    return trainscope::quiz_read_quantity_json(text, unit);
}
std::string model_from_hf_config(const std::string& config_json) {
    return trainscope::model_from_hf_config_json(config_json);
}

QuantityReading read_quantity(const std::string& text, const std::string& kind_name) {
    UnitKind kind = UnitKind::number;
    if (!trainscope::quantity::unit_kind_from_name(kind_name, kind)) {
        QuantityReading out;
        out.error = "unknown quantity kind '" + kind_name.substr(0, 40) + "'";
        return out;
    }
    return to_javascript(trainscope::quantity::read_quantity(text, kind));
}

QuantityReading read_field(const std::string& field, const std::string& text) {
    return to_javascript(trainscope::read_field(field, text));
}

// An unknown figure name is a programming error in the page; "?" makes it visible, not fatal.
std::string format_quantity(double value, const std::string& figure_name, int significant_figures) {
    Figure figure = Figure::plain;
    if (!trainscope::quantity::figure_from_name(figure_name, figure)) return "?";
    return trainscope::quantity::format(value, figure, significant_figures);
}

std::string format_tick(double value, const std::string& figure_name) {
    Figure figure = Figure::plain;
    if (!trainscope::quantity::figure_from_name(figure_name, figure)) return "?";
    return trainscope::quantity::format_tick(value, figure);
}

std::string format_count(double value) { return trainscope::quantity::format_count(value); }

std::string field_error(const std::string& field, double value) {
    const trainscope::FieldLimit* limit = trainscope::find_field_limit(field);
    if (!limit) return "is not a numeric scenario field";
    return trainscope::field_limit_error(*limit, value);
}

// The page's engine wrapper sets its widget's language before each call (language.hpp says why a
// setting and not a parameter). An unknown tag keeps English, and the false lets the page say so.
bool set_language(const std::string& tag) {
    trainscope::Language language = trainscope::Language::en;
    if (!trainscope::language_from_tag(tag, language)) {
        trainscope::set_current_language(trainscope::Language::en);
        return false;
    }
    trainscope::set_current_language(language);
    return true;
}

// "" when installed, else why not (messages.hpp).
std::string load_messages(const std::string& tag, const std::string& catalogue_json) {
    trainscope::Language language = trainscope::Language::en;
    if (!trainscope::language_from_tag(tag, language)) return "no language has the tag '" + tag.substr(0, 40) + "'";
    return trainscope::load_messages(language, catalogue_json);
}

}  // namespace

EMSCRIPTEN_BINDINGS(trainscope_engine) {
    emscripten::value_object<trainscope::ViewRequest>("ViewRequest")
        .field("knownReference", &trainscope::ViewRequest::known_reference)
        .field("step", &trainscope::ViewRequest::step)
        .field("communicationCurve", &trainscope::ViewRequest::communication_curve)
        .field("communicationSchedule", &trainscope::ViewRequest::communication_schedule)
        .field("shownControls", &trainscope::ViewRequest::shown_controls);
    emscripten::value_object<QuantityReading>("QuantityReading")
        .field("ok", &QuantityReading::ok)
        .field("value", &QuantityReading::value)
        .field("kind", &QuantityReading::kind)
        .field("display", &QuantityReading::display)
        .field("error", &QuantityReading::error);

    emscripten::function("estimate", &estimate);
    emscripten::function("stepTimeline", &step_timeline);
    emscripten::function(
        "fit", +[](const std::string& input) { return trainscope::fit_json(input); });
    emscripten::function(
        "fineTuningMethods", +[](const std::string& input) { return trainscope::fine_tuning_methods_json(input); });
    emscripten::function("stepTimelineColumns", &step_timeline_columns);
    emscripten::function("stepTimelineNumbers", &step_timeline_numbers);
    emscripten::function("view", &view);
    emscripten::function("presets", &trainscope::presets_json);
    emscripten::function("gpus", &trainscope::gpus_json);
    emscripten::function("validationSummary", &trainscope::validation_summary_json);
    emscripten::function("defaultScenario", &trainscope::default_scenario_json);
    emscripten::function("numberFormats", &trainscope::number_formats_json);
    emscripten::function("choices", &trainscope::choices_json);
    emscripten::function("stories", &trainscope::stories_json);
    emscripten::function("glossary", &trainscope::glossary_json);

    emscripten::function("readQuantity", &read_quantity);
    emscripten::function("readField", &read_field);
    emscripten::function("formatQuantity", &format_quantity);
    emscripten::function("formatTick", &format_tick);
    emscripten::function("formatCount", &format_count);
    emscripten::function("fieldLimits", &trainscope::field_limits_json);
    emscripten::function("timeAxisMarks", &trainscope::time_axis_marks_json);
    emscripten::function("durationTicks", &trainscope::duration_ticks_json);
    emscripten::function("fieldError", &field_error);

    emscripten::function("quizInstance", &quiz_instance);
    emscripten::function("quizGrade", &quiz_grade);
    emscripten::function("quizValidateBank", &quiz_validate_bank);
    emscripten::function("quizCheckBank", &quiz_check_bank);
    emscripten::function("quizReadQuantity", &quiz_read_quantity);
    emscripten::function("modelFromHfConfig", &model_from_hf_config);

    emscripten::function("setLanguage", &set_language);
    emscripten::function("loadMessages", &load_messages);
}
