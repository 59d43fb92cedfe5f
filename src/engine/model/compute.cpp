#include "engine/model/compute.hpp"

#include <algorithm>
#include <cmath>

#include "engine/model/field_limits.hpp"
#include "engine/model/finetune.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {

double seconds_on_gpus(double seconds_on_one_gpu, double gpus) { return seconds_on_one_gpu / gpus; }

double lesson_cluster_gpus() {
    const ModelPreset* llama = find_model_preset("llama3-405b");
    return llama ? llama->training_gpus : 0;
}

std::vector<ReferenceDuration> reference_durations() {
    constexpr double day = 86400, year = 365.25 * day, month = year / 12;  // Julian year, as the formatter's
    // UN World Population Prospects 2024: life expectancy at birth worldwide, 73.3 years in 2024.
    constexpr double lifetime = 73.3 * year;
    const auto tick = [](double seconds) { return quantity::format_tick(seconds, quantity::Figure::duration); };
    const std::string lifetime_text = quantity::format(lifetime, quantity::Figure::duration);  // not a round tick
    return {
        {day, tick(day)},
        {month, tick(month)},
        {year, tick(year)},
        {lifetime, message("timeline.reference.lifetime", "a lifetime ({duration})", {{"duration", lifetime_text}})}};
}

namespace {

// Every stop of the GPU slider (powers of two up to its end, then the end itself), the scenario's
// own count among them even when it was typed, so the curve always passes through the learner's point.
std::vector<double> curve_gpus(double scenario_gpus) {
    std::vector<double> gpus;
    if (const SliderRange* slider = find_slider_range("parallel.gpus")) {
        for (double g = slider->min; g < slider->max; g *= 2) gpus.push_back(g);
        gpus.push_back(slider->max);
    }
    gpus.push_back(scenario_gpus);
    std::sort(gpus.begin(), gpus.end());
    gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
    return gpus;
}

}  // namespace

double attention_forward_flops_per_layer(const Architecture& a, double sequence) {
    if (!a.latent_attention() && a.head_dim <= 0 && a.sliding_window_layers <= 0) return 4 * a.hidden * sequence;
    const double qk = a.latent_attention() ? a.nope_head_dim + a.rope_head_dim
                      : a.head_dim > 0     ? a.head_dim
                                           : a.hidden / a.heads;
    const double v = a.latent_attention() ? a.v_head_dim : qk;
    double keys = sequence;
    if (a.sliding_window_layers > 0)
        keys = (sequence * (a.layers - a.sliding_window_layers) +
                std::fmin(sequence, a.sliding_window) * a.sliding_window_layers) /
               a.layers;
    return 2 * keys * a.heads * (qk + v);
}

FlopsRule flops_rule(const TrainingCompute& compute, bool mixture_of_experts, std::string_view method_label) {
    FlopsRule rule;
    rule.attention = compute.attention_flops > 0;
    if (compute.frozen_params > 0) {
        // docs/model.md §15 (Hu et al. 2021 §4.2): the frozen base's backward pass computes the input
        // gradients (2 FLOPs) but no weight gradients; the adapters take all 6.
        rule.terms.push_back({4, compute.frozen_params,
                              mixture_of_experts ? message("compute.rule.frozen_active", "frozen active parameters")
                                                 : message("compute.rule.frozen", "frozen parameters")});
        rule.terms.push_back({6, compute.trained_params, message("compute.rule.adapters", "adapter parameters")});
        rule.sentence = message("compute.rule.sentence_adapters",
                                "{method} costs about 4 floating-point operations per frozen parameter per token (2 "
                                "for the forward pass, 2 for the backward pass’s gradients of the activations: a "
                                "frozen weight needs no gradient of its own) and 6 per adapter parameter. ",
                                {{"method", std::string(method_label)}});
        rule.why = message("compute.rule.why_adapters", "Why 4 × frozen + 6 × adapter parameters?");
        rule.explanation = message(
            "compute.rule.explanation_adapters",
            "Each parameter takes part in one multiply and one add per token on the forward pass (2 FLOPs). On the "
            "backward pass every layer still computes the gradient for the layer below (2 FLOPs per weight), but "
            "only the adapters' weights need a gradient of their own (2 more): a frozen parameter costs 4 FLOPs "
            "per token, an adapter parameter 6. Time is then that count divided by how fast the GPUs really go: "
            "their peak times the share of it they sustain (MFU).");
        rule.formula = message("compute.rule.formula_adapters",
                               "training FLOPs ≈ (4 · N_frozen + 6 · N_adapters) · D; time = FLOPs ÷ (GPUs × peak "
                               "FLOP/s × utilisation); GPU-hours = GPUs × time");
        return rule;
    }
    // Kaplan et al. 2020 §2.1: 2 FLOPs per parameter per token forward, 4 backward.
    rule.terms.push_back({6, compute.trained_params,
                          mixture_of_experts ? message("compute.rule.active", "active parameters")
                                             : message("compute.rule.params", "parameters")});
    rule.sentence = message("compute.rule.sentence_full",
                            "Training costs about 6 floating-point operations per parameter per token: 2 for the "
                            "forward pass, 4 for the backward. ");
    rule.why = message("compute.rule.why_full", "Why 6 × parameters × tokens?");
    rule.explanation = message(
        "compute.rule.explanation_full",
        "Each parameter takes part in one multiply and one add per token on the forward pass (2 FLOPs). The "
        "backward pass computes two things per weight — the gradient for the layer below and the gradient for the "
        "weight itself — so it costs twice as much (4 FLOPs). Time is then that count divided by how fast the GPUs "
        "really go: their peak times the share of it they sustain (MFU).");
    rule.formula = message("compute.rule.formula_full",
                           "training FLOPs ≈ 6 · N · D; time = FLOPs ÷ (GPUs × peak FLOP/s × utilisation); "
                           "GPU-hours = GPUs × time");
    return rule;
}

