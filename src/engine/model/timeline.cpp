#include "engine/model/timeline.hpp"

#include <algorithm>
#include <cmath>

#include "engine/model/hardware.hpp"

namespace trainscope {

const char* step_phase_name(StepPhase phase) {
    switch (phase) {
        case StepPhase::gather:
            return "gather";
        case StepPhase::forward:
            return "forward";
        case StepPhase::loss:
            return "loss";
        case StepPhase::recompute:
            return "recompute";
        case StepPhase::backward:
            return "backward";
        case StepPhase::free:
            return "free";
        case StepPhase::reduce_scatter:
            return "reduce_scatter";
        case StepPhase::all_reduce:
            return "all_reduce";
        case StepPhase::optimizer:
            return "optimizer";
    }
    return "forward";
}

const char* step_block_name(StepBlock block) {
    switch (block) {
        case StepBlock::layer:
            return "layer";
        case StepBlock::embedding:
            return "embedding";
        case StepBlock::output:
            return "output";
        case StepBlock::all:
            return "all";
    }
    return "layer";
}

namespace {

// std::fmax(floor, x) for a floor that is a number, without libm's call (the fit search asks
// tens of thousands of times): the same value for every x, NaN included (then the floor).
inline double at_least(double floor, double x) { return x > floor ? x : floor; }

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
    if (architecture.extended_moe()) {
        // Dense layers and mixture-of-experts layers differ (docs/model.md §11): the mean layer.
        layer.total = (counted.total - without.total) / architecture.layers * params.total / counted.total;
        layer.active = (counted.active - without.active) / architecture.layers * params.active / counted.active;
    }
    layer.routed_experts = counted.routed_experts / architecture.layers;
    return layer;
}

// What memory holds, kept as counts so that freeing returns exactly to zero (no drift from
// repeated subtraction over thousands of layers).
struct Holding {
    std::int64_t activation_layers = 0;  // layer × micro-batch activations held (1F1B holds several)
    bool rebuilt_layer = false;          // a recomputed layer's rebuilt activations
    bool logits = false;
    std::int32_t gathered_layers = 0;
    bool gathered_head = false;  // the embedding or output matrix (V×h), gathered under ZeRO-3
    bool layer_gradients = false;
    bool head_gradients = false;
    bool optimizer_step = false;  // the optimizer's step, with its temporary (optimizer_step_temporary_share)
};

// Sizes of the things that come and go, on this GPU.
struct Sizes {
    double kept_activations_per_layer = 0;  // one layer, one micro-batch
    double rebuilt_activations = 0;
    double logits = 0;
    double gathered_layer = 0;
    double gathered_head = 0;
    double layer_gradients = 0;
    double head_gradients = 0;
    double optimizer_temporary_share = 0;  // of the optimizer's states, held with them during its step (§9)
};

// Receives every event of the step in order, one layer and one micro-batch at a time, and keeps
// what was asked: the peak always, the events with StepDetail::events, the ZeRO-3 limit when given.
// The peak-only estimate and the full timeline run this same code, so their peaks are one number.
//
// Grouping (bounded events): mark() and rewind() let the walker replay a run of structurally
// identical cycles (consecutive layers, or micro-batches) into the same output events; a grouped
// event sums its members' FLOPs and keeps the held bytes of its member holding the most, so
// durations and the peak are unchanged by grouping. `weight` counts identical micro-batches an
// event stands for, which the walker does not replay one by one.
class Sink {
public:
    Sink(StepTimeline& timeline, const Sizes& size, const ModelStateBytes& states, bool keep_events,
         ShardingLimit* limit)
        : timeline_(timeline), size_(size), states_(states), keep_events_(keep_events), limit_(limit) {}

    Holding holding;
    std::int64_t micro_batch_first = 0, micro_batch_last = 0;
    double weight = 1;

    std::size_t mark() const { return cursor_; }
    std::size_t count() const { return count_; }
    bool keeps_events() const { return keep_events_; }
    void rewind(std::size_t position) { cursor_ = position; }
    double total_flops() const { return total_flops_; }
    bool consistent() const { return consistent_; }

