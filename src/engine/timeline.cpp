#include "engine/timeline.hpp"

#include <cmath>

#include "engine/hardware.hpp"
#include "engine/json.hpp"

namespace trainscope {

const char* step_phase_name(StepPhase phase) {
    switch (phase) {
        case StepPhase::gather: return "gather";
        case StepPhase::forward: return "forward";
        case StepPhase::loss: return "loss";
        case StepPhase::recompute: return "recompute";
        case StepPhase::backward: return "backward";
        case StepPhase::free: return "free";
        case StepPhase::reduce_scatter: return "reduce_scatter";
        case StepPhase::all_reduce: return "all_reduce";
        case StepPhase::optimizer: return "optimizer";
    }
    return "forward";
}

const char* step_block_name(StepBlock block) {
    switch (block) {
        case StepBlock::layer: return "layer";
        case StepBlock::embedding: return "embedding";
        case StepBlock::output: return "output";
        case StepBlock::all: return "all";
    }
    return "layer";
}

namespace {

// Parameters of one transformer layer, total and active: the count's growth from 0 to 1 layer
// (docs/model.md §1), scaled like the whole count when only a bare count was given.
ParameterCount parameters_per_layer(const Architecture& architecture, const ParameterCount& params) {
    Architecture none = architecture, one = architecture;
    none.layers = 0;
    one.layers = 1;
    const ParameterCount counted = count_parameters(architecture);
    const ParameterCount without = count_parameters(none), with_one = count_parameters(one);
    ParameterCount layer;
    layer.total = counted.total > 0 ? (with_one.total - without.total) * params.total / counted.total : 0;
    layer.active = counted.active > 0 ? (with_one.active - without.active) * params.active / counted.active : 0;
    return layer;
}

// What memory holds, kept as counts so that freeing returns exactly to zero (no drift from
// repeated subtraction over thousands of layers).
struct Holding {
    std::int32_t activation_layers = 0;  // layers whose kept activations are held
    bool rebuilt_layer = false;          // a recomputed layer's rebuilt activations
    bool logits = false;
    std::int32_t gathered_layers = 0;
    bool gathered_head = false;  // the embedding or output matrix (V×h), gathered under ZeRO-3
    bool layer_gradients = false;
    bool head_gradients = false;
};

// Sizes of the things that come and go, on this GPU.
struct Sizes {
    double kept_activations_per_layer = 0;
    double rebuilt_activations = 0;
    double logits = 0;
    double gathered_layer = 0;
    double gathered_head = 0;
    double layer_gradients = 0;
    double head_gradients = 0;
};

// Appends events with what is held after each; `seconds` first carries the event's FLOPs per token.
struct Recorder {
    StepTimeline& timeline;
    const Sizes& size;
    const ModelStateBytes& states;
    Holding holding;

