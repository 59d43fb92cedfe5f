// The bounds the inverse search rules out whole families of layouts with (docs/model.md §17),
// checked against the figures they stand for over every preset, three trainings and a grid of
// layouts, ZeRO stages, recompute choices and micro-batches.
#include "catch_include.hpp"

#include <cmath>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/communication.hpp"
#include "engine/model/compute.hpp"
#include "engine/model/finetune.hpp"
#include "engine/model/fit.hpp"
#include "engine/model/fit_changes.hpp"
#include "engine/model/memory.hpp"
#include "engine/model/offload.hpp"
#include "engine/model/scenario.hpp"
#include "engine/model/timeline.hpp"
#include "fit_support.hpp"

using namespace trainscope;

namespace {

// Full training, LoRA with a global batch (several micro-batches per step), and QLoRA with its
// optimizer offloaded (ZeRO ≥ 1) or its weights too (ZeRO-3 only).
const char* const trainings[] = {R"({"sequence":2048})", R"({"sequence":4096,"method":"lora","global_batch":64})",
                                 R"({"sequence":1024,"method":"qlora","offload":"optimizer","flash_attention":false})",
                                 R"({"sequence":2048,"method":"qlora","offload":"parameters","global_batch":256})"};

// Calls visit(s) for every valid layout of the grid (fit_support.hpp), for every preset and training.
void for_each_grid_layout(const std::function<void(const Scenario&)>& visit) {
    for (const ModelPreset& preset : model_presets())
        for (const char* training : trainings) testing::for_each_grid_layout(preset.id, training, visit);
}

// The figures check_layout works out for a scenario, for the bounds' inputs.
struct Chain {
    ParameterCount params;
    BytesPerParam bytes;
    double trainable_weights = 0;
    BytesPerParam trainable;
    TrainingCompute compute;
};

Chain chain_of(const Scenario& s) {
    Chain chain;
    chain.params = scenario_parameters(s);
    const FineTuningFigures fine_tuning = fine_tuning_figures(s.training, s.model.architecture, chain.params.total);
    chain.bytes = fine_tuned_bytes_per_param(fine_tuning, chain.params.total);
    chain.trainable = fine_tuning.trainable_bytes;
    chain.compute = training_compute(s.model.architecture, chain.params.active, s);
    return chain;
}

double states_of(const Scenario& s, const Chain& chain) {
    ModelStateBytes states = per_gpu_model_states(chain.bytes, chain.params, s.parallel);
    const ActivationBytes activations = training_activations(s.model.architecture, s.training, s.parallel);
    offload_states(s, chain.bytes, chain.trainable, chain.params, activations.micro_batches, states);
    return states.total();
}

bool same_activation_parts(const ActivationPeakParts& x, const ActivationPeakParts& y) {
    return x.pile == y.pile && x.kept_per_layer == y.kept_per_layer && x.pass_activations == y.pass_activations &&
           x.rebuilt == y.rebuilt && x.logits == y.logits && x.prefetches == y.prefetches &&
           x.first_stage == y.first_stage && x.logits_outlive_pass == y.logits_outlive_pass;
}

bool same_weight_parts(const WeightPeakParts& x, const WeightPeakParts& y) {
    return x.gathered_layer == y.gathered_layer && x.gathered_head == y.gathered_head &&
           x.layer_gradients == y.layer_gradients && x.head_gradients == y.head_gradients;
}

StepPeakParts parts_of(const Scenario& s, const Chain& chain) {
    const Architecture& a = s.model.architecture;
    TrainingSettings without = s.training;
    without.recompute = Recompute::none;
    const ActivationBytes without_recompute = training_activations(a, without, s.parallel);
    return step_peak_parts(s, chain.params, layer_parameters(a, chain.params), chain.bytes,
                           training_activations(a, s.training, s.parallel), &without_recompute);
}

}  // namespace