    void add(StepPhase phase, StepBlock block, std::int32_t layer, double flops) {
        const double activations = static_cast<double>(holding.activation_layers) * size_.kept_activations_per_layer +
                                   (holding.rebuilt_layer ? size_.rebuilt_activations : 0.0);
        const double logits = holding.logits ? size_.logits : 0.0;
        const double gathered_weights =
            holding.gathered_layers * size_.gathered_layer + (holding.gathered_head ? size_.gathered_head : 0.0);
        const double temporary = (holding.layer_gradients ? size_.layer_gradients : 0.0) +
                                 (holding.head_gradients ? size_.head_gradients : 0.0);
        const double optimizer_states =
            states_.optimizer_states * (holding.optimizer_step ? 1.0 + size_.optimizer_temporary_share : 1.0);
        // StepBytes::total()'s sum, term for term in its order, so the peak is the same number; the
        // StepBytes itself is built only where it is kept (a search walks most events for the peak alone).
        const double total = states_.weights + gathered_weights + states_.gradients + states_.master_weights +
                             optimizer_states + activations + logits + temporary;
        auto held = [&] {
            StepBytes bytes;
            bytes.weights = states_.weights;
            bytes.gradients = states_.gradients;
            bytes.master_weights = states_.master_weights;
            bytes.optimizer_states = optimizer_states;
            bytes.activations = activations;
            bytes.logits = logits;
            bytes.gathered_weights = gathered_weights;
            bytes.temporary = temporary;
            return bytes;
        };
        const double weighted_flops = flops * weight;
        total_flops_ += weighted_flops;
        const std::size_t index = cursor_;
        ++cursor_;
        count_ = std::max(count_, cursor_);

        // §9: the peak is the first event after which the most is held.
        if (!peak_found_ || total > peak_total_) {
            peak_found_ = true;
            peak_total_ = total;
            timeline_.peak_held = held();
            timeline_.peak_event = index;
            timeline_.peak_phase = phase;
            timeline_.peak_block = block;
            timeline_.peak_layer = layer;
            timeline_.peak_micro_batch = micro_batch_first;
        }
        if (limit_) {
            // estimate.cpp: S/d + other + g·(d−1)/d ≤ M, so d ≥ (S − g)/(M − other − g); the optimizer
            // step holds its temporary beside S, sharded alike.
            const double gathered = gathered_weights / limit_->gathered_share;
            const double unshardable = total - gathered_weights + gathered;
            if (unshardable > limit_->fullest.total()) {
                limit_->fullest = held();
                limit_->fullest.gathered_weights = gathered;
            }
            const double room = limit_->memory - (total - gathered_weights) - gathered;
            const double states = limit_->states + (holding.optimizer_step ? limit_->step_temporary : 0.0);
            if (!(room > 0))
                limit_->overflows = true;
            else
                limit_->data_parallel = std::fmax(limit_->data_parallel, std::ceil((states - gathered) / room));
        }
        if (!keep_events_) return;

        if (index == timeline_.events.size()) {
            StepEvent event;
            event.phase = phase;
            event.block = block;
            event.layer = event.layer_last = layer;
            event.micro_batch = micro_batch_first;
            event.micro_batch_last = micro_batch_last;
            event.seconds = weighted_flops;  // FLOPs until step_timeline turns them into seconds
            event.held = held();
            timeline_.events.push_back(event);
            return;
        }
        StepEvent& event = timeline_.events[index];
        if (event.phase != phase || event.block != block) consistent_ = false;
        event.layer = std::min(event.layer, layer);
        event.layer_last = std::max(event.layer_last, layer);
        event.micro_batch = std::min(event.micro_batch, micro_batch_first);
        event.micro_batch_last = std::max(event.micro_batch_last, micro_batch_last);
        event.seconds += weighted_flops;
        if (total > event.held.total()) event.held = held();
    }

private:
    StepTimeline& timeline_;
    const Sizes& size_;
    const ModelStateBytes& states_;
    bool keep_events_;
    ShardingLimit* limit_;
    std::size_t cursor_ = 0, count_ = 0;
    double total_flops_ = 0;
    double peak_total_ = 0;  // timeline_.peak_held.total(), kept rather than summed again at every event
    bool peak_found_ = false;
    bool consistent_ = true;
};

// What one pass needs to know, for every micro-batch alike.
struct Plan {
    std::int32_t layers = 1;
    std::int32_t groups = 1;  // layer groups per pass, at most (bounded events)
    int zero = 0;
    bool gathers = false;
    bool recompute = false;
    bool first_stage = true;
    bool holds_logits = true;
    double layer_forward = 0, layer_backward = 0, layer_recompute = 0, head_active = 0;
};

// Runs cycle(i) for i from `from` to `to` (either direction) in at most `groups` runs of
// consecutive layers, each run shown as one set of events; a cycle changes the activations held by
// `delta` layers and leaves everything else as it found it.
//
// Within a run, every event of the cycle holds an amount affine in the cycle's index (only the
// count of layers' activations changes, by `delta` a cycle), so the most any member holds is held
// by the first or the last member: only those two are played, the last standing for the others'
// FLOPs. With only the peak wanted, the same argument spans the whole range: its first and last
// cycles are played at the event positions the first and last runs have in the full timeline.
template <typename Cycle>
void grouped_layers(Sink& sink, std::int32_t from, std::int32_t to, std::int32_t groups, std::int32_t delta,
                    Cycle cycle) {
    const std::int32_t step = from <= to ? 1 : -1;
    const std::int64_t count = static_cast<std::int64_t>(to - from) * step + 1;
    if (count <= 0) return;
    const std::int64_t runs = std::max<std::int64_t>(1, std::min<std::int64_t>(groups, count));
    auto layer_at = [&](std::int64_t k) { return static_cast<std::int32_t>(from + step * k); };
    if (!sink.keeps_events()) {
        const std::size_t position = sink.mark();
        cycle(from);
        if (count == 1) return;
        const std::size_t cycle_events = sink.mark() - position;
        sink.holding.activation_layers += delta * (count - 2);
        sink.rewind(position + static_cast<std::size_t>(runs - 1) * cycle_events);
        cycle(to);
        return;
    }
    const double weight = sink.weight;
    std::int64_t done = 0;
    for (std::int64_t run = 0; run < runs; ++run) {
        const std::int64_t end = count * (run + 1) / runs;  // even runs, no remainder left over
        const std::int64_t members = end - done;
        const std::size_t position = sink.mark();
        cycle(layer_at(done));
        if (members > 1) {
            sink.holding.activation_layers += delta * (members - 2);
            sink.rewind(position);
            sink.weight = weight * static_cast<double>(members - 1);
            cycle(layer_at(end - 1));
            sink.weight = weight;
        }
        done = end;
    }
}

// One micro-batch's forward pass through this stage (docs/model.md §9).
void forward_pass(Sink& sink, const Plan& plan) {
    Holding& holding = sink.holding;
    const std::int32_t n = plan.layers;
    if (plan.first_stage && plan.gathers) {
        holding.gathered_head = true;
        sink.add(StepPhase::gather, StepBlock::embedding, 0, 0);
        sink.add(StepPhase::forward, StepBlock::embedding, 0, 0);
        holding.gathered_head = false;
        sink.add(StepPhase::free, StepBlock::embedding, 0, 0);
    }
    // ZeRO-3 prefetches one layer ahead (DeepSpeed's prefetch bucket): while layer i runs,
    // layer i+1's weights are already gathered.
    if (plan.gathers) {
        holding.gathered_layers = 1;
        sink.add(StepPhase::gather, StepBlock::layer, 1, 0);
    }
    auto layer_cycle = [&](std::int32_t i) {
        if (plan.gathers && i < n) {
            ++holding.gathered_layers;
            sink.add(StepPhase::gather, StepBlock::layer, i + 1, 0);
        }
        ++holding.activation_layers;
        sink.add(StepPhase::forward, StepBlock::layer, i, plan.layer_forward);
        if (plan.gathers) {
            --holding.gathered_layers;
            sink.add(StepPhase::free, StepBlock::layer, i, 0);
        }
    };
    // The last layer has no next layer to prefetch: a cycle of its own.
    if (n >= 2) grouped_layers(sink, 1, n - 1, plan.groups, 1, layer_cycle);
    layer_cycle(n);
    if (plan.holds_logits) {
        if (plan.gathers) {
            holding.gathered_head = true;
            sink.add(StepPhase::gather, StepBlock::output, 0, 0);
        }
        // §4: the logits, kept in FP32 for the loss; the loss's gradient overwrites them in place.
        holding.logits = true;
        sink.add(StepPhase::loss, StepBlock::output, 0, 2 * plan.head_active);
    }
}

// One micro-batch's backward pass, last layer first.
void backward_pass(Sink& sink, const Plan& plan) {
    Holding& holding = sink.holding;
    const std::int32_t n = plan.layers;
    const int zero = plan.zero;
    if (plan.gathers) {
        holding.gathered_layers = 1;
        sink.add(StepPhase::gather, StepBlock::layer, n, 0);
    }
    if (plan.holds_logits) {
        holding.logits = false;
        holding.head_gradients = zero >= 2;
        sink.add(StepPhase::backward, StepBlock::output, 0, 4 * plan.head_active);
        if (zero >= 2) {
            holding.head_gradients = false;
            sink.add(StepPhase::reduce_scatter, StepBlock::output, 0, 0);
        }
        if (plan.gathers) {
            holding.gathered_head = false;
            sink.add(StepPhase::free, StepBlock::output, 0, 0);
        }
    }
    auto layer_cycle = [&](std::int32_t i) {
        if (plan.gathers && i > 1) {
            ++holding.gathered_layers;
            sink.add(StepPhase::gather, StepBlock::layer, i - 1, 0);
        }
        if (plan.recompute) {
            holding.rebuilt_layer = true;
            sink.add(StepPhase::recompute, StepBlock::layer, i, plan.layer_recompute);
        }
        // The layer's activations go once its gradients exist.
        --holding.activation_layers;
        holding.rebuilt_layer = false;
        holding.layer_gradients = zero >= 2;
        sink.add(StepPhase::backward, StepBlock::layer, i, plan.layer_backward);
        if (zero >= 2) {
            holding.layer_gradients = false;
            sink.add(StepPhase::reduce_scatter, StepBlock::layer, i, 0);
        }
        if (plan.gathers) {
            --holding.gathered_layers;
            sink.add(StepPhase::free, StepBlock::layer, i, 0);
        }
    };
    // The first layer processed and the last (no layer before it to prefetch) stand alone.
    layer_cycle(n);
    if (n >= 3) grouped_layers(sink, n - 1, 2, plan.groups, -1, layer_cycle);
    if (n > 1) layer_cycle(1);
    if (plan.first_stage && zero >= 2) {
        holding.gathered_head = plan.gathers;
        if (plan.gathers) sink.add(StepPhase::gather, StepBlock::embedding, 0, 0);
        holding.head_gradients = true;
        sink.add(StepPhase::backward, StepBlock::embedding, 0, 0);
        holding.head_gradients = false;
        sink.add(StepPhase::reduce_scatter, StepBlock::embedding, 0, 0);
        if (plan.gathers) {
            holding.gathered_head = false;
            sink.add(StepPhase::free, StepBlock::embedding, 0, 0);
        }
    }
}

void tag_micro_batches(Sink& sink, std::int64_t first, std::int64_t last) {
    sink.micro_batch_first = first;
    sink.micro_batch_last = last;
    sink.weight = static_cast<double>(last - first + 1);
}

// A run of passes whose memory differs (1F1B's warm-up and cool-down) shown as one set of events.
// Each pass changes the activations held by `delta` layers, so (as for layers) the first and last
// micro-batches of the run hold the most; the last stands for the others' FLOPs.
template <typename Pass>
void replayed_micro_batches(Sink& sink, std::int64_t first, std::int64_t last, std::int64_t delta, Pass pass) {
    const std::size_t position = sink.mark();
    tag_micro_batches(sink, first, first);
    pass();
    if (last == first) return;
    sink.holding.activation_layers += delta * (last - first - 1);
    sink.rewind(position);
    tag_micro_batches(sink, last, last);
    sink.weight = static_cast<double>(last - first);
    pass();
}

// Runs `shown(k)` for micro-batches first … last, showing the first and last on their own and the
// ones between as one run; `middle(first, last)` runs that middle.
template <typename One, typename Middle>
void micro_batch_runs(std::int64_t first, std::int64_t last, One one, Middle middle) {
    if (last < first) return;
    if (last - first < 3) {
        for (std::int64_t k = first; k <= last; ++k) one(k);
        return;
    }
    one(first);
    middle(first + 1, last - 1);
    one(last);
}

// The whole step (docs/model.md §9): the micro-batches of gradient accumulation, or the first
// pipeline stage's 1F1B schedule (Narayanan et al. 2021 §2.2), then the gradient reduction and
// the optimizer step.
void walk_step(Sink& sink, const Plan& plan, std::int64_t micro_batches, std::int64_t in_flight, double data_parallel) {
    auto forward = [&](std::int64_t k) {
        tag_micro_batches(sink, k, k);
        forward_pass(sink, plan);
    };
    auto backward = [&](std::int64_t k) {
        tag_micro_batches(sink, k, k);
        backward_pass(sink, plan);
    };
    if (in_flight <= 1) {
        // Gradient accumulation: each micro-batch's forward and backward; the gradient buffer is
        // held all step, so micro-batches between the first and last are alike and run as one.
        auto both = [&](std::int64_t k) {
            forward(k);
            backward(k);
        };
        micro_batch_runs(1, micro_batches, both, [&](std::int64_t a, std::int64_t b) {
            tag_micro_batches(sink, a, b);
            forward_pass(sink, plan);
            backward_pass(sink, plan);
        });
    } else {
        // 1F1B on the first stage (Narayanan et al. 2021 §2.2; Korthikanti §4.2.3): p − 1 warm-up
        // forwards, then one forward and one backward in turn, then the remaining backwards. The
        // stage holds `in_flight` micro-batches at once, the most just before its first backward.
        const std::int64_t warm_up = in_flight - 1;
        const std::int64_t steady = micro_batches - warm_up;
        auto replayed_forwards = [&](std::int64_t a, std::int64_t b) {
            replayed_micro_batches(sink, a, b, plan.layers, [&] { forward_pass(sink, plan); });
        };
        auto replayed_backwards = [&](std::int64_t a, std::int64_t b) {
            replayed_micro_batches(sink, a, b, -plan.layers, [&] { backward_pass(sink, plan); });
        };
        micro_batch_runs(1, warm_up, forward, replayed_forwards);
        // Steady state: every pair leaves memory as it found it, so the middle pairs are alike.
        auto pair = [&](std::int64_t j) {
            forward(warm_up + j);
            backward(j);
        };
        micro_batch_runs(1, steady, pair, [&](std::int64_t a, std::int64_t b) {
            tag_micro_batches(sink, warm_up + a, warm_up + b);
            forward_pass(sink, plan);
            tag_micro_batches(sink, a, b);
            backward_pass(sink, plan);
        });
        micro_batch_runs(steady + 1, micro_batches, backward, replayed_backwards);
    }
    tag_micro_batches(sink, 0, 0);
    // ZeRO-0 all-reduces the gradients (overlapped with the last backward, in buckets); ZeRO-1
    // reduce-scatters them so each GPU gets the slice its optimizer states update.
    if (plan.zero == 0 && data_parallel > 1) sink.add(StepPhase::all_reduce, StepBlock::all, 0, 0);
    if (plan.zero == 1 && data_parallel > 1) sink.add(StepPhase::reduce_scatter, StepBlock::all, 0, 0);
    sink.holding.optimizer_step = true;
    sink.add(StepPhase::optimizer, StepBlock::all, 0, 0);
    sink.holding.optimizer_step = false;
}

}  // namespace

