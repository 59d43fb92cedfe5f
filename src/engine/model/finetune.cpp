#include "engine/model/finetune.hpp"

#include <cmath>

#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {

namespace {

// Adapters beside one MLP of width f: gate and up are h×f, down f×h (a plain MLP has no gate).
double mlp_adapter_params(const Architecture& a, double rank, unsigned targets, double f) {
    const double one = rank * (a.hidden + f);  // A is d_in × r, B is r × d_out (Hu et al. 2021 §4.1)
    double params = 0;
    if ((targets & lora_gate) && a.gated_mlp) params += one;
    if (targets & lora_up) params += one;
    if (targets & lora_down) params += one;
    return params;
}

// Adapters beside one layer's attention projections, with their own input and output widths.
double attention_adapter_params(const Architecture& a, double rank, unsigned targets) {
    const double h = a.hidden;
    double q_in = h, kv_in = h, q_out = 0, k_out = 0, v_out = 0;
    if (a.latent_attention()) {
        // docs/model.md §12 (DeepSeek-V2 §2.1): queries come from h or their own latent, keys and
        // values are up-projected from the shared KV latent.
        q_in = a.q_lora_rank > 0 ? a.q_lora_rank : h;
        kv_in = a.kv_lora_rank;
        q_out = a.heads * (a.nope_head_dim + a.rope_head_dim);
        k_out = a.heads * a.nope_head_dim;
        v_out = a.heads * a.v_head_dim;
    } else {
        const double head = a.head_dim > 0 ? a.head_dim : h / a.heads;
        q_out = a.heads * head;
        k_out = v_out = a.kv_heads * head;
    }
    double params = 0;
    if (targets & lora_q) params += rank * (q_in + q_out);
    if (targets & lora_k) params += rank * (kv_in + k_out);
    if (targets & lora_v) params += rank * (kv_in + v_out);
    if (targets & lora_o) params += rank * ((a.latent_attention() ? v_out : q_out) + h);  // heads' outputs back to h
    return params;
}

// Parameters outside the linear layers: embeddings and norms, which QLoRA leaves in 16 bits
// (Dettmers et al. 2023 §3: NF4 for the linear layers' weights; docs/model.md §1 for the counts).
double unquantized_params(const Architecture& a) {
    const double embeddings = a.vocab * a.hidden * (a.tied_embeddings ? 1.0 : 2.0) + a.learned_positions * a.hidden;
    const double norms = (2 * a.layers + 1) * a.hidden * (a.biases ? 2.0 : 1.0);
    return embeddings + norms;
}

}  // namespace

double lora_adapter_params(const Architecture& a, double rank, unsigned targets) {
    const double attention = a.layers * attention_adapter_params(a, rank, targets);
    // Every expert's MLP has adapters of its own (PEFT on Mixtral's w1, w2, w3): E routed experts
    // and S shared ones of width expert_mlp, or one dense MLP of width mlp (docs/model.md §11).
    if (!a.extended_moe()) return attention + a.layers * a.experts * mlp_adapter_params(a, rank, targets, a.mlp);
    const double moe_layers = a.layers - a.dense_layers;
    return attention +
           moe_layers * (a.experts + a.shared_experts) * mlp_adapter_params(a, rank, targets, a.routed_mlp()) +
           a.dense_layers * mlp_adapter_params(a, rank, targets, a.mlp);
}

double base_storage_bytes_per_param(BaseStorage storage) {
    switch (storage) {
        case BaseStorage::bf16:
            return 2.0;
        // LLM.int8 (Dettmers et al. 2022 §3): one byte per weight; its one FP32 constant per row
        // (4/h bytes a weight) is left out.
        case BaseStorage::int8:
            return 1.0;
        // QLoRA §3: 4-bit NF4 values and one FP32 absmax per block of 64: 4 + 32/64 = 4.5 bits.
        case BaseStorage::nf4:
            return (4.0 + 32.0 / 64.0) / 8.0;
        // QLoRA §3, double quantization: the absmax values in 8 bits, with one FP32 constant per
        // 256 of them: 4 + 8/64 + 32/(64·256) = 4.127 bits.
        case BaseStorage::nf4_double_quant:
            return (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)) / 8.0;
    }
    return 2.0;
}

