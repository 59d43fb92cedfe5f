// The bounds the inverse search rules out whole families of layouts with (docs/model.md §17),
// checked against the figures they stand for over every preset, three trainings and a grid of
// layouts, ZeRO stages, recompute choices and micro-batches.
#include "catch_include.hpp"

#include <cmath>
#include <functional>
#include <string>
#include <string_view>

#include "engine/model/communication.hpp"
#include "engine/model/compute.hpp"
#include "engine/model/finetune.hpp"
#include "engine/model/fit.hpp"
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
    // docs/model.md §17: the search works out the activations' part once per (t, p, c, v) and
    // recompute choice, the states and the weights' part once per (t, p, e, ZeRO stage), and adds
    // them. Each part must be the same for every layout that shares it, and their sum must hold
    // the timeline's peak between the bounds.
    double layouts = 0;
    for_each_grid_layout([&](const Scenario& s) {
        const Chain chain = chain_of(s);
        const StepPeakParts parts = parts_of(s, chain);
        Scenario other_stage = s;  // the activations' part: the same at another ZeRO stage and expert split
        other_stage.parallel.zero_stage = (s.parallel.zero_stage + 1) % 4;
        other_stage.parallel.expert = 1;
        const StepPeakParts activation_source = parts_of(other_stage, chain);
        CHECK(activation_source.pile == parts.pile);
        CHECK(activation_source.activation_extra == parts.activation_extra);
        TrainingSettings without = s.training;  // the search's activation-only path: the same bits
        without.recompute = Recompute::none;
        const StepPeakParts activation_only =
            step_activation_parts(s, training_activations(s.model.architecture, s.training, s.parallel),
                                  training_activations(s.model.architecture, without, s.parallel));
        CHECK(activation_only.pile == parts.pile);
        CHECK(activation_only.activation_extra == parts.activation_extra);
        Scenario other_shape = s;  // the states and the weights' part: the same for another c, v and recompute
        other_shape.parallel.context = s.parallel.context == 1 ? 2 : 1;
        other_shape.parallel.interleave = 1;
        other_shape.training.recompute = Recompute::none;
        const Chain other_chain = chain_of(other_shape);
        CHECK(states_of(other_shape, other_chain) == states_of(s, chain));
        CHECK(parts_of(other_shape, other_chain).weight_extra == parts.weight_extra);
        const double states = states_of(s, chain);
        const double peak = check_layout(s, chain.params, false).peak_bytes;
        CHECK(states + parts.pile <= peak * (1 + 1e-12));
        CHECK(peak <= (states + parts.pile + parts.activation_extra + parts.weight_extra) * (1 + 1e-12));
        ++layouts;
    });
    CHECK(layouts > 10000);
}