namespace {

// docs/model.md §9: the GPU simulated is the pipeline stage the estimate reports (§4): the last
// stage when it holds the logits, else the first; its layers and micro-batches.
Plan plan_stage(const Scenario& scenario, const ActivationBytes& activations, StepTimeline& timeline) {
    const Architecture& a = scenario.model.architecture;
    const ParallelSettings& parallel = scenario.parallel;
    const double p = parallel.pipeline;
    // ZeRO shards over the d·c ranks that hold the same weights (docs/model.md §11).
    const double d = parallel.data_parallel() * parallel.context;
    Plan plan;
    plan.zero = parallel.zero_stage;
    // docs/model.md §16: weights offloaded to the CPU come back layer by layer whatever d.
    const bool weights_offloaded = scenario.training.offload == Offload::parameters;
    plan.gathers = plan.zero >= 3 && (d > 1 || weights_offloaded);
    plan.recompute = scenario.training.recompute != Recompute::none;
    plan.holds_logits = activations.logits > 0;
    plan.first_stage = p <= 1 || !plan.holds_logits;
    double stage_layers = p <= 1 ? a.layers : std::ceil(a.layers / p - 1e-9);
    // Uneven first and last stages (docs/model.md §11): the reported stage's own layer count.
    if (p > 1 && plan.first_stage && parallel.first_stage_layers > 0) stage_layers = parallel.first_stage_layers;
    if (p > 1 && !plan.first_stage && parallel.last_stage_layers > 0) stage_layers = parallel.last_stage_layers;
    timeline.layers = plan.layers = static_cast<std::int32_t>(at_least(1.0, stage_layers));
    timeline.prefetch_layers = plan.gathers ? 1 : 0;
    // §4: micro-batches per step, and how many the reported stage holds at once (1F1B).
    timeline.micro_batches = static_cast<std::int64_t>(at_least(1.0, activations.micro_batches));
    timeline.in_flight =
        static_cast<std::int64_t>(at_least(1.0, std::fmin(activations.in_flight, activations.micro_batches)));
    return plan;
}

// The bytes each kind of event adds or frees (docs/model.md §9), and the share of a layer a ZeRO-3
// gather brings in (0 without gathers).
Sizes event_sizes(const Scenario& scenario, const ParameterCount& params, const LayerParameters& figures,
                  const BytesPerParam& bytes_per_param, const ActivationBytes& activations, const Plan& plan,
                  const StepTimeline& timeline, double& gathered_share,
                  const ActivationBytes* without_recompute = nullptr) {
    const Architecture& a = scenario.model.architecture;
    const ParallelSettings& parallel = scenario.parallel;
    const double t = parallel.tensor, e = parallel.expert;
    const double d = parallel.data_parallel() * parallel.context;
    const ParameterCount& layer_params = figures.layer;
    const double head_params = figures.head;
    Sizes size;
    // §9: the estimate's pile (§4) spread evenly over the stage's layers and its in-flight
    // micro-batches, so the stage holds exactly the estimate's figure when the most are in flight.
    size.kept_activations_per_layer =
        activations.layers / (static_cast<double>(timeline.layers) * static_cast<double>(timeline.in_flight));
    if (plan.recompute) {
        // Korthikanti §5: a recomputed layer rebuilds what it would have kept without recompute.
        // The caller may have them already (the fit search keeps them): they cost as much as the rest.
        TrainingSettings without = scenario.training;
        without.recompute = Recompute::none;
        const double full_layer =
            without_recompute ? without_recompute->per_layer : training_activations(a, without, parallel).per_layer;
        size.rebuilt_activations = at_least(0.0, full_layer - activations.per_layer);
    }
    size.logits = activations.logits;
    // ZeRO §5.3 (P_os+g+p): a layer's parameters are all-gathered before use; the GPU's own
    // 1/d slice is already held, so the gather adds the other (d−1)/d.
    // Offloaded weights: the GPU keeps no slice, so the whole layer arrives (docs/model.md §16).
    const bool weights_offloaded = scenario.training.offload == Offload::parameters;
    gathered_share = weights_offloaded ? 1.0 : plan.gathers ? (d - 1) / d : 0.0;
    // With expert parallelism a layer's routed experts are split e ways more (docs/model.md §11).
    const double layer_on_gpu =
        e > 1 && params.routed_experts > 0
            ? (layer_params.total - layer_params.routed_experts) / t + layer_params.routed_experts / (t * e)
            : layer_params.total / t;
    size.gathered_layer = layer_on_gpu * bytes_per_param.weights * gathered_share;
    size.gathered_head = head_params / t * bytes_per_param.weights * gathered_share;
    // ZeRO §5.2 (P_os+g): a layer's full gradients exist until they are reduce-scattered to their owners.
    if (plan.zero >= 2) {
        size.layer_gradients = layer_on_gpu * bytes_per_param.gradients;
        size.head_gradients = head_params / t * bytes_per_param.gradients;
    }
    size.optimizer_temporary_share = optimizer_step_temporary_share(scenario.training);
    return size;
}

// §9 durations: FLOPs per token, model-wide, as §6 counts them; each event gets its share of this
// GPU's compute time for the step.
void time_compute(const Scenario& scenario, const ParameterCount& params, const LayerParameters& figures,
                  const TrainingCompute& compute, Plan& plan, StepTimeline& timeline) {
    const Architecture& a = scenario.model.architecture;
    const TrainingSettings& training = scenario.training;
    const ParallelSettings& parallel = scenario.parallel;
    const ParameterCount& layer_params = figures.layer;
    const double attention_forward = training.attention_flops ? attention_forward_flops_per_layer(a, training.sequence)
                                                              : 0.0;   // PaLM App. B: 12·h·s per layer, 1/3 forward
    plan.layer_forward = 2 * layer_params.active + attention_forward;  // Kaplan §2.1: 2 per parameter forward
    plan.layer_backward = 2 * plan.layer_forward;                      // 4 per parameter backward
    plan.head_active = at_least(0.0, params.active - a.layers * layer_params.active);
    // The run's model FLOPs per token as §6 counts them (compute.cpp): 6·N (+ attention) for full
    // training, 4·N + 6·A for LoRA and QLoRA's frozen base, so the step's time is the run's.
    const double model_flops_per_token = training.tokens > 0 ? compute.model_flops / training.tokens
                                                             : 6 * params.active + a.layers * 3 * attention_forward;
    const double hardware_ratio = compute.model_flops > 0 ? compute.hardware_flops / compute.model_flops : 1.0;
    // §6: recompute's extra FLOPs (Narayanan Eq. 4 for full, Korthikanti §5 for selective), per layer.
    plan.layer_recompute = model_flops_per_token * (hardware_ratio - 1) / a.layers;
    const double sustained = scenario.hardware.gpu.peak_flops * scenario.hardware.utilization;
    // §6: this GPU's share of one micro-batch's hardware FLOPs (÷ t·p), at the sustained rate.
    timeline.micro_batch_seconds = model_flops_per_token * hardware_ratio * training.sequence * training.micro_batch /
                                   (parallel.tensor * parallel.pipeline * parallel.context) / sustained;
    timeline.compute_seconds = timeline.micro_batch_seconds * static_cast<double>(timeline.micro_batches);
}

// §9: the optimizer reads the gradients and master weights and moments, writes the master and
// moments back, and writes the 16-bit weights (reads and writes them in FP32 training),
// for the parameters this GPU updates (its 1/d slice from ZeRO-1 on, ZeRO §5.1).
void time_optimizer(const Scenario& scenario, const ParameterCount& params, const BytesPerParam& bytes_per_param,
                    StepTimeline& timeline) {
    const ParallelSettings& parallel = scenario.parallel;
    const double t = parallel.tensor, p = parallel.pipeline, e = parallel.expert;
    const double d = parallel.data_parallel() * parallel.context;
    const int zero = parallel.zero_stage;
    const Gpu& gpu = scenario.hardware.gpu;
    timeline.memory_bandwidth = gpu.memory_bandwidth;
    if (!(timeline.memory_bandwidth > 0)) {
        // A custom GPU gives no bandwidth: assume the H100 SXM's bytes per FLOP.
        const Gpu* reference = find_gpu("h100-sxm");
        timeline.memory_bandwidth = gpu.peak_flops * reference->memory_bandwidth / reference->peak_flops;
        timeline.memory_bandwidth_assumed = true;
    }
    double updated_params = params.total / (t * p) / (zero >= 1 ? d : 1.0);
    // Expert parallelism (docs/model.md §11): without ZeRO a GPU updates its own e-th of the routed
    // experts; with it, its 1/(d·c) share either way.
    if (zero == 0 && e > 1 && params.routed_experts > 0)
        updated_params = (params.total - params.routed_experts) / (t * p) + params.routed_experts / (t * p * e);
    const double bytes_touched_per_param = bytes_per_param.gradients +
                                           2 * (bytes_per_param.master_weights + bytes_per_param.optimizer_states) +
                                           (bytes_per_param.master_weights > 0 ? 1.0 : 2.0) * bytes_per_param.weights;
    timeline.optimizer_seconds = updated_params * bytes_touched_per_param / timeline.memory_bandwidth;
}

// Bounded events: passes shown (each micro-batch run's forward and backward), and per layer
// cycle up to 3 forward events and 5 backward ones; layer groups share what is left. Returns the
// events to reserve room for.
std::int64_t budget_events(Plan& plan, const StepTimeline& timeline, std::size_t event_limit) {
    const std::int64_t m = timeline.micro_batches, w = timeline.in_flight - 1;
    const auto runs = [](std::int64_t count) { return std::min<std::int64_t>(std::max<std::int64_t>(count, 0), 3); };
    const std::int64_t forward_passes = timeline.in_flight <= 1 ? runs(m) : runs(w) + runs(m - w);
    const std::int64_t backward_passes = timeline.in_flight <= 1 ? runs(m) : runs(m - w) + runs(w);
    const std::int64_t forward_cycle = 1 + (plan.gathers ? 2 : 0);
    const std::int64_t backward_cycle =
        1 + (plan.recompute ? 1 : 0) + (plan.zero >= 2 ? 1 : 0) + (plan.gathers ? 2 : 0);
    const std::int64_t per_group = forward_passes * forward_cycle + backward_passes * backward_cycle;
    const std::int64_t fixed = (forward_passes + backward_passes) * 2 * (forward_cycle + backward_cycle) + 16;
    const std::int64_t budget = static_cast<std::int64_t>(std::min<std::size_t>(event_limit, 1u << 30)) - fixed;
    plan.groups = static_cast<std::int32_t>(std::max<std::int64_t>(1, budget / std::max<std::int64_t>(1, per_group)));
    return per_group * (std::min<std::int64_t>(timeline.layers, plan.groups) + 2) + fixed;
}

// Until the walk ends each event's `seconds` holds its FLOPs per token, times the micro-batches it
// stands for: each gets its share of the step's compute time; the optimizer its own.
void finish_events(const Sink& sink, StepTimeline& timeline) {
    const double step_flops = sink.total_flops();
    for (StepEvent& event : timeline.events) {
        event.seconds = step_flops > 0 ? timeline.compute_seconds * event.seconds / step_flops : 0.0;
        if (event.phase == StepPhase::optimizer) event.seconds = timeline.optimizer_seconds;
    }
    timeline.grouping_consistent = sink.consistent();
    std::vector<std::int64_t> alone;
    for (const StepEvent& event : timeline.events)
        if (event.micro_batch > 0 && event.micro_batch == event.micro_batch_last) alone.push_back(event.micro_batch);
    std::sort(alone.begin(), alone.end());
    timeline.micro_batches_shown = std::unique(alone.begin(), alone.end()) - alone.begin();
}

}  // namespace