FineTuningFigures fine_tuning_figures(const TrainingSettings& training, const Architecture& architecture,
                                      double parameters) {
    FineTuningFigures figures;
    figures.trainable_bytes = training_bytes_per_param(training, architecture, parameters);
    if (training.method == FineTuningMethod::full) {
        figures.trainable_params = parameters;
        figures.base_bytes_per_param = figures.trainable_bytes.weights;
        figures.base_weights_bytes = parameters * figures.trainable_bytes.weights;
        figures.checkpoint_bytes = figures.base_weights_bytes;
        return figures;
    }
    figures.adapter_params = lora_adapter_params(architecture, training.lora_rank, training.lora_targets);
    figures.trainable_params = figures.adapter_params;
    figures.frozen_params = parameters;
    figures.quantized_params = std::fmax(0.0, parameters - unquantized_params(architecture));
    figures.base_bytes_per_param = base_storage_bytes_per_param(training.base_storage);
    // The embeddings and norms stay 16-bit whatever the linear layers' storage.
    double unquantized_bytes = 2.0;
    const bool autocast = training.precision != NumberFormat::fp32 &&
                          training.precision_recipe == PrecisionRecipe::autocast &&
                          training.base_storage == BaseStorage::bf16;
    if (autocast) {
        // docs/model.md §2: under autocast the frozen base is FP32 like the rest, and each linear
        // layer's 16-bit copy of its weight is kept by autograd for the input's gradient until that
        // layer's backward: 4 + 2 bytes for the linear layers' weights, 4 for embeddings and norms.
        figures.base_bytes_per_param = 4.0 + 2.0;
        unquantized_bytes = 4.0;
    }
    figures.base_weights_bytes = figures.quantized_params * figures.base_bytes_per_param +
                                 (parameters - figures.quantized_params) * unquantized_bytes;
    if (training.base_storage != BaseStorage::bf16) {
        // docs/model.md §15: a quantized linear dequantizes its weight to the 16-bit compute dtype for
        // each matmul, forward and backward (bitsandbytes' dequantize_4bit in MatMul4Bit): one
        // matrix in flight at a time, the largest.
        const double q_width =
            architecture.head_dim > 0 ? architecture.heads * architecture.head_dim : architecture.hidden;
        const double largest =
            architecture.hidden * std::fmax(std::fmax(architecture.mlp, architecture.routed_mlp()), q_width);
        figures.dequantized_in_flight = 2.0 * largest;
    }
    // A LoRA checkpoint holds only the adapters, in the training precision (Hu et al. 2021 §4.2).
    figures.checkpoint_bytes = figures.adapter_params * figures.trainable_bytes.weights;
    return figures;
}

BytesPerParam fine_tuned_bytes_per_param(const FineTuningFigures& figures, double parameters) {
    if (figures.adapter_params <= 0 && figures.frozen_params <= 0) return figures.trainable_bytes;
    const BytesPerParam& adapter = figures.trainable_bytes;
    const double share = parameters > 0 ? figures.adapter_params / parameters : 0.0;
    BytesPerParam bytes;
    // The base as stored, the one dequantized matrix in flight, and the adapters.
    bytes.weights = (parameters > 0 ? (figures.base_weights_bytes + figures.dequantized_in_flight) / parameters : 0.0) +
                    share * adapter.weights;
    bytes.gradients = share * adapter.gradients;
    bytes.master_weights = share * adapter.master_weights;
    bytes.optimizer_states = share * adapter.optimizer_states;
    return bytes;
}

const FineTuningRun& default_fine_tuning_run() {
    // Dettmers et al. 2023 (QLoRA) §5, Guanaco 65B on OASST1, "24 hours of finetuning on a single
    // GPU"; the hyperparameters are its repository's scripts/finetune_guanaco_65b.sh: max_steps 1875,
    // per_device_train_batch_size 4 × gradient_accumulation_steps 4, source_max_len 16 + target_max_len 512.
    static const FineTuningRun run{1875, 4 * 4, 16 + 512};
    return run;
}

bool trains_adapters(FineTuningMethod method) { return method != FineTuningMethod::full; }

