#include "engine/model/field_limits.hpp"

#include <cmath>

#include "engine/model/memory.hpp"
#include "engine/model/scenario.hpp"
#include "engine/text/json.hpp"
#include "engine/text/messages.hpp"

namespace trainscope {

namespace {

using quantity::UnitKind;

// Wide enough for any model anyone has trained or imagined, narrow enough that every product
// the estimate forms stays finite (docs/scenario.md, "Limits").
const FieldLimit limits[] = {
    {"model.params", 1e5, 1e15, UnitKind::number, false},
    {"model.architecture.layers", 1, 1e4, UnitKind::number, true},
    {"model.architecture.hidden", 1, 1e6, UnitKind::number, true},
    {"model.architecture.heads", 1, 1e5, UnitKind::number, true},
    {"model.architecture.kv_heads", 1, 1e5, UnitKind::number, true},
    {"model.architecture.mlp", 1, 1e7, UnitKind::number, true},
    {"model.architecture.vocab", 1, 1e8, UnitKind::number, true},
    {"model.architecture.learned_positions", 0, 1e8, UnitKind::number, true},
    {"model.architecture.experts", 1, 1e4, UnitKind::number, true},
    {"model.architecture.experts_per_token", 1, 1e4, UnitKind::number, true},
    {"model.architecture.shared_experts", 0, 1e4, UnitKind::number, true},
    {"model.architecture.expert_mlp", 0, 1e7, UnitKind::number, true},  // 0: the dense MLP's width
    {"model.architecture.dense_layers", 0, 1e4, UnitKind::number, true},
    {"model.architecture.expert_node_limit", 0, 1e4, UnitKind::number, true},  // 0: no limit
    {"model.architecture.head_dim", 0, 1e5, UnitKind::number, true},           // 0: hidden / heads
    {"model.architecture.q_lora_rank", 0, 1e6, UnitKind::number, true},
    {"model.architecture.kv_lora_rank", 0, 1e6, UnitKind::number, true},  // 0: no latent attention
    {"model.architecture.nope_head_dim", 0, 1e5, UnitKind::number, true},
    {"model.architecture.rope_head_dim", 0, 1e5, UnitKind::number, true},
    {"model.architecture.v_head_dim", 0, 1e5, UnitKind::number, true},
    {"model.architecture.sliding_window", 0, 1e8, UnitKind::number, true},
    {"model.architecture.sliding_window_layers", 0, 1e4, UnitKind::number, true},
    {"inference.batch", 1, 1e6, UnitKind::number, true},
    {"inference.context", 1, 1e8, UnitKind::number, true},
    {"training.micro_batch", 1, 1e5, UnitKind::number, true},
    {"training.sequence", 1, 1e7, UnitKind::number, true},
    {"training.tokens", 1, 1e17, UnitKind::number, false},
    {"training.global_batch", 0, 1e9, UnitKind::number, true},  // 0: the fewest micro-batches the layout needs
    {"training.lora.rank", 1, 1e5, UnitKind::number, true},
    {"parallel.gpus", 1, 1e7, UnitKind::gpus, true},
    {"parallel.tensor", 1, 1e5, UnitKind::number, true},
    {"parallel.pipeline", 1, 1e5, UnitKind::number, true},
    {"parallel.interleave", 1, 1e3, UnitKind::number, true},
    {"parallel.context", 1, 1e5, UnitKind::number, true},
    {"parallel.expert", 1, 1e4, UnitKind::number, true},
    {"parallel.first_stage_layers", 0, 1e4, UnitKind::number, true},  // 0: layers / pipeline
    {"parallel.last_stage_layers", 0, 1e4, UnitKind::number, true},
    {"parallel.zero_stage", 0, 3, UnitKind::number, true},
    {"hardware.memory_bytes", 1e6, 1e13, UnitKind::memory, false},
    {"hardware.peak_flops", 1e6, 1e18, UnitKind::rate, false},
    {"hardware.watts", 0, 1e5, UnitKind::number, false},
    {"hardware.utilization", 0.001, 1, UnitKind::percent, false},
    {"hardware.price_per_gpu_hour", 0, 1e6, UnitKind::number, false},
};

// What each slider spans: the sizes the lesson talks about, from a GPT-2 to beyond today's
// largest runs, with room either side; the typed field takes the rest of the field's range.
const SliderRange sliders[] = {
    {"model.params", SliderScale::log, 1e8, 2e12, 20},  // 100M (GPT-2) … 2T parameters
    {"inference.batch", SliderScale::powers_of_two, 1, 256, 0},
    {"inference.context", SliderScale::powers_of_two, 128, 131072, 0},  // up to Llama 3.1's 128K
    {"training.micro_batch", SliderScale::powers_of_two, 1, 256, 0},
    {"training.global_batch", SliderScale::powers_of_two, 1, 65536, 0},  // Llama 3 405B: 2,048 × 8K tokens
    {"training.sequence", SliderScale::powers_of_two, 128, 131072, 0},
    // LoRA ranks 1 … 64 (Hu et al. 2021 Table 6; QLoRA's r = 64, Dettmers et al. 2023 §4) and beyond.
    {"training.lora.rank", SliderScale::powers_of_two, 1, 1024, 0},
    {"training.tokens", SliderScale::log, 1e9, 1e14, 20},       // 1B … 100T tokens (Llama 3: 15.6T)
    {"parallel.gpus", SliderScale::powers_of_two, 1, 1e5, 0},   // Llama 3 405B: 16,384 H100s
    {"parallel.tensor", SliderScale::powers_of_two, 1, 16, 0},  // within a node's 8 GPUs, and twice that
    {"parallel.pipeline", SliderScale::powers_of_two, 1, 64, 0},
    {"parallel.context", SliderScale::powers_of_two, 1, 32, 0},  // Llama 3 405B at 128K: 16
    {"parallel.expert", SliderScale::powers_of_two, 1, 256, 0},  // DeepSeek-V3: 64
    {"hardware.memory_bytes", SliderScale::log, 8e9, 1e12, 20},  // 8 GB … 1 TB per GPU
    {"hardware.peak_flops", SliderScale::log, 1e13, 1e16, 20},   // 10 TFLOP/s … 10 PFLOP/s
    {"hardware.utilization", SliderScale::linear, 0.01, 1, 0.01},
    {"hardware.price_per_gpu_hour", SliderScale::linear, 0, 10, 0.1},
};

std::string limit_text(double value, UnitKind kind) {
    // A GPU count's limits read "between 1 and 10 million GPUs": the unit once, at the end.
    if (kind == UnitKind::gpus) return quantity::format(value, quantity::Figure::count);
    return quantity::format_auto(value, kind);
}

}  // namespace

const FieldLimit* field_limits_begin() { return limits; }
const FieldLimit* field_limits_end() { return limits + sizeof limits / sizeof limits[0]; }

const FieldLimit* find_field_limit(std::string_view field) {
    for (const FieldLimit* limit = field_limits_begin(); limit != field_limits_end(); ++limit) {
        if (field == limit->field) return limit;
    }
    return nullptr;
}

const SliderRange* slider_ranges_begin() { return sliders; }
const SliderRange* slider_ranges_end() { return sliders + sizeof sliders / sizeof sliders[0]; }

const SliderRange* find_slider_range(std::string_view field) {
    for (const SliderRange* slider = slider_ranges_begin(); slider != slider_ranges_end(); ++slider) {
        if (field == slider->field) return slider;
    }
    return nullptr;
}

const char* slider_scale_name(SliderScale scale) {
    switch (scale) {
        case SliderScale::log:
            return "log";
        case SliderScale::linear:
            return "linear";
        case SliderScale::powers_of_two:
            return "powers_of_two";
    }
    return "linear";
}

double fewest_global_batch(const Scenario& scenario) {
    TrainingSettings fewest = scenario.training;
    fewest.global_batch = 0;  // docs/model.md §4: micro_batches_per_step's own choice
    return micro_batches_per_step(fewest, scenario.parallel) * fewest.micro_batch * scenario.parallel.data_parallel();
}

std::string field_limit_error(const FieldLimit& limit, double value) {
    if (!std::isfinite(value)) return message("limits.must_be_finite", "must be a finite number");
    if (limit.integer && value != std::floor(value)) return message("limits.must_be_whole", "must be a whole number");
    if (value < limit.min || value > limit.max) {
        const std::string min = limit_text(limit.min, limit.kind), max = limit_text(limit.max, limit.kind);
        if (limit.kind == UnitKind::gpus)
            return message("limits.between_gpus", "must be between {min} and {max} GPUs", {{"min", min}, {"max", max}});
        return message("limits.between", "must be between {min} and {max}", {{"min", min}, {"max", max}});
    }
    return std::string();
}

std::string field_limits_json() {
    json::Writer w;
    w.begin_object();
    for (const FieldLimit* limit = field_limits_begin(); limit != field_limits_end(); ++limit) {
        w.key(limit->field).begin_object();
        w.field("min", limit->min).field("max", limit->max);
        w.field("kind", quantity::unit_kind_name(limit->kind)).field_bool("integer", limit->integer);
        if (const SliderRange* slider = find_slider_range(limit->field)) {
            w.key("slider").begin_object();
            w.field("scale", slider_scale_name(slider->scale));
            w.field("min", slider->min).field("max", slider->max).field("stops", slider->stops);
            w.end_object();
        }
        w.end_object();
    }
    w.end_object();
    return w.take();
}

quantity::Reading read_field(std::string_view field, std::string_view text) {
    const FieldLimit* limit = find_field_limit(field);
    if (!limit) {
        quantity::Reading reading;
        reading.error = message("limits.not_numeric_field", "{field} is not a numeric scenario field",
                                {{"field", field.substr(0, 60)}});
        return reading;
    }
    quantity::Reading reading = quantity::read_quantity(text, limit->kind);
    if (!reading.ok) return reading;
    const std::string problem = field_limit_error(*limit, reading.value);
    if (!problem.empty()) {
        reading.ok = false;
        // The field's error as a sentence of its own ("must …" → "Must ….") for the page's input box.
        reading.error = problem;
        if (reading.error[0] >= 'a' && reading.error[0] <= 'z')
            reading.error[0] = static_cast<char>(reading.error[0] - 'a' + 'A');
        reading.error += '.';
    }
    return reading;
}

}  // namespace trainscope