StepTimeline step_timeline(const Scenario& scenario, const ParameterCount& params, const BytesPerParam& bytes_per_param,
                           const ModelStateBytes& per_gpu_states, const ActivationBytes& activations,
                           const TrainingCompute& compute, StepDetail detail, ShardingLimit* sharding_limit,
                           std::size_t event_limit) {
    StepTimeline timeline;
    Plan plan = plan_stage(scenario, activations, timeline);
    double gathered_share = 0;
    const LayerParameters figures = layer_parameters(scenario.model.architecture, params);
    const Sizes size =
        event_sizes(scenario, params, figures, bytes_per_param, activations, plan, timeline, gathered_share);
    time_compute(scenario, params, figures, compute, plan, timeline);
    time_optimizer(scenario, params, bytes_per_param, timeline);
    const std::int64_t events_expected = budget_events(plan, timeline, event_limit);

    const bool keep_events = detail == StepDetail::events;
    if (keep_events) timeline.events.reserve(static_cast<std::size_t>(events_expected));
    if (sharding_limit) sharding_limit->gathered_share = gathered_share > 0 ? gathered_share : 1.0;
    Sink sink(timeline, size, per_gpu_states, keep_events, sharding_limit);
    const double d = scenario.parallel.data_parallel() * scenario.parallel.context;
    walk_step(sink, plan, timeline.micro_batches, timeline.in_flight, d);
    timeline.event_count = sink.count();
    if (keep_events) finish_events(sink, timeline);
    return timeline;
}