TrainingCompute training_compute(const Architecture& a, double active_parameters, const Scenario& scenario) {
    const TrainingSettings& training = scenario.training;
    const double tokens = training.tokens;

    TrainingCompute compute;
    // Kaplan et al. 2020 §2.1; Hoffmann et al. 2022: 2 FLOPs per parameter per token forward, 4 backward.
    compute.model_flops = 6 * active_parameters * tokens;
    // docs/model.md §15: LoRA's frozen weights need the backward pass's input gradients (2 FLOPs)
    // but not its weight gradients (2 more); the adapters take all 6 (Hu et al. 2021 §4.2).
    const bool adapters = training.method != FineTuningMethod::full;
    const double adapter_params = adapters ? lora_adapter_params(a, training.lora_rank, training.lora_targets) : 0.0;
    if (adapters) compute.model_flops = (4 * active_parameters + 6 * adapter_params) * tokens;
    compute.frozen_params = adapters ? active_parameters : 0.0;
    compute.trained_params = adapters ? adapter_params : active_parameters;
    // PaLM (Chowdhery et al. 2022, App. B): attention adds 12·L·h·s FLOPs per token.
    const bool plain_attention = !a.latent_attention() && a.head_dim <= 0 && a.sliding_window_layers <= 0;
    const double attention_flops =
        plain_attention ? 12 * a.layers * a.hidden * training.sequence * tokens
                        : 3 * a.layers * attention_forward_flops_per_layer(a, training.sequence) * tokens;
    if (training.attention_flops) compute.model_flops += attention_flops;
    compute.attention_flops = training.attention_flops ? attention_flops : 0.0;

    switch (training.recompute) {
        case Recompute::none:
            compute.hardware_flops = compute.model_flops;
            break;
        case Recompute::selective:
            // Korthikanti et al. 2022 §5: recomputing the attention core costs about s/(6h)
            // (2.7% for GPT-3, Table 4). It redoes part of one forward pass, so it can never cost
            // more than full recompute's whole forward pass (the cap matters only when s ≫ h).
            compute.hardware_flops =
                compute.model_flops * (1 + std::fmin(training.sequence / (6 * a.hidden), 2.0 / 6.0));
            break;
        case Recompute::full:
            // Narayanan et al. 2021 Eq. 4: one extra forward pass, 8·N·D instead of 6·N·D.
            compute.hardware_flops = adapters
                                         ? compute.model_flops + 2 * (active_parameters + adapter_params) * tokens +
                                               (training.attention_flops ? attention_flops / 3 : 0.0)
                                         : compute.model_flops * 8.0 / 6.0;
            break;
    }

    // docs/model.md §6: time = hardware FLOPs / (GPUs × peak × fraction of peak sustained).
    const HardwareSettings& hardware = scenario.hardware;
    const double sustained_flops_per_gpu = hardware.gpu.peak_flops * hardware.utilization;
    const double gpus = scenario.parallel.gpus;
    compute.seconds_on_one_gpu = compute.hardware_flops / sustained_flops_per_gpu;
    compute.seconds = seconds_on_gpus(compute.seconds_on_one_gpu, gpus);
    for (const double g : curve_gpus(gpus))
        compute.time_over_gpus.push_back({g, seconds_on_gpus(compute.seconds_on_one_gpu, g)});
    compute.gpu_hours = gpus * compute.seconds / 3600;
    compute.model_flops_utilization = compute.model_flops / (compute.seconds * gpus * hardware.gpu.peak_flops);
    compute.cost = hardware.price_per_gpu_hour * compute.gpu_hours;
    compute.energy_joules = hardware.gpu.watts * gpus * compute.seconds;
    return compute;
}

}  // namespace trainscope
