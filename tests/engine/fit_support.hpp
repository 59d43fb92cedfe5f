// The grid of layouts the fit tests check the search's bounds over: every valid combination of
// t ∈ {1, 2, 8}, p ∈ {1, 2, 4} (interleaved in two where the layers allow), c ∈ {1, 2},
// e ∈ {1, 4}, ZeRO 0–3, the three recompute choices and micro-batches 1 and 3, on 64 GPUs.
#pragma once

#include <cmath>
#include <functional>
#include <string>
#include <string_view>

#include "catch_include.hpp"
#include "engine/model/fit.hpp"
#include "engine/model/scenario.hpp"

namespace trainscope::testing {

// A preset on 64 GPUs with `training` (a JSON object); ZeRO-3 so that every offload reads. The
// GPUs are the catalogue's `gpu`, or the preset's own when it is empty.
inline Scenario preset_on_64_gpus(std::string_view preset, std::string_view training, std::string_view gpu = "") {
    const std::string hardware = gpu.empty() ? "" : R"(,"hardware":{"gpu":")" + std::string(gpu) + R"("})";
    const ScenarioReading reading =
        read_scenario_text(R"({"model":{"preset":")" + std::string(preset) + R"("},"training":)" +
                           std::string(training) + hardware + R"(,"parallel":{"gpus":64,"zero_stage":3}})");
    REQUIRE(reading.ok());
    return reading.scenario;
}

// Calls visit(s) for every valid layout of the grid above, for one preset, training and GPU.
inline void for_each_grid_layout(std::string_view preset, std::string_view training,
                                 const std::function<void(const Scenario&)>& visit, std::string_view gpu = "") {
    Scenario s = preset_on_64_gpus(preset, training, gpu);
    for (const double t : {1.0, 2.0, 8.0})
        for (const double p : {1.0, 2.0, 4.0})
            for (const double c : {1.0, 2.0})
                for (const double e : {1.0, 4.0})
                    for (int zero = 0; zero <= 3; ++zero)
                        for (const Recompute r : {Recompute::none, Recompute::selective, Recompute::full})
                            for (const double b : {1.0, 3.0}) {
                                s.parallel.tensor = t, s.parallel.pipeline = p, s.parallel.context = c;
                                s.parallel.expert = e, s.parallel.zero_stage = zero;
                                s.parallel.interleave =
                                    p > 1 && std::fmod(s.model.architecture.layers, 2 * p) == 0 ? 2 : 1;
                                s.training.recompute = r, s.training.micro_batch = b;
                                if (layout_is_valid(s)) visit(s);
                            }
}

}  // namespace trainscope::testing