LayerParameters layer_parameters(const Architecture& architecture, const ParameterCount& params) {
    LayerParameters figures;
    figures.layer = parameters_per_layer(architecture, params);
    figures.head = architecture.vocab * architecture.hidden *
                   (params.total / std::fmax(1.0, count_parameters(architecture).total));
    return figures;
}

StepPeakBounds step_peak_bounds(const Scenario& scenario, const ParameterCount& params, const LayerParameters& figures,
                                const BytesPerParam& bytes_per_param, const ModelStateBytes& per_gpu_states,
                                const ActivationBytes& activations, const ActivationBytes* without_recompute) {
    const StepPeakParts parts =
        step_peak_parts(scenario, params, figures, bytes_per_param, activations, without_recompute);
    return step_peak_from_parts(per_gpu_states.total(), parts.activations, parts.weights);
}

namespace {

// The activations' side from the plan and the sizes: step_peak_parts and step_activation_parts
// both end here, so their figures are one expression.
ActivationPeakParts activation_parts_of(const Plan& plan, const StepTimeline& timeline, double kept_per_layer,
                                        double rebuilt, double logits) {
    const double layers = static_cast<double>(timeline.layers), in_flight = static_cast<double>(timeline.in_flight);
    ActivationPeakParts parts;
    parts.pile = layers * in_flight * kept_per_layer;
    parts.kept_per_layer = kept_per_layer;
    parts.pass_activations = layers * kept_per_layer;
    parts.rebuilt = rebuilt;
    parts.logits = plan.holds_logits ? logits : 0.0;
    parts.prefetches = plan.layers >= 2;
    parts.first_stage = plan.first_stage;
    // forward_pass sets the logits and the gathered head at the loss and only backward_pass frees
    // them: with several micro-batches in flight a second forward would run beside them.
    parts.logits_outlive_pass = plan.holds_logits && timeline.in_flight > 1;
    return parts;
}

}  // namespace

