// The step timeline as JSON: the summary, then the events whole or as columns of numbers.
#include "engine/api/timeline_json.hpp"

#include <cmath>

#include "engine/text/json.hpp"

namespace trainscope {

namespace {

void write_bytes(json::Writer& w, const StepBytes& bytes) {
    w.field("weights", bytes.weights).field("gathered_weights", bytes.gathered_weights);
    w.field("gradients", bytes.gradients).field("master_weights", bytes.master_weights);
    w.field("optimizer_states", bytes.optimizer_states).field("activations", bytes.activations);
    w.field("logits", bytes.logits).field("temporary", bytes.temporary).field("total", bytes.total());
}

}  // namespace

namespace {

// The fields both forms share: everything but the events.
void write_step_summary(json::Writer& w, const StepTimeline& timeline) {
    w.key("errors").begin_array().end_array();
    w.field("layers", static_cast<double>(timeline.layers));
    w.field("prefetch_layers", static_cast<double>(timeline.prefetch_layers));
    w.field("micro_batches", static_cast<double>(timeline.micro_batches));
    w.field("micro_batches_shown", static_cast<double>(timeline.micro_batches_shown));
    w.field("in_flight", static_cast<double>(timeline.in_flight));
    w.field("micro_batch_seconds", timeline.micro_batch_seconds);
    w.field("compute_seconds", timeline.compute_seconds).field("optimizer_seconds", timeline.optimizer_seconds);
    w.field("seconds", timeline.seconds());
    w.field("memory_bandwidth", timeline.memory_bandwidth);
    w.field_bool("memory_bandwidth_assumed", timeline.memory_bandwidth_assumed);
    w.field("peak_event", static_cast<double>(timeline.peak_event));
    w.field("peak_micro_batch", static_cast<double>(timeline.peak_micro_batch));
    w.key("peak").begin_object();
    write_bytes(w, timeline.peak());
    w.end_object();
}

constexpr StepPhase all_phases[] = {StepPhase::gather,         StepPhase::forward,    StepPhase::loss,
                                    StepPhase::recompute,      StepPhase::backward,   StepPhase::free,
                                    StepPhase::reduce_scatter, StepPhase::all_reduce, StepPhase::optimizer};
constexpr StepBlock all_blocks[] = {StepBlock::layer, StepBlock::embedding, StepBlock::output, StepBlock::all};

}  // namespace

std::string write_step_timeline(const StepTimeline& timeline, bool* all_finite) {
    json::Writer w;
    w.begin_object();
    write_step_summary(w, timeline);
    w.key("events").begin_array();
    double start = 0;
    for (const StepEvent& event : timeline.events) {
        w.begin_object();
        w.field("phase", step_phase_name(event.phase)).field("block", step_block_name(event.block));
        w.field("layer", static_cast<double>(event.layer)).field("layer_last", static_cast<double>(event.layer_last));
        w.field("micro_batch", static_cast<double>(event.micro_batch));
        w.field("micro_batch_last", static_cast<double>(event.micro_batch_last));
        w.field("start", start).field("seconds", event.seconds);
        w.key("held").begin_object();
        write_bytes(w, event.held);
        w.end_object();
        w.end_object();
        start += event.seconds;
    }
    w.end_array();
    w.end_object();
    if (all_finite) *all_finite = w.all_numbers_finite();
    return w.take();
}

std::string write_step_timeline_columns(const StepTimeline& timeline, std::vector<double>& numbers, bool* all_finite) {
    json::Writer w;
    w.begin_object();
    write_step_summary(w, timeline);
    w.field("event_count", static_cast<double>(timeline.events.size()));
    w.key("event_fields").begin_array();
    for (const char* name :
         {"phase", "block", "layer", "layer_last", "micro_batch", "micro_batch_last", "start", "seconds"})
        w.string(name);
    w.end_array();
    w.key("held_fields").begin_array();
    for (const char* name : {"weights", "gathered_weights", "gradients", "master_weights", "optimizer_states",
                             "activations", "logits", "temporary", "total"})
        w.string(name);
    w.end_array();
    w.key("phases").begin_array();
    for (StepPhase phase : all_phases) w.string(step_phase_name(phase));
    w.end_array();
    w.key("blocks").begin_array();
    for (StepBlock block : all_blocks) w.string(step_block_name(block));
    w.end_array();
    w.end_object();

    numbers.assign(timeline.events.size() * step_event_numbers, 0.0);
    double* out = numbers.data();
    double start = 0;
    for (const StepEvent& event : timeline.events) {
        const StepBytes& held = event.held;
        *out++ = static_cast<double>(event.phase);
        *out++ = static_cast<double>(event.block);
        *out++ = static_cast<double>(event.layer);
        *out++ = static_cast<double>(event.layer_last);
        *out++ = static_cast<double>(event.micro_batch);
        *out++ = static_cast<double>(event.micro_batch_last);
        *out++ = start;
        *out++ = event.seconds;
        for (double bytes : {held.weights, held.gathered_weights, held.gradients, held.master_weights,
                             held.optimizer_states, held.activations, held.logits, held.temporary, held.total()})
            *out++ = bytes;
        start += event.seconds;
    }
    bool finite = w.all_numbers_finite();
    for (double value : numbers) finite = finite && std::isfinite(value);
    if (all_finite) *all_finite = finite;
    return w.take();
}

}  // namespace trainscope
