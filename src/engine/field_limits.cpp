#include "engine/field_limits.hpp"

#include <cmath>

#include "engine/json.hpp"

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
    {"inference.batch", 1, 1e6, UnitKind::number, true},
    {"inference.context", 1, 1e8, UnitKind::number, true},
    {"training.micro_batch", 1, 1e5, UnitKind::number, true},
    {"training.sequence", 1, 1e7, UnitKind::number, true},
    {"training.tokens", 1, 1e17, UnitKind::number, false},
    {"parallel.gpus", 1, 1e7, UnitKind::gpus, true},
    {"parallel.tensor", 1, 1e5, UnitKind::number, true},
    {"parallel.pipeline", 1, 1e5, UnitKind::number, true},
    {"parallel.interleave", 1, 1e3, UnitKind::number, true},
    {"parallel.zero_stage", 0, 3, UnitKind::number, true},
    {"hardware.memory_bytes", 1e6, 1e13, UnitKind::memory, false},
    {"hardware.peak_flops", 1e6, 1e18, UnitKind::rate, false},
    {"hardware.watts", 0, 1e5, UnitKind::number, false},
    {"hardware.utilization", 0.001, 1, UnitKind::percent, false},
    {"hardware.price_per_gpu_hour", 0, 1e6, UnitKind::number, false},
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

std::string field_limit_error(const FieldLimit& limit, double value) {
    if (!std::isfinite(value)) return "must be a finite number";
    if (limit.integer && value != std::floor(value)) return "must be a whole number";
    if (value < limit.min || value > limit.max) {
        std::string message = "must be between " + limit_text(limit.min, limit.kind) + " and " +
                              limit_text(limit.max, limit.kind);
        if (limit.kind == UnitKind::gpus) message += " GPUs";
        return message;
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
        w.end_object();
    }
    w.end_object();
    return w.take();
}

quantity::Reading read_field(std::string_view field, std::string_view text) {
    const FieldLimit* limit = find_field_limit(field);
    if (!limit) {
        quantity::Reading reading;
        reading.error = std::string(field.substr(0, 60)) + " is not a numeric scenario field";
        return reading;
    }
    quantity::Reading reading = quantity::read_quantity(text, limit->kind);
    if (!reading.ok) return reading;
    const std::string problem = field_limit_error(*limit, reading.value);
    if (!problem.empty()) {
        reading.ok = false;
        reading.error = "M" + problem.substr(1) + ".";
    }
    return reading;
}

}  // namespace trainscope