StepPeakBounds step_peak_from_parts(double states, const ActivationPeakParts& a, const WeightPeakParts& w) {
    // The walk's groups (timeline.cpp's forward_pass, backward_pass, walk_step; docs/model.md §17).
    // Every event holds at most the pile, and one of these on top; each is held, with the counts
    // shown, by an event of the forward that completes the pile or of the backward that follows it
    // (1F1B's first steady pair, or any micro-batch of gradient accumulation), so each is also a
    // lower bound.
    // ZeRO-3 holds the layer in use and the one prefetched; a one-layer stage never prefetches.
    const double layers_gathered = a.prefetches ? 2 * w.gathered_layer : w.gathered_layer;
    // The backward's first layer rebuilding its activations beside both gathered layers, with the
    // whole pile (without recompute: its prefetch, or on a one-layer stage the forward of it).
    const double rebuilding = a.rebuilt + layers_gathered;
    // The same layer's backward: its activations (kept and rebuilt) freed as its full gradients
    // appear, before their reduce-scatter.
    const double first_gradients = w.layer_gradients + layers_gathered - a.kept_per_layer;
    // The loss holds the logits and the gathered output matrix; the backward's first gather adds
    // a layer before the output's backward swaps the logits for the output's gradients.
    const double output =
        a.logits > 0 ? w.gathered_layer + w.gathered_head + std::max(a.logits, w.head_gradients) : 0.0;
    double extra = std::max(std::max(rebuilding, first_gradients), output);
    // The embedding's backward ends a backward pass, one pass's activations below the pile: its
    // gradients beside the gathered embedding (its forward's gather, gathered head alone, is less).
    if (a.first_stage) extra = std::max(extra, w.gathered_head + w.head_gradients - a.pass_activations);
    StepPeakBounds bounds;
    // The optimizer step, after the backward has freed every activation: the states and the
    // optimizer's temporary alone (walk_step).
    bounds.lower = std::max(states + a.pile + extra, states + w.optimizer_temporary);
    bounds.upper = bounds.lower;
    if (a.logits_outlive_pass)  // the groups no longer hold: every extra at once
        bounds.upper = std::max(states + a.pile + a.rebuilt + a.logits + 2 * w.gathered_layer + w.gathered_head +
                                    w.layer_gradients + w.head_gradients,
                                bounds.lower);
    return bounds;
}