TEST_CASE("the run-time floor is at most the step of every ZeRO stage and expert split, and one for all of them",
          "[fit][exact][bounds]") {
    // docs/model.md §17: communication_step_floor sums the arithmetic and the terms fixed by t, p, v
    // and c in the step's own order; the expert and sharding terms it leaves out are ≥ 0, so it is
    // below the step bit for bit, and the same for every ZeRO stage and expert split of a family.
    double layouts = 0, tight = 0;
    for_each_grid_layout([&](const Scenario& s) {
        const Chain chain = chain_of(s);
        const double floor = communication_step_floor(s, chain.params, chain.bytes, chain.compute);
        const double step = communication_step_seconds(s, chain.params, chain.bytes, chain.compute);
        INFO(s.model.architecture.layers << " layers, t" << s.parallel.tensor << " p" << s.parallel.pipeline << " c"
                                         << s.parallel.context << " e" << s.parallel.expert << " zero "
                                         << s.parallel.zero_stage << " b " << s.training.micro_batch);
        CHECK(floor <= step);
        CHECK(step == communication_model(s, chain.params, chain.bytes, chain.compute).step_seconds);
        Scenario family_member = s;
        family_member.parallel.zero_stage = (s.parallel.zero_stage + 2) % 4;
        family_member.parallel.expert = 1;
        CHECK(communication_step_floor(family_member, chain.params, chain.bytes, chain.compute) == floor);
        TrainingCompute by_recompute[3];  // the three choices' floors from one shape: the same, bit for bit
        for (const Recompute r : {Recompute::none, Recompute::selective, Recompute::full}) {
            Scenario with_r = s;
            with_r.training.recompute = r;
            by_recompute[static_cast<int>(r)] = chain_of(with_r).compute;
        }
        double floors[3];
        communication_step_floors(family_member, chain.params, chain.bytes, by_recompute, floors);
        CHECK(floors[static_cast<int>(s.training.recompute)] == floor);
        ++layouts;
        if (floor == step) ++tight;
    });
    CHECK(layouts > 10000);
    CHECK(tight > 0);        // reached where nothing else is exposed: the floor is not loose everywhere
    CHECK(tight < layouts);  // and the terms it leaves out do show elsewhere
}

TEST_CASE("the peak's parts, worked out apart as the search combines them, hold the timeline's peak",
          "[fit][exact][bounds]") {
    // docs/model.md §17: the search works out the activations' parts once per (t, p, c, v) and
    // recompute choice, the states and the weights' parts once per (t, p, e, ZeRO stage), and
    // combines them with step_peak_from_parts. Each part must be the same for every layout that
    // shares it, and the combination must hold the timeline's peak between the bounds.
    double layouts = 0;
    for_each_grid_layout([&](const Scenario& s) {
        const Chain chain = chain_of(s);
        const StepPeakParts parts = parts_of(s, chain);
        Scenario other_stage = s;  // the activations' parts: the same at another ZeRO stage and expert split
        other_stage.parallel.zero_stage = (s.parallel.zero_stage + 1) % 4;
        other_stage.parallel.expert = 1;
        CHECK(same_activation_parts(parts_of(other_stage, chain).activations, parts.activations));
        TrainingSettings without = s.training;  // the search's activation-only path: the same bits
        without.recompute = Recompute::none;
        const ActivationPeakParts activation_only =
            step_activation_parts(s, training_activations(s.model.architecture, s.training, s.parallel),
                                  training_activations(s.model.architecture, without, s.parallel));
        CHECK(same_activation_parts(activation_only, parts.activations));
        Scenario other_shape = s;  // the states and the weights' parts: the same for another c, v and recompute
        other_shape.parallel.context = s.parallel.context == 1 ? 2 : 1;
        other_shape.parallel.interleave = 1;
        other_shape.training.recompute = Recompute::none;
        const Chain other_chain = chain_of(other_shape);
        CHECK(states_of(other_shape, other_chain) == states_of(s, chain));
        CHECK(same_weight_parts(parts_of(other_shape, other_chain).weights, parts.weights));
        // memory.cpp gives a stage that holds the logits one micro-batch in flight: the groups hold.
        CHECK_FALSE(parts.activations.logits_outlive_pass);
        const double states = states_of(s, chain);
        const StepPeakBounds bounds = step_peak_from_parts(states, parts.activations, parts.weights);
        const double peak = check_layout(s, chain.params, false).peak_bytes;
        CHECK(bounds.lower <= peak * (1 + 1e-12));
        CHECK(peak <= bounds.upper * (1 + 1e-12));
        ++layouts;
    });
    CHECK(layouts > 10000);
}

namespace {

// One layout of the grid as the bounds see it: its states, its parts, its timeline's peak and
// the GPU's memory.
struct BoundedLayout {
    double states = 0, peak = 0, memory = 0;  // memory: what the tensors get (hardware.hpp's tensor_memory_bytes)
    bool rtx_4090 = false;
    StepPeakParts parts;
    bool judged_fits = false;  // fits_judged's verdict: the bounds', or the timeline's where they leave it open
};

// Every layout of the grid, on the presets' own GPUs and on RTX 4090s, 24,564 MiB (tight memory: most
// of a big model's layouts overflow, some only just), worked out once for the cases below.
const std::vector<BoundedLayout>& bounded_layouts() {
    static const std::vector<BoundedLayout> layouts = [] {
        std::vector<BoundedLayout> all;
        for (const char* gpu : {"", "rtx-4090"})
            for (const ModelPreset& preset : model_presets())
                for (const char* training : trainings)
                    testing::for_each_grid_layout(
                        preset.id, training,
                        [&](const Scenario& s) {
                            const Chain chain = chain_of(s);
                            BoundedLayout layout;
                            layout.states = states_of(s, chain);
                            layout.parts = parts_of(s, chain);
                            layout.peak = check_layout(s, chain.params, false).peak_bytes;
                            layout.memory = tensor_memory_bytes(s.hardware.gpu);
                            layout.rtx_4090 = s.hardware.gpu.id == "rtx-4090";
                            layout.judged_fits = fits_judged(s, chain.params);
                            all.push_back(layout);
                        },
                        gpu);
        return all;
    }();
    return layouts;
}

StepPeakBounds bounds_of(const BoundedLayout& layout) {
    return step_peak_from_parts(layout.states, layout.parts.activations, layout.parts.weights);
}

bool within_rounding(double x, double y) { return std::fabs(x - y) <= 1e-12 * std::fmax(x, y); }

}  // namespace

