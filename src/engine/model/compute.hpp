// Training compute and the time it takes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/model/model.hpp"
#include "engine/model/scenario.hpp"

namespace trainscope {

// One point of the time-over-GPUs curve.
struct TimeOnGpus {
    double gpus = 0;
    double seconds = 0;
};

// A familiar duration the curve draws as a line: "1 day", "a lifetime (73.3 years)".
struct ReferenceDuration {
    double seconds = 0;
    std::string label;
};

struct TrainingCompute {
    double model_flops = 0;     // what the model needs: 6·N·D (+ attention)
    double hardware_flops = 0;  // what the GPUs execute: + recomputed forward passes
    double seconds = 0;
    double seconds_on_one_gpu = 0;
    double gpu_hours = 0;
    double model_flops_utilization = 0;  // MFU: model FLOPs / (time × GPUs × peak)
    double cost = 0;
    double energy_joules = 0;
    // The terms of model_flops per token, as the equation writes them (docs/model.md §6, §15): full
    // training 6 × active parameters; LoRA and QLoRA 4 × the frozen base's active parameters + 6 × the
    // adapters'; attention's PaLM term on top when counted.
    double frozen_params = 0;    // 0 for full training
    double trained_params = 0;   // the active parameters (full) or the adapters (LoRA, QLoRA)
    double attention_flops = 0;  // attention's model FLOPs for the run, when counted
    // The same time on every stop of the GPU slider (field_limits.cpp) and on the scenario's own count.
    std::vector<TimeOnGpus> time_over_gpus;
    double recompute_overhead() const { return model_flops > 0 ? hardware_flops / model_flops - 1 : 0; }
};

// docs/model.md §6: the time on `gpus` GPUs that together do what one GPU does in `seconds_on_one_gpu`.
double seconds_on_gpus(double seconds_on_one_gpu, double gpus);

// The lesson's second point: Llama 3 405B's largest training cluster (the preset's reported GPUs).
double lesson_cluster_gpus();

// A day, a month, a year and a human lifetime, shortest first (docs/model.md §6, "Time over GPUs").
std::vector<ReferenceDuration> reference_durations();

// Attention's score and value FLOPs of one token's forward pass through one layer, the mean layer:
// PaLM's 4·h·s (App. B; a third of 12·h·s), with heads of their own size a·(d_qk + d_v)·2·s, and
// with sliding-window layers each query meeting at most w keys (docs/model.md §6, §12).
double attention_forward_flops_per_layer(const Architecture& architecture, double sequence);

// The rule behind model_flops in words, for the equation (each term's factor, count and name), the
// sentence that explains it and the question its "why" answers: 6 × parameters for full training,
// 4 × frozen + 6 × adapter parameters for LoRA and QLoRA (docs/model.md §6, §15).
struct FlopsRuleTerm {
    double factor = 0;
    double params = 0;
    std::string unit;  // "parameters", "active parameters", "frozen parameters", "adapter parameters"
};
struct FlopsRule {
    std::vector<FlopsRuleTerm> terms;
    bool attention = false;
    std::string sentence;     // "Training costs about 6 floating-point operations per parameter per token: …"
    std::string why;          // "Why 6 × parameters × tokens?"
    std::string explanation;  // the answer to `why`, a paragraph
    std::string formula;      // "training FLOPs ≈ 6 · N · D; time = …": the rule and the time it gives
};
FlopsRule flops_rule(const TrainingCompute& compute, bool mixture_of_experts, std::string_view method_label);

TrainingCompute training_compute(const Architecture& architecture, double active_parameters, const Scenario& scenario);

}  // namespace trainscope