StepPeakParts step_peak_parts(const Scenario& scenario, const ParameterCount& params, const LayerParameters& figures,
                              const BytesPerParam& bytes_per_param, const ActivationBytes& activations,
                              const ActivationBytes* without_recompute) {
    StepTimeline timeline;
    const Plan plan = plan_stage(scenario, activations, timeline);
    double gathered_share = 0;
    const Sizes size = event_sizes(scenario, params, figures, bytes_per_param, activations, plan, timeline,
                                   gathered_share, without_recompute);
    StepPeakParts parts;
    parts.activations =
        activation_parts_of(plan, timeline, size.kept_activations_per_layer, size.rebuilt_activations, size.logits);
    // The walk gathers only with plan.gathers (event_sizes' share is 1 for offloaded weights anyway).
    parts.weights.gathered_layer = plan.gathers ? size.gathered_layer : 0.0;
    parts.weights.gathered_head = plan.gathers ? size.gathered_head : 0.0;
    parts.weights.layer_gradients = size.layer_gradients;
    parts.weights.head_gradients = size.head_gradients;
    // The walk's optimizer step holds the states on the GPU (offload moves the step to the CPU).
    if (size.optimizer_temporary_share > 0)
        parts.weights.optimizer_temporary =
            per_gpu_model_states(bytes_per_param, params, scenario.parallel).optimizer_states *
            size.optimizer_temporary_share;
    return parts;
}

ActivationPeakParts step_activation_parts(const Scenario& scenario, const ActivationBytes& activations,
                                          const ActivationBytes& without_recompute) {
    StepTimeline timeline;
    const Plan plan = plan_stage(scenario, activations, timeline);
    // event_sizes' expressions for these sizes.
    const double layers = static_cast<double>(timeline.layers), in_flight = static_cast<double>(timeline.in_flight);
    const double kept_activations_per_layer = activations.layers / (layers * in_flight);
    const double rebuilt_activations =
        plan.recompute ? at_least(0.0, without_recompute.per_layer - activations.per_layer) : 0.0;
    return activation_parts_of(plan, timeline, kept_activations_per_layer, rebuilt_activations, activations.logits);
}

}  // namespace trainscope
