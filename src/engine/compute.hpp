// Training compute and the time it takes.
#pragma once

#include "engine/model.hpp"
#include "engine/scenario.hpp"

namespace trainscope {

struct TrainingCompute {
    double model_flops = 0;     // what the model needs: 6·N·D (+ attention)
    double hardware_flops = 0;  // what the GPUs execute: + recomputed forward passes
    double seconds = 0;
    double seconds_on_one_gpu = 0;
    double gpu_hours = 0;
    double model_flops_utilization = 0;  // MFU: model FLOPs / (time × GPUs × peak)
    double cost = 0;
    double energy_joules = 0;
    double recompute_overhead() const { return model_flops > 0 ? hardware_flops / model_flops - 1 : 0; }
};

TrainingCompute training_compute(const Architecture& architecture, double active_parameters, const Scenario& scenario);

}  // namespace trainscope
