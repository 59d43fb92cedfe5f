// The range of every numeric scenario field: one table, used by the scenario reader's
// validation (scenario.cpp) and handed to the page for its sliders and typed fields
// (field_limits_json), so a limit is written once. docs/scenario.md lists them.
#pragma once

#include <string>
#include <string_view>

#include "engine/text/quantity.hpp"

namespace trainscope {

struct FieldLimit {
    const char* field;  // dotted path, as in the scenario JSON: "parallel.gpus"
    double min;
    double max;
    quantity::UnitKind kind;  // how a typed value is read and a limit is written
    bool integer;             // whole numbers only
};

// The stretch of a field's range that the page's slider moves through, and its stops. A slider
// spans the values a learner explores (a model from 100 million to 2 trillion parameters); the
// typed field beside it takes anything within the field's limits. docs/scenario.md, "Sliders".
enum class SliderScale {
    log,            // `stops` stops per factor of ten, from min to max
    linear,         // every `stops` (the step) from min to max
    powers_of_two,  // min (a power of two), twice that, … up to max; max itself when it is not one
};

struct SliderRange {
    const char* field;
    SliderScale scale;
    double min;
    double max;
    double stops;  // stops per decade (log), the step (linear); unused for powers of two
};

// Every field with a slider on the page; each lies within its field's limits (tested).
const SliderRange* slider_ranges_begin();
const SliderRange* slider_ranges_end();
const SliderRange* find_slider_range(std::string_view field);
const char* slider_scale_name(SliderScale scale);

// The global batch's slider starts where a value changes something (issue 33): "the fewest"
// (global_batch 0) resolves to the layout's fewest micro-batches (micro_batches_per_step, one, or
// one per pipeline stage) of micro_batch sequences on every data-parallel replica; a smaller
// global batch is rounded up to it. The page's slider runs from "the fewest" to doublings of it.
struct Scenario;
double fewest_global_batch(const Scenario& scenario);

// Every numeric field of the scenario, in schema order.
const FieldLimit* field_limits_begin();
const FieldLimit* field_limits_end();
// Null when `field` is not a numeric scenario field.
const FieldLimit* find_field_limit(std::string_view field);

// Why `value` cannot be in the field ("must be between 1 and 10 million GPUs", "must be a whole
// number"), or the empty string when it can. Limits are written for people, in the field's kind.
std::string field_limit_error(const FieldLimit& limit, double value);

// {"parallel.gpus": {"min":1,"max":10000000,"kind":"gpus","integer":true,
//                    "slider":{"scale":"powers_of_two","min":1,"max":100000,"stops":0}}, …}
std::string field_limits_json();

// What the page does with a typed field: read `text` as the field's kind and check its range.
// An unknown field is an error naming it.
quantity::Reading read_field(std::string_view field, std::string_view text);

}  // namespace trainscope