void apply_default_tokens(Scenario& scenario) {
    TrainingSettings& training = scenario.training;
    if (trains_adapters(training.method)) {
        training.tokens = default_fine_tuning_run().tokens();
        training.tokens_origin = TokensOrigin::fine_tuning_run;
        return;
    }
    const ModelPreset* preset = find_model_preset(scenario.model.preset_id);
    if (preset && preset->training_tokens > 0) {
        training.tokens = preset->training_tokens;
        training.tokens_origin = TokensOrigin::preset_run;
        return;
    }
    // Chinchilla (Hoffmann et al. 2022, §3): compute-optimal data is about 20 tokens per parameter.
    const double total_params = scenario.model.architecture_assumed
                                    ? scenario.model.given_params
                                    : count_parameters(scenario.model.architecture).total;
    training.tokens = 20 * total_params;
    training.tokens_origin = TokensOrigin::compute_optimal;
}

void name_given_tokens(Scenario& scenario) {
    Scenario by_default = scenario;
    apply_default_tokens(by_default);
    if (by_default.training.tokens == scenario.training.tokens) {
        scenario.training.tokens_origin = by_default.training.tokens_origin;
        return;
    }
    // Full training on the fine-tuning run's tokens (the side-by-side's full fine-tuning) says so too.
    const bool fine_tuning_run = scenario.training.tokens == default_fine_tuning_run().tokens();
    scenario.training.tokens_origin = fine_tuning_run ? TokensOrigin::fine_tuning_run : TokensOrigin::given;
}

Scenario with_fine_tuning_method(const Scenario& scenario, FineTuningMethod method) {
    Scenario trial = scenario;
    if (scenario.training.method == method) return trial;
    trial.training.method = method;
    if (method == FineTuningMethod::lora) trial.training.base_storage = BaseStorage::bf16;
    if (method == FineTuningMethod::qlora) trial.training.base_storage = BaseStorage::nf4_double_quant;
    if (trains_adapters(method) != trains_adapters(scenario.training.method)) apply_default_tokens(trial);
    return trial;
}

std::string tokens_origin_sentence(const Scenario& scenario, bool methods_shown) {
    const double tokens = scenario.training.tokens;
    const std::string count = quantity::format(tokens, quantity::Figure::tokens);
    switch (scenario.training.tokens_origin) {
        case TokensOrigin::given:
            return message("estimate.tokens.given", "{tokens}, as you set them.", {{"tokens", count}});
        case TokensOrigin::preset_run:
            if (!methods_shown)
                return message("estimate.tokens.preset_run_alone",
                               "{tokens}: the model's pre-training run, as its authors report it.",
                               {{"tokens", count}});
            return message("estimate.tokens.preset_run",
                           "{tokens}: the model's pre-training run, as its authors report it. LoRA and QLoRA "
                           "count a fine-tuning run's tokens instead.",
                           {{"tokens", count}});
        case TokensOrigin::compute_optimal:
            if (!methods_shown)
                return message("estimate.tokens.compute_optimal_alone",
                               "{tokens}: 20 per parameter, a compute-optimal pre-training run (Hoffmann et al. "
                               "2022).",
                               {{"tokens", count}});
            return message("estimate.tokens.compute_optimal",
                           "{tokens}: 20 per parameter, a compute-optimal pre-training run (Hoffmann et al. 2022). "
                           "LoRA and QLoRA count a fine-tuning run's tokens instead.",
                           {{"tokens", count}});
        case TokensOrigin::fine_tuning_run:
            break;
    }
    const FineTuningRun& run = default_fine_tuning_run();
    return message("estimate.tokens.fine_tuning_run",
                   "{tokens}: a fine-tuning run's, QLoRA's Guanaco on OASST1 (Dettmers et al. 2023): {steps} steps "
                   "of {sequences} sequences of at most {length} tokens, each counted in full.",
                   {{"tokens", count},
                    {"steps", quantity::format(run.steps, quantity::Figure::integer)},
                    {"sequences", quantity::format(run.sequences_per_step, quantity::Figure::integer)},
                    {"length", quantity::format(run.tokens_per_sequence, quantity::Figure::integer)}});
}

}  // namespace trainscope
