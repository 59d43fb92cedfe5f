#include "engine/compute.hpp"

#include <cmath>

namespace trainscope {

TrainingCompute training_compute(const Architecture& a, double active_parameters, const Scenario& scenario) {
    const TrainingSettings& training = scenario.training;
    const double tokens = training.tokens;

    TrainingCompute compute;
    // Kaplan et al. 2020 §2.1; Hoffmann et al. 2022: 2 FLOPs per parameter per token forward, 4 backward.
    compute.model_flops = 6 * active_parameters * tokens;
    // PaLM (Chowdhery et al. 2022, App. B): attention adds 12·L·h·s FLOPs per token.
    const double attention_flops = 12 * a.layers * a.hidden * training.sequence * tokens;
    if (training.attention_flops) compute.model_flops += attention_flops;

    switch (training.recompute) {
        case Recompute::none:
            compute.hardware_flops = compute.model_flops;
            break;
        case Recompute::selective:
            // Korthikanti et al. 2022 §5: recomputing the attention core costs about s/(6h)
            // (2.7% for GPT-3, Table 4). It redoes part of one forward pass, so it can never cost
            // more than full recompute's whole forward pass (the cap matters only when s ≫ h).
            compute.hardware_flops = compute.model_flops * (1 + std::fmin(training.sequence / (6 * a.hidden), 2.0 / 6.0));
            break;
        case Recompute::full:
            // Narayanan et al. 2021 Eq. 4: one extra forward pass, 8·N·D instead of 6·N·D.
            compute.hardware_flops = compute.model_flops * 8.0 / 6.0;
            break;
    }

    // docs/model.md §6: time = hardware FLOPs / (GPUs × peak × fraction of peak sustained).
    const HardwareSettings& hardware = scenario.hardware;
    const double sustained_flops_per_gpu = hardware.gpu.peak_flops * hardware.utilization;
    const double gpus = scenario.parallel.gpus;
    compute.seconds_on_one_gpu = compute.hardware_flops / sustained_flops_per_gpu;
    compute.seconds = compute.seconds_on_one_gpu / gpus;
    compute.gpu_hours = gpus * compute.seconds / 3600;
    compute.model_flops_utilization = compute.model_flops / (compute.seconds * gpus * hardware.gpu.peak_flops);
    compute.cost = hardware.price_per_gpu_hour * compute.gpu_hours;
    compute.energy_joules = hardware.gpu.watts * gpus * compute.seconds;
    return compute;
}

}  // namespace trainscope