    void add(StepPhase phase, StepBlock block, std::int32_t layer, double flops) {
        StepEvent event;
        event.phase = phase;
        event.block = block;
        event.layer = layer;
        event.seconds = flops;
        StepBytes& bytes = event.held;
        bytes.weights = states.weights;
        bytes.gradients = states.gradients;
        bytes.master_weights = states.master_weights;
        bytes.optimizer_states = states.optimizer_states;
        bytes.activations = holding.activation_layers * size.kept_activations_per_layer +
                            (holding.rebuilt_layer ? size.rebuilt_activations : 0.0);
        bytes.logits = holding.logits ? size.logits : 0.0;
        bytes.gathered_weights =
            holding.gathered_layers * size.gathered_layer + (holding.gathered_head ? size.gathered_head : 0.0);
        bytes.temporary = (holding.layer_gradients ? size.layer_gradients : 0.0) +
                          (holding.head_gradients ? size.head_gradients : 0.0);
        timeline.events.push_back(event);
    }
};

}  // namespace

StepTimeline step_timeline(const Scenario& scenario, const ParameterCount& params, const BytesPerParam& bytes_per_param,
                           const ModelStateBytes& per_gpu_states, const ActivationBytes& activations,
                           const TrainingCompute& compute) {
    const Architecture& a = scenario.model.architecture;
    const TrainingSettings& training = scenario.training;
    const ParallelSettings& parallel = scenario.parallel;
    const double t = parallel.tensor, p = parallel.pipeline;
    const double d = parallel.gpus / (t * p);
    const int zero = parallel.zero_stage;
    const bool gathers = zero >= 3 && d > 1;
    const bool recompute = training.recompute != Recompute::none;

    StepTimeline timeline;
    // docs/model.md §9: the GPU simulated is the pipeline stage the estimate reports (§4): the last
    // stage when it holds the logits, else the first.
    const bool holds_logits = activations.logits > 0;
    const bool first_stage = p <= 1 || !holds_logits;
    const double stage_layers = p <= 1 ? a.layers : std::ceil(a.layers / p - 1e-9);
    timeline.layers = static_cast<std::int32_t>(std::fmax(1.0, stage_layers));
    const std::int32_t n = timeline.layers;
    timeline.prefetch_layers = gathers ? 1 : 0;

    const ParameterCount layer_params = parameters_per_layer(a, params);
    const double head_params = a.vocab * a.hidden * (params.total / std::fmax(1.0, count_parameters(a).total));

    Sizes size;
    // §9: the estimate's pile (§4, with 1F1B's in-flight micro-batches lumped in) spread evenly over
    // the stage's layers, so the forward pass ends holding exactly the estimate's figure.
    size.kept_activations_per_layer = activations.layers / n;
    if (recompute) {
        // Korthikanti §5: a recomputed layer rebuilds what it would have kept without recompute.
        TrainingSettings without = training;
        without.recompute = Recompute::none;
        const double full_layer = training_activations(a, without, parallel).per_layer;
        size.rebuilt_activations = std::fmax(0.0, full_layer - activations.per_layer);
    }
    size.logits = activations.logits;
    // ZeRO §5.3 (P_os+g+p): a layer's parameters are all-gathered before use; the GPU's own
    // 1/d slice is already held, so the gather adds the other (d−1)/d.
    const double gathered_share = gathers ? (d - 1) / d : 0.0;
    size.gathered_layer = layer_params.total / t * bytes_per_param.weights * gathered_share;
    size.gathered_head = head_params / t * bytes_per_param.weights * gathered_share;
    // ZeRO §5.2 (P_os+g): a layer's full gradients exist until they are reduce-scattered to their owners.
    if (zero >= 2) {
        size.layer_gradients = layer_params.total / t * bytes_per_param.gradients;
        size.head_gradients = head_params / t * bytes_per_param.gradients;
    }

    // §9 durations: FLOPs per token, model-wide, as §6 counts them; each event gets its share of this
    // GPU's compute time for one micro-batch.
    const double attention_forward = training.attention_flops ? 4 * a.hidden * training.sequence : 0.0;  // PaLM App. B: 12·h·s per layer, 1/3 forward
    const double layer_forward = 2 * layer_params.active + attention_forward;  // Kaplan §2.1: 2 per parameter forward
    const double layer_backward = 2 * layer_forward;                           // 4 per parameter backward
    const double head_active = std::fmax(0.0, params.active - a.layers * layer_params.active);
    const double model_flops_per_token = 6 * params.active + a.layers * 3 * attention_forward;
    const double hardware_ratio = compute.model_flops > 0 ? compute.hardware_flops / compute.model_flops : 1.0;
    // §6: recompute's extra FLOPs (Narayanan Eq. 4 for full, Korthikanti §5 for selective), per layer.
    const double layer_recompute = model_flops_per_token * (hardware_ratio - 1) / a.layers;
    const double sustained = scenario.hardware.gpu.peak_flops * scenario.hardware.utilization;
    // §6: this GPU's share of one micro-batch's hardware FLOPs (÷ t·p), at the sustained rate.
    timeline.compute_seconds = model_flops_per_token * hardware_ratio * training.sequence * training.micro_batch /
                               (t * p) / sustained;

    const Gpu& gpu = scenario.hardware.gpu;
    timeline.memory_bandwidth = gpu.memory_bandwidth;
    if (!(timeline.memory_bandwidth > 0)) {
        // A custom GPU gives no bandwidth: assume the H100 SXM's bytes per FLOP.
        const Gpu* reference = find_gpu("h100-sxm");
        timeline.memory_bandwidth = gpu.peak_flops * reference->memory_bandwidth / reference->peak_flops;
        timeline.memory_bandwidth_assumed = true;
    }
    // §9: the optimizer reads the gradients and master weights and moments, writes the master and
    // moments back, and writes the 16-bit weights (reads and writes them in FP32 training),
    // for the parameters this GPU updates (its 1/d slice from ZeRO-1 on, ZeRO §5.1).
    const double updated_params = params.total / (t * p) / (zero >= 1 ? d : 1.0);
    const double bytes_touched_per_param =
        bytes_per_param.gradients + 2 * (bytes_per_param.master_weights + bytes_per_param.optimizer_states) +
        (bytes_per_param.master_weights > 0 ? 1.0 : 2.0) * bytes_per_param.weights;
    timeline.optimizer_seconds = updated_params * bytes_touched_per_param / timeline.memory_bandwidth;

    // Per layer: forward and backward, plus recompute, a reduce-scatter, two gathers and two frees.
    timeline.events.reserve(static_cast<std::size_t>(n) * (2 + (recompute ? 1 : 0) + (zero >= 2 ? 1 : 0) + (gathers ? 4 : 0)) + 16);
    Recorder record{timeline, size, per_gpu_states, Holding{}};
    Holding& holding = record.holding;
    auto add = [&record](StepPhase phase, StepBlock block, std::int32_t layer, double flops) {
        record.add(phase, block, layer, flops);
    };

    // Forward. ZeRO-3 prefetches one layer ahead (DeepSpeed's prefetch bucket): while layer i
    // runs, layer i+1's weights are already gathered.
    if (first_stage && gathers) {
        holding.gathered_head = true;
        add(StepPhase::gather, StepBlock::embedding, 0, 0);
        add(StepPhase::forward, StepBlock::embedding, 0, 0);
        holding.gathered_head = false;
        add(StepPhase::free, StepBlock::embedding, 0, 0);
    }
    if (gathers) {
        holding.gathered_layers = 1;
        add(StepPhase::gather, StepBlock::layer, 1, 0);
    }
    for (std::int32_t i = 1; i <= n; ++i) {
        if (gathers && i < n) {
            ++holding.gathered_layers;
            add(StepPhase::gather, StepBlock::layer, i + 1, 0);
        }
        ++holding.activation_layers;
        add(StepPhase::forward, StepBlock::layer, i, layer_forward);
        if (gathers) {
            --holding.gathered_layers;
            add(StepPhase::free, StepBlock::layer, i, 0);
        }
    }
    if (holds_logits) {
        if (gathers) {
            holding.gathered_head = true;
            add(StepPhase::gather, StepBlock::output, 0, 0);
        }
        // §4: the logits, kept in FP32 for the loss; the loss's gradient overwrites them in place.
        holding.logits = true;
        add(StepPhase::loss, StepBlock::output, 0, 2 * head_active);
    }

    // Backward, last layer first.
    if (gathers) {
        holding.gathered_layers = 1;
        add(StepPhase::gather, StepBlock::layer, n, 0);
    }
    if (holds_logits) {
        holding.logits = false;
        holding.head_gradients = zero >= 2;
        add(StepPhase::backward, StepBlock::output, 0, 4 * head_active);
        if (zero >= 2) {
            holding.head_gradients = false;
            add(StepPhase::reduce_scatter, StepBlock::output, 0, 0);
        }
        if (gathers) {
            holding.gathered_head = false;
            add(StepPhase::free, StepBlock::output, 0, 0);
        }
    }
    for (std::int32_t i = n; i >= 1; --i) {
        if (gathers && i > 1) {
            ++holding.gathered_layers;
            add(StepPhase::gather, StepBlock::layer, i - 1, 0);
        }
        if (recompute) {
            holding.rebuilt_layer = true;
            add(StepPhase::recompute, StepBlock::layer, i, layer_recompute);
        }
        // The layer's activations go once its gradients exist.
        --holding.activation_layers;
        holding.rebuilt_layer = false;
        holding.layer_gradients = zero >= 2;
        add(StepPhase::backward, StepBlock::layer, i, layer_backward);
        if (zero >= 2) {
            holding.layer_gradients = false;
            add(StepPhase::reduce_scatter, StepBlock::layer, i, 0);
        }
        if (gathers) {
            --holding.gathered_layers;
            add(StepPhase::free, StepBlock::layer, i, 0);
        }
    }
    if (first_stage && zero >= 2) {
        holding.gathered_head = gathers;
        if (gathers) add(StepPhase::gather, StepBlock::embedding, 0, 0);
        holding.head_gradients = true;
        add(StepPhase::backward, StepBlock::embedding, 0, 0);
        holding.head_gradients = false;
        add(StepPhase::reduce_scatter, StepBlock::embedding, 0, 0);
        if (gathers) {
            holding.gathered_head = false;
            add(StepPhase::free, StepBlock::embedding, 0, 0);
        }
    }
    // ZeRO-0 all-reduces the gradients (overlapped with backward, in buckets); ZeRO-1
    // reduce-scatters them so each GPU gets the slice its optimizer states update.
    if (zero == 0 && d > 1) add(StepPhase::all_reduce, StepBlock::all, 0, 0);
    if (zero == 1 && d > 1) add(StepPhase::reduce_scatter, StepBlock::all, 0, 0);
    add(StepPhase::optimizer, StepBlock::all, 0, 0);

    // Until here each event's `seconds` held its FLOPs per token.
    double stage_flops = 0;
    for (const StepEvent& event : timeline.events) stage_flops += event.seconds;
    for (std::size_t e = 0; e < timeline.events.size(); ++e) {
        StepEvent& event = timeline.events[e];
        event.seconds = stage_flops > 0 ? timeline.compute_seconds * event.seconds / stage_flops : 0.0;
        if (event.phase == StepPhase::optimizer) event.seconds = timeline.optimizer_seconds;
        if (event.held.total() > timeline.events[timeline.peak_event].held.total()) timeline.peak_event = e;
    }
    return timeline;
}

namespace {

void write_bytes(json::Writer& w, const StepBytes& bytes) {
    w.field("weights", bytes.weights).field("gathered_weights", bytes.gathered_weights);
    w.field("gradients", bytes.gradients).field("master_weights", bytes.master_weights);
    w.field("optimizer_states", bytes.optimizer_states).field("activations", bytes.activations);
    w.field("logits", bytes.logits).field("temporary", bytes.temporary).field("total", bytes.total());
}

}  // namespace

std::string write_step_timeline(const StepTimeline& timeline, bool* all_finite) {
    json::Writer w;
    w.begin_object();
    w.key("errors").begin_array().end_array();
    w.field("layers", static_cast<double>(timeline.layers));
    w.field("prefetch_layers", static_cast<double>(timeline.prefetch_layers));
    w.field("compute_seconds", timeline.compute_seconds).field("optimizer_seconds", timeline.optimizer_seconds);
    w.field("seconds", timeline.seconds());
    w.field("memory_bandwidth", timeline.memory_bandwidth);
    w.field_bool("memory_bandwidth_assumed", timeline.memory_bandwidth_assumed);
    w.field("peak_event", static_cast<double>(timeline.peak_event));
    w.key("peak").begin_object();
    write_bytes(w, timeline.peak());
    w.end_object();
    w.key("events").begin_array();
    double start = 0;
    for (const StepEvent& event : timeline.events) {
        w.begin_object();
        w.field("phase", step_phase_name(event.phase)).field("block", step_block_name(event.block));
        w.field("layer", static_cast<double>(event.layer));
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

}  // namespace trainscope