TEST_CASE("on RTX 4090s the bounds' verdict is the timeline's for every layout of the grid", "[fit][exact][bounds]") {
    // docs/model.md §17: a layout fits when its timeline's peak is at most the memory; the bounds
    // decide it without the walk only where they are sure. Tight memory puts many peaks near it.
    double layouts = 0, fitting = 0, overflowing_past_states = 0;
    for (const BoundedLayout& layout : bounded_layouts()) {
        if (!layout.rtx_4090) continue;
        const bool fits = layout.peak <= layout.memory;
        CHECK(layout.judged_fits == fits);
        const StepPeakBounds bounds = bounds_of(layout);
        CHECK(bounds.lower <= layout.peak * (1 + 1e-12));
        CHECK(layout.peak <= bounds.upper * (1 + 1e-12));
        ++layouts;
        if (fits) ++fitting;
        if (!fits && layout.states <= layout.memory) ++overflowing_past_states;
    }
    CHECK(layouts > 10000);
    CHECK(fitting > 0);
    CHECK(overflowing_past_states > 0);  // overflowed by what comes and goes, not by the states alone
}

TEST_CASE("the upper bound adds one group of extras, for some layouts less than every extra at once",
          "[fit][exact][bounds]") {
    // docs/model.md §17: the walk never holds a rebuilt layer, the logits, both gathered layers and
    // the gathered head and both gradient buffers at once, so the bound takes the largest group.
    // The sum of them all (the search's former bound) is an upper bound too, and above this one.
    double layouts = 0, below_sum = 0;
    for (const BoundedLayout& layout : bounded_layouts()) {
        const ActivationPeakParts& a = layout.parts.activations;
        const WeightPeakParts& w = layout.parts.weights;
        const double every_extra = layout.states + a.pile + a.rebuilt + a.logits + 2 * w.gathered_layer +
                                   w.gathered_head + w.layer_gradients + w.head_gradients;
        const double upper = bounds_of(layout).upper;
        CHECK(upper <= every_extra * (1 + 1e-12));
        ++layouts;
        if (upper < every_extra * (1 - 1e-9)) ++below_sum;
    }
    CHECK(layouts > 20000);
    CHECK(below_sum > 0);
}

TEST_CASE("each group of extras the bounds take is some layout's peak, beside the pile", "[fit][exact][bounds]") {
    // docs/model.md §17, the groups: each is held by an event of the pass that completes the pile
    // or of the backward after it, so for some layout it is the peak itself (within rounding), and
    // the bound is reached rather than merely valid.
    double rebuilding = 0, first_gradients = 0, output = 0, embedding = 0;
    for (const BoundedLayout& layout : bounded_layouts()) {
        const ActivationPeakParts& a = layout.parts.activations;
        const WeightPeakParts& w = layout.parts.weights;
        const double base = layout.states + a.pile;
        const double layers_gathered = (a.prefetches ? 2 : 1) * w.gathered_layer;
        // Only groups with something in them: an empty one is the pile, which every layout reaches.
        if (a.rebuilt > 0 && within_rounding(layout.peak, base + a.rebuilt + layers_gathered)) ++rebuilding;
        if (w.layer_gradients > 0 &&
            within_rounding(layout.peak, base + w.layer_gradients + layers_gathered - a.kept_per_layer))
            ++first_gradients;
        if (a.logits > 0 && w.gathered_layer > 0 &&
            within_rounding(layout.peak,
                            base + w.gathered_layer + w.gathered_head + std::fmax(a.logits, w.head_gradients)))
            ++output;
        if (a.first_stage && w.head_gradients > 0 &&
            within_rounding(layout.peak, base + w.gathered_head + w.head_gradients - a.pass_activations))
            ++embedding;
    }
    CHECK(rebuilding > 0);
    CHECK(first_gradients > 0);
    CHECK(output > 0);
    CHECK(embedding > 0);
}
