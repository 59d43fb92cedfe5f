// One training step on one GPU, event by event: what memory holds after each event and how long
// each takes (docs/model.md §9). The estimate's per-GPU training total is this timeline's peak.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/compute.hpp"
#include "engine/model/memory.hpp"
#include "engine/model/model.hpp"
#include "engine/model/scenario.hpp"

namespace trainscope {

enum class StepPhase { gather, forward, loss, recompute, backward, free, reduce_scatter, all_reduce, optimizer };
// What an event works on: a transformer layer, the input embedding, the output layer, or all parameters.
enum class StepBlock { layer, embedding, output, all };

const char* step_phase_name(StepPhase phase);
const char* step_block_name(StepBlock block);

// Bytes held on one GPU, by component.
struct StepBytes {
    double weights = 0;           // this GPU's 16-bit (or FP32) weights: all, or its ZeRO-3 slice
    double gathered_weights = 0;  // ZeRO-3: other GPUs' slices of the layers being used
    double gradients = 0;         // the gradient buffer (its slice with ZeRO-2/3)
    double master_weights = 0;
    double optimizer_states = 0;
    double activations = 0;
    double logits = 0;
    double temporary = 0;  // ZeRO-2/3: a layer's full gradients before they are reduce-scattered
    double total() const {
        return weights + gathered_weights + gradients + master_weights + optimizer_states + activations + logits +
               temporary;
    }
};

struct StepEvent {
    StepPhase phase = StepPhase::forward;
    StepBlock block = StepBlock::layer;
    // 1-based within the stage for StepBlock::layer, else 0. A grouped event covers the layers
    // layer … layer_last (layer_last == layer for one layer).
    std::int32_t layer = 0;
    std::int32_t layer_last = 0;
    // 1-based micro-batch of the step, 0 for per-step events (reductions, the optimizer); a run of
    // identical micro-batches shown as one event covers micro_batch … micro_batch_last.
    std::int64_t micro_batch = 0;
    std::int64_t micro_batch_last = 0;
    double seconds = 0;
    StepBytes held;  // after the event; for a grouped event, after the member that holds the most
};

// How much of the step to keep: the estimate needs only the peak; the chart needs the events.
enum class StepDetail { peak, events };

struct StepTimeline {
    std::vector<StepEvent> events;         // empty with StepDetail::peak
    std::size_t event_count = 0;           // events the full timeline has, kept or not
    std::int32_t layers = 0;               // transformer layers this GPU's stage runs
    std::int32_t prefetch_layers = 0;      // ZeRO-3: layers gathered ahead of the one in use
    std::int64_t micro_batches = 1;        // micro-batches in the step (gradient accumulation / 1F1B)
    std::int64_t micro_batches_shown = 1;  // micro-batches with events of their own; the rest are grouped
    std::int64_t in_flight = 1;            // micro-batches whose activations the stage holds at once (1F1B)
    double micro_batch_seconds = 0;        // forward, recompute and backward of one micro-batch
    double compute_seconds = 0;            // … of all the step's micro-batches
    double optimizer_seconds = 0;
    double memory_bandwidth = 0;            // bytes/s the optimizer step was timed with
    bool memory_bandwidth_assumed = false;  // a custom GPU: scaled from the H100 SXM's ratio
    // The peak: the event (index into the full timeline's events) after which the most is held.
    std::size_t peak_event = 0;
    StepBytes peak_held;
    StepPhase peak_phase = StepPhase::forward;
    StepBlock peak_block = StepBlock::layer;
    std::int32_t peak_layer = 0;
    std::int64_t peak_micro_batch = 0;
    bool grouping_consistent = true;  // every grouped event's members were the same phase and block (tested)
    double seconds() const { return compute_seconds + optimizer_seconds; }
    const StepBytes& peak() const { return peak_held; }
};

// ZeRO-3's fewest GPUs (estimate.cpp): fed every event of a timeline with d → ∞, finds the
// smallest data-parallel degree whose every event fits `memory` (docs/model.md §9).
struct ShardingLimit {
    double memory = 0;          // one GPU's bytes
    double states = 0;          // the model states of one t·p slice, unsharded
    double step_temporary = 0;  // the optimizer step's temporary for those states, unsharded
    double gathered_share = 1;  // (d−1)/d of the timeline's d
    double data_parallel = 1;   // result
    bool overflows = false;     // result: some event overflows whatever d
    // Result: what the event holding the most that sharding cannot shrink holds (activations,
    // logits, temporary buffers, and the gathered layers in full), for the note that names it.
    StepBytes fullest;
};

// Layer groups per pass and micro-batch runs are chosen so a timeline has at most this many events.
constexpr std::size_t max_step_events = 1500;

// Assumes a scenario that read_scenario accepted; `activations`, `bytes_per_param` and
// `per_gpu_states` are the estimate's (memory.hpp), `compute` its training compute.
StepTimeline step_timeline(const Scenario& scenario, const ParameterCount& params, const BytesPerParam& bytes_per_param,
                           const ModelStateBytes& per_gpu_states, const ActivationBytes& activations,
                           const TrainingCompute& compute, StepDetail detail = StepDetail::events,
                           ShardingLimit* sharding_limit = nullptr, std::size_t event_limit = max_step_events);

// One transformer layer's parameters (the count's growth from 0 to 1 layer, docs/model.md §1) and
// the embedding's V·h, scaled like the whole count: what the timeline's sizes start from, the same
// for every layout of a model, so the inverse search works them out once.
struct LayerParameters {
    ParameterCount layer;
    double head = 0;
};
LayerParameters layer_parameters(const Architecture& architecture, const ParameterCount& params);

// Bounds on step_timeline's peak from the sizes of what comes and goes, without walking the step
// (docs/model.md §17): every event holds the states, at most the whole activation pile, and at
// most one of the groups of extras the walk can hold together (step_peak_from_parts); the events
// around the completed pile hold each group with the pile, so the lower bound takes them too.
struct StepPeakBounds {
    double lower = 0;
    double upper = 0;
};
StepPeakBounds step_peak_bounds(const Scenario& scenario, const ParameterCount& params, const LayerParameters& figures,
                                const BytesPerParam& bytes_per_param, const ModelStateBytes& per_gpu_states,
                                const ActivationBytes& activations, const ActivationBytes* without_recompute = nullptr);

// The activations' side of the bounds: it depends on t, p, c, v and the recompute choice alone,
// so the inverse search works it out once per shape and choice (docs/model.md §17).
struct ActivationPeakParts {
    double pile = 0;                   // the stage's layers × in-flight micro-batches' kept activations
    double kept_per_layer = 0;         // one layer's, one micro-batch's: what a layer's backward frees
    double pass_activations = 0;       // one micro-batch's pass through the stage: what a backward pass frees
    double rebuilt = 0;                // a recomputed layer's rebuilt activations (0 without recompute)
    double logits = 0;                 // 0 on a stage that holds none
    bool prefetches = false;           // the stage has two layers or more: a gather can hold two at once
    bool first_stage = true;           // the stage runs the input embedding's backward
    bool logits_outlive_pass = false;  // several micro-batches in flight with logits (memory.cpp gives none)
};

// The weights' side: it depends on t, e, the ZeRO stage, d·c and offload alone (0 below ZeRO-2),
// so the search works it out once per (t, p, e, ZeRO stage). Each is 0 where the walk never holds it.
struct WeightPeakParts {
    double gathered_layer = 0;       // ZeRO-3: other GPUs' slices of one layer
    double gathered_head = 0;        // … of the embedding or output matrix
    double layer_gradients = 0;      // ZeRO-2/3: one layer's full gradients before their reduce-scatter
    double head_gradients = 0;       // … the embedding's or output matrix's
    double optimizer_temporary = 0;  // the optimizer step's temporary (optimizer_step_temporary_share)
};

struct StepPeakParts {
    ActivationPeakParts activations;
    WeightPeakParts weights;
};

// The bounds from the parts, the one place the groups of extras that coexist are written down
// (docs/model.md §17); step_peak_bounds and the search both call it. Equal to step_peak_bounds'
// up to rounding.
StepPeakBounds step_peak_from_parts(double states, const ActivationPeakParts& activations,
                                    const WeightPeakParts& weights);

// step_peak_bounds' parts apart from the states, for the inverse search to combine.
StepPeakParts step_peak_parts(const Scenario& scenario, const ParameterCount& params, const LayerParameters& figures,
                              const BytesPerParam& bytes_per_param, const ActivationBytes& activations,
                              const ActivationBytes* without_recompute = nullptr);

// step_peak_parts' activations' side alone, bit for bit, without the sizes of the weights'
// events: what the fit search needs per recompute choice (docs/model.md §17).
ActivationPeakParts step_activation_parts(const Scenario& scenario, const ActivationBytes& activations,
                                          const ActivationBytes& without_recompute);

}  // namespace trainscope
