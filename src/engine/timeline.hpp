// One training step on one GPU, event by event: what memory holds after each event and how long
// each takes (docs/model.md §9). The estimate's per-GPU training total is this timeline's peak.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/compute.hpp"
#include "engine/memory.hpp"
#include "engine/model.hpp"
#include "engine/scenario.hpp"

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
    std::int32_t layer = 0;  // 1-based within the stage for StepBlock::layer, else 0
    double seconds = 0;
    StepBytes held;  // after the event
};

struct StepTimeline {
    std::vector<StepEvent> events;
    std::int32_t layers = 0;          // transformer layers this GPU's stage runs
    std::int32_t prefetch_layers = 0; // ZeRO-3: layers gathered ahead of the one in use
    double compute_seconds = 0;       // forward, recompute and backward of one micro-batch
    double optimizer_seconds = 0;
    double memory_bandwidth = 0;      // bytes/s the optimizer step was timed with
    bool memory_bandwidth_assumed = false;  // a custom GPU: scaled from the H100 SXM's ratio
    std::size_t peak_event = 0;
    double seconds() const { return compute_seconds + optimizer_seconds; }
    const StepBytes& peak() const { return events[peak_event].held; }
};

// Assumes a scenario that read_scenario accepted; `activations`, `bytes_per_param` and
// `per_gpu_states` are the estimate's (memory.hpp), `compute` its training compute.
StepTimeline step_timeline(const Scenario& scenario, const ParameterCount& params, const BytesPerParam& bytes_per_param,
                           const ModelStateBytes& per_gpu_states, const ActivationBytes& activations,
                           const TrainingCompute& compute);

// The timeline as JSON (docs/scenario.md, "Step timeline"). Sets `all_finite` false on NaN/infinity.
std::string write_step_timeline(const StepTimeline& timeline, bool* all_finite = nullptr);

}  // namespace trainscope
