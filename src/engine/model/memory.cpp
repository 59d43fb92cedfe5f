#include "engine/model/memory.hpp"

#include <cmath>

namespace trainscope {

namespace {

// Adafactor (Shazeer & Stern 2018, §3): a matrix of r×c keeps r + c FP32 second-moment
// statistics instead of r·c. Vectors (norms, biases) keep full statistics, a small share we fold
// into the matrices' count. Returns FP32 values per parameter.
double adafactor_state_values_per_param(const Architecture& a, double parameters) {
    const double h = a.hidden;
    const double kv_width = h * a.kv_heads / a.heads;
    const double attention = (h + h) * 2 + (h + kv_width) * 2;  // Q, O, K, V
    const double mlp = (a.gated_mlp ? 3.0 : 2.0) * (h + a.mlp) * a.experts;
    const double embeddings = (a.vocab + h) * (a.tied_embeddings ? 1.0 : 2.0);
    const double statistics = a.layers * (attention + mlp) + embeddings;
    return parameters > 0 ? statistics / parameters : 0.0;
}

// The optimizer's states per parameter, each `state_bytes` wide (8-bit Adam keeps its own width).
double optimizer_state_bytes(Optimizer optimizer, double state_bytes, const Architecture& architecture,
                             double parameters) {
    switch (optimizer) {
        case Optimizer::adam:
        case Optimizer::adamw:
            return 2 * state_bytes;  // m and v
        case Optimizer::sgd_momentum:
            return state_bytes;
        case Optimizer::sgd:
            return 0.0;
        case Optimizer::adam_8bit:
            // Dettmers et al. 2021, §2: two 8-bit moments with one FP32 scale per 2048-value block each.
            return 2.0 + 2.0 * 4.0 / 2048.0;
        case Optimizer::adafactor:
            return state_bytes * adafactor_state_values_per_param(architecture, parameters);
    }
    return 0.0;
}

// docs/model.md §2, the precisions as frameworks run them. Pure 16-bit: weights, gradients and the
// optimizer's states all take the parameters' dtype (PyTorch's optimizers create their states like
// the parameter; LitGPT bf16-true, torchtune): 2 + 2 + 4 for AdamW, no master copy. Autocast
// (PyTorch AMP): the parameters, their gradients and the optimizer's states stay FP32; each op
// casts its weight to 16 bits, and autograd keeps that copy for the backward: 2 bytes of 16-bit
// copies (counted as the weights) + 4 gradients + 4 FP32 parameters (the master copy) + 8 = 18,
// the count of Hugging Face's memory guide.
BytesPerParam recipe_bytes_per_param(const TrainingSettings& training, const Architecture& architecture,
                                     double parameters) {
    BytesPerParam bytes;
    bytes.weights = 2.0;
    if (training.precision_recipe == PrecisionRecipe::pure) {
        bytes.gradients = 2.0;
        bytes.optimizer_states = optimizer_state_bytes(training.optimizer, 2.0, architecture, parameters);
        return bytes;
    }
    bytes.gradients = 4.0;
    bytes.master_weights = 4.0;
    bytes.optimizer_states = optimizer_state_bytes(training.optimizer, 4.0, architecture, parameters);
    return bytes;
}

}  // namespace

BytesPerParam training_bytes_per_param(const TrainingSettings& training, const Architecture& architecture,
                                       double parameters) {
    BytesPerParam bytes;
    const bool mixed_precision = training.precision != NumberFormat::fp32;
    if (mixed_precision && training.precision_recipe != PrecisionRecipe::master_copy)
        return recipe_bytes_per_param(training, architecture, parameters);
    // Mixed precision keeps 16-bit weights and gradients for the passes and an FP32 master copy so
    // that small updates are not rounded away (Micikevicius et al. 2018, §3.1). FP32 training has
    // no separate master copy.
    bytes.weights = mixed_precision ? 2.0 : 4.0;
    // docs/model.md §2: the ZeRO paper counts 16-bit gradients; Hugging Face's guide and DeepSpeed's
    // ZeRO-3 estimator count them in FP32 (accumulated in FP32), 18 bytes for mixed Adam.
    const bool fp32_gradients = training.accounting == AccountingConvention::fp32_gradients;
    bytes.gradients = mixed_precision && !fp32_gradients ? 2.0 : 4.0;
    bytes.master_weights = mixed_precision ? 4.0 : 0.0;
    switch (training.optimizer) {
        case Optimizer::adam:
        case Optimizer::adamw:
            bytes.optimizer_states = 8.0;  // two FP32 moments, m and v (ZeRO §3.1: K = 12 with the master)
            break;
        case Optimizer::sgd_momentum:
            bytes.optimizer_states = 4.0;  // one FP32 momentum buffer
            break;
        case Optimizer::sgd:
            bytes.optimizer_states = 0.0;
            break;
        case Optimizer::adam_8bit:
            // Dettmers et al. 2021, §2: two 8-bit moments with one FP32 scale per 2048-value block each.
            bytes.optimizer_states = 2.0 + 2.0 * 4.0 / 2048.0;
            break;
        case Optimizer::adafactor:
            bytes.optimizer_states = 4.0 * adafactor_state_values_per_param(architecture, parameters);
            break;
    }
    return bytes;
}

ModelStateBytes per_gpu_model_states(const BytesPerParam& bytes_per_param, double parameters,
                                     double model_parallel_degree, double data_parallel_degree, int zero_stage) {
    // Tensor and pipeline parallelism give each GPU 1/(t·p) of the parameters (Narayanan et al. 2021).
    const double local_parameters = parameters / model_parallel_degree;
    const double d = data_parallel_degree;
    ModelStateBytes bytes;
    // ZeRO §5.1–5.3 / docs/model.md §3: each stage shards one more kind of state over d.
    bytes.optimizer_states = local_parameters * bytes_per_param.optimizer_states / (zero_stage >= 1 ? d : 1.0);
    bytes.master_weights = local_parameters * bytes_per_param.master_weights / (zero_stage >= 1 ? d : 1.0);
    bytes.gradients = local_parameters * bytes_per_param.gradients / (zero_stage >= 2 ? d : 1.0);
    bytes.weights = local_parameters * bytes_per_param.weights / (zero_stage >= 3 ? d : 1.0);
    return bytes;
}

namespace {

// Bytes kept per transformer layer, split the way Korthikanti et al. 2022 split them (§4.1–4.2):
// `replicated` stays whole under tensor parallelism (norms, their inputs, residual dropout masks),
// `split` is divided by t, and `scores` is the a·s²·b attention-matrix term.
struct LayerActivationTerms {
    double replicated = 0;
    double split = 0;
    double scores = 0;
};

// Korthikanti et al. 2022 §4.1 derives 34·sbh + 5·a·s²·b for a GPT block (4h GeLU MLP, dropout,
// 16-bit values). We derive the same way for any block so Llama-style models (RMSNorm, SwiGLU of
// size f, grouped-query attention, no dropout) get their own constant; for GPT it gives 34 and 5.
LayerActivationTerms megatron_layer_terms(const Architecture& a, double sequence, double micro_batch) {
    const double sbh = sequence * micro_batch * a.hidden;
    const double sbf = sequence * micro_batch * a.mlp;
    const double kv_ratio = a.kv_heads / a.heads;
    const double dropout_mask = a.dropout ? 1.0 : 0.0;  // one byte per value

    LayerActivationTerms terms;
    // Two norms: their 16-bit inputs (4·sbh), and their outputs feed the QKV and MLP-in matmuls (2+2).
    // Residual dropout masks after attention and MLP stay whole too: Korthikanti's "10" with dropout.
    terms.replicated = sbh * (4 + 2 + 2 + 2 * dropout_mask);
    // Attention: Q (2), K and V (2 each, scaled by a_kv/a), the output projection's input (2).
    double attention_split = sbh * (2 + 4 * kv_ratio + 2);
    const double sb = sequence * micro_batch;
    if (a.latent_attention()) {
        // docs/model.md §12 (DeepSeek-V2 §2.1): the heads' Q and K (nope + rope wide), V and the
        // output projection's input (v wide), 2 bytes each, split by t; the latents that feed the
        // up-projections (kv_lora_rank + rope_head_dim, q_lora_rank) stay whole, like a norm's output.
        const double qk = a.heads * (a.nope_head_dim + a.rope_head_dim), v = a.heads * a.v_head_dim;
        attention_split = sb * 2 * (qk + qk + v + v);
        terms.replicated += sb * 2 * (a.kv_lora_rank + a.rope_head_dim + a.q_lora_rank);
    } else if (a.head_dim > 0) {
        // Heads of their own size d: Q and the output projection's input a·d, K and V a_kv·d each.
        attention_split = sb * 2 * (2 * a.heads * a.head_dim + 2 * a.kv_heads * a.head_dim);
    }
    // MLP: GeLU keeps its input and the second matmul's input (2·sbf each);
    // SwiGLU keeps gate and up outputs and their product (2·sbf each).
    // A mixture of experts sends each token through k expert MLPs (Jiang et al. 2024, §2.1),
    // so each token leaves k sets of MLP activations.
    double mlp_split = sbf * (a.gated_mlp ? 6.0 : 4.0) * a.experts_per_token;
    if (a.extended_moe()) {
        // docs/model.md §11: a mixture-of-experts layer keeps k routed and S shared experts' worth of
        // width expert_mlp, a dense layer one MLP of width mlp; the per-layer figure is their mean.
        const double per_value = a.gated_mlp ? 6.0 : 4.0;
        const double moe_layer = sb * a.routed_mlp() * per_value * (a.experts_per_token + a.shared_experts);
        const double dense_layer = sbf * per_value;
        mlp_split = (moe_layer * (a.layers - a.dense_layers) + dense_layer * a.dense_layers) / a.layers;
    }
    terms.split = attention_split + mlp_split;
    // Scores: softmax output (2), with dropout its mask (1) and output (2): 5·a·s²·b for GPT.
    terms.scores = a.heads * sequence * sequence * micro_batch * (2 + 3 * dropout_mask);
    if (a.sliding_window_layers > 0) {
        // docs/model.md §12 (Gemma 2): a sliding-window layer scores each query against at most w
        // keys; the per-layer figure is the mean over the layers.
        const double window = std::fmin(sequence, a.sliding_window);
        const double keys =
            (sequence * (a.layers - a.sliding_window_layers) + window * a.sliding_window_layers) / a.layers;
        terms.scores = a.heads * sequence * keys * micro_batch * (2 + 3 * dropout_mask);
    }
    return terms;
}

}  // namespace

// docs/model.md §4, "Eager PyTorch": a layer keeps what each op's backward needs, op by op, read
// from the modeling code (Hugging Face's LlamaDecoderLayer, LitGPT's Block, torchtune's
// TransformerSelfAttentionLayer). Bytes per token for 16-bit activations.
struct EagerRules {
    bool frozen_base = false;   // LoRA / QLoRA: the base linears' weights need no gradient
    bool four_bit = false;      // QLoRA: bitsandbytes' MatMul4Bit keeps its input whenever any input needs a gradient
    unsigned adapted = 0;       // LoRA targets
    bool lora_dropout = false;  // LitGPT's default lora_dropout 0.05; PEFT's and torchtune's default 0
    bool fused_qkv = false;     // LitGPT: one linear (and one LoRA dropout) for q, k and v
    double trained_norm_bytes = 2;  // a trained RMSNorm weight keeps x_normed: BF16 (HF, torchtune) or FP32 (LitGPT)
    bool expands_kv = true;         // grouped K and V repeated to every head before SDPA
};

EagerRules eager_rules(const TrainingSettings& training) {
    EagerRules rules;
    rules.frozen_base = training.method != FineTuningMethod::full;
    // bitsandbytes' MatMul4Bit (Hugging Face, LitGPT) saves its input; torchtune's NF4 linear
    // (torchao's linear_nf4) keeps only the NF4 weight for the input's gradient.
    rules.four_bit = training.framework != Framework::torchtune &&
                     (training.method == FineTuningMethod::qlora ||
                      (rules.frozen_base && (training.base_storage == BaseStorage::nf4 ||
                                             training.base_storage == BaseStorage::nf4_double_quant)));
    rules.adapted = rules.frozen_base ? training.lora_targets : 0u;
    rules.lora_dropout = training.framework == Framework::litgpt;  // LitGPT finetune/lora.py: lora_dropout 0.05
    rules.fused_qkv = training.framework == Framework::litgpt;     // LitGPT's CausalSelfAttention.attn
    rules.trained_norm_bytes = training.framework == Framework::litgpt ? 4.0 : 2.0;
    // Hugging Face's sdpa_attention_forward passes grouped K and V to SDPA with enable_gqa (PyTorch
    // ≥ 2.5); LitGPT and torchtune expand them to every head first.
    rules.expands_kv = training.framework != Framework::hugging_face;
    return rules;
}

// Bytes per token one eager layer keeps: `scores` separately (per token, × s for the s² part).
LayerActivationTerms eager_layer_terms(const Architecture& a, const TrainingSettings& training) {
    const EagerRules rules = eager_rules(training);
    const double h = a.hidden, f = a.mlp;
    const double q_width = a.head_dim > 0 ? a.heads * a.head_dim : h;
    // A linear keeps its input when its weight trains, or when it is a 4-bit linear (bitsandbytes'
    // MatMul4Bit saves (A, B) for the backward); a frozen 16-bit linear keeps nothing (its weight is
    // the parameter itself). LoRA's A matrix trains: it keeps its input, the layer's, or with
    // dropout the dropout's output (2 bytes) and mask (1 byte).
    const auto keeps_input = [&](unsigned target) {
        return !rules.frozen_base || rules.four_bit || ((rules.adapted & target) && !rules.lora_dropout);
    };
    // LoRA dropout (only LitGPT's default has it): one dropout on the fused qkv linear's input.
    const auto adapter_dropout = [&](double width) {
        return rules.lora_dropout && (rules.adapted & (lora_q | lora_k | lora_v)) ? 3 * width : 0.0;
    };
    const bool rms_norm = a.gated_mlp;  // Llama-style blocks: RMSNorm; GPT-style: LayerNorm
    // RMSNorm (HF LlamaRMSNorm, LitGPT's, torchtune's) upcasts its input to FP32 and keeps that copy
    // for the backward (4 bytes); a trained weight keeps x_normed too. LayerNorm keeps its input (2).
    const double norm = rms_norm ? 4.0 * h + (rules.frozen_base ? 0.0 : rules.trained_norm_bytes * h) : 2.0 * h;
    double attention = norm;
    // The norm's output feeds q, k and v.
    if (keeps_input(lora_q) || keeps_input(lora_k) || keeps_input(lora_v)) attention += 2 * h;
    attention += adapter_dropout(h);
    double scores = 0;
    if (training.flash_attention) {
        // PyTorch SDPA's flash and memory-efficient kernels keep q, k, v (after rotary; grouped K and
        // V expanded to every head by repeat_kv first) and the output; the row log-sum-exp is small.
        const double kv_width = rules.expands_kv ? q_width : a.kv_heads * (q_width / a.heads);
        attention += 2 * (2 * q_width + 2 * kv_width);
        // LitGPT splits one fused qkv output: with as many K/V heads as query heads nothing is
        // expanded, so the v SDPA keeps is a view that holds the whole fused output alive.
        if (rules.fused_qkv && a.kv_heads == a.heads) attention += 2 * (q_width + kv_width);
    } else {
        // Eager attention keeps q and k for the scores, the softmax's output in FP32 (HF: softmax(…,
        // dtype=float32)) and its 16-bit copy for the product with v, v, and with attention dropout
        // its mask and output (BERT).
        attention += 2 * 3 * q_width;
        scores = a.heads * (4.0 + 2.0 + (a.dropout ? 3.0 : 0.0));
    }
    // The output projection's input: the heads' output transposed into a new tensor.
    if (keeps_input(lora_o)) attention += 2 * q_width;
    if (rules.lora_dropout && (rules.adapted & lora_o)) attention += 3 * q_width;
    double mlp = norm;
    if (keeps_input(lora_gate) || keeps_input(lora_up)) mlp += 2 * h;
    // SwiGLU (down(silu(gate(x)) · up(x))): silu keeps its input, the product both factors; GeLU
    // keeps its input. The down (or second) projection's input is the product, or GeLU's output.
    mlp += a.gated_mlp ? 3 * 2 * f : 2 * f;
    if (keeps_input(lora_down)) mlp += 2 * f;
    if (rules.lora_dropout) {
        if (rules.adapted & (lora_gate | lora_up))
            mlp += 3 * h * (((rules.adapted & lora_gate) ? 1 : 0) + ((rules.adapted & lora_up) ? 1 : 0));
        if (rules.adapted & lora_down) mlp += 3 * f;
    }
    // Residual dropout after attention and after the MLP keeps its masks (GPT-style, BERT).
    const double residual_dropout = a.dropout ? 2 * h : 0.0;
    LayerActivationTerms terms;
    terms.replicated = attention + mlp + residual_dropout;
    terms.scores = scores;
    return terms;
}

// The Megatron accounting for Megatron-Core; eager frameworks' for dense blocks with plain
// attention (mixture-of-experts and latent attention keep Megatron's accounting).
LayerActivationTerms layer_activation_terms(const Architecture& a, const TrainingSettings& training) {
    const bool eager = training.framework != Framework::megatron && a.experts <= 1 && !a.latent_attention() &&
                       !a.extended_moe() && a.sliding_window_layers <= 0;
    if (!eager) return megatron_layer_terms(a, training.sequence, training.micro_batch);
    const double tokens = training.sequence * training.micro_batch;
    LayerActivationTerms per_token = eager_layer_terms(a, training);
    LayerActivationTerms terms;
    terms.replicated = per_token.replicated * tokens;
    terms.scores = per_token.scores * tokens * training.sequence;
    return terms;
}

// Bytes per token and vocabulary entry the loss keeps at the backward's start (docs/model.md §4,
// "The loss"): Megatron-Core's vocabulary-parallel cross-entropy one FP32 copy (4); Hugging Face's
// ForCausalLMLoss (transformers ≥ 4.46: labels shifted, not logits) keeps the BF16 logits the model
// returns (2), cross_entropy's FP32 log-softmax of logits.float() (4) and, as the backward begins,
// its gradient (4): 10; LitGPT's chunked head and loss
// keep each 128-token chunk's BF16 logits and BF16 log-softmax (2 + 2); torchtune's recipes (2024:
// TransformerDecoder returns output(h).float(), the recipe keeps the shifted contiguous copy, then
// CrossEntropyLoss) the FP32 copy (4), its log-softmax (4) and the gradient (4): 12. (Its later
// chunked CEWithChunkedOutputLoss keeps less; not modelled.)
double loss_bytes_per_logit(Framework framework) {
    switch (framework) {
        case Framework::megatron:
            return 4.0;
        case Framework::hugging_face:
            return 10.0;
        case Framework::litgpt:
            return 4.0;
        case Framework::torchtune:
            return 12.0;
    }
    return 4.0;
}

// docs/model.md §9, "The optimizer step". PyTorch's Adam and AdamW (torch/optim/adamw.py,
// _multi_tensor_adamw: the foreach implementation, the default for parameters on the GPU since
// PyTorch 2.0) compute the denominator as exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs), a
// new tensor for every parameter the optimizer updates, then divide and add in place: for the step,
// one second moment's worth more, half the states. The eager frameworks build that optimizer
// (torchtune's configs torch.optim.AdamW, LitGPT's finetune scripts, PEFT's and Trainer's
// adamw_torch). Megatron-Core's fused Adam (Apex / Transformer Engine multi_tensor_apply) updates
// in place; bitsandbytes' 8-bit and paged optimizers run their own kernels; the step in the
// backward (torchtune's optimizer_in_bwd) updates one parameter at a time.
double optimizer_step_temporary_share(const TrainingSettings& training) {
    const bool adam = training.optimizer == Optimizer::adamw || training.optimizer == Optimizer::adam;
    // Offloaded states are stepped on the CPU (DeepSpeed's CPU Adam, docs/model.md §16).
    if (!adam || training.framework == Framework::megatron || training.paged_optimizer ||
        training.optimizer_in_backward || training.offload != Offload::none)
        return 0.0;
    return 0.5;
}

double micro_batches_per_step(const TrainingSettings& training, const ParallelSettings& parallel) {
    const double data_parallel = parallel.data_parallel();
    if (training.global_batch > 0)
        return std::fmax(1.0, std::ceil(training.global_batch / (training.micro_batch * data_parallel) - 1e-9));
    return std::fmax(1.0, parallel.pipeline);
}

namespace {

// training_activations for one recompute choice, from the layer's terms (which do not depend on it).
ActivationBytes activations_with(const Architecture& a, const TrainingSettings& training,
                                 const ParallelSettings& parallel, const LayerActivationTerms& terms,
                                 Recompute recompute, double micro_batches) {
    const double t = parallel.tensor;
    const double s = training.sequence;
    const double b = training.micro_batch;
    // FlashAttention (Dao et al. 2022, §3.1) never stores the s×s scores; selective recompute
    // (Korthikanti §5) recomputes exactly that part. Either way the scores term drops.
    const bool keep_scores = !training.flash_attention && recompute == Recompute::none;
    const double scores = keep_scores ? terms.scores : 0.0;

    double per_layer = 0;
    if (recompute == Recompute::full) {
        // Korthikanti Table 2: only each layer's 16-bit input, 2·sbh, split by t with sequence parallel.
        per_layer = 2 * s * b * a.hidden / (training.sequence_parallel ? t : 1.0);
    } else if (training.sequence_parallel) {
        // Korthikanti Table 2: sequence parallelism splits the replicated part too.
        per_layer = (terms.replicated + terms.split + scores) / t;
    } else {
        // Korthikanti Table 2: sbh·(10 + 24/t + 5·a·s/(h·t)) for GPT.
        per_layer = terms.replicated + (terms.split + scores) / t;
    }
    // FP32 training stores 32-bit activations: twice the 16-bit figures.
    if (training.precision == NumberFormat::fp32) per_layer *= 2;
    // Context parallelism (docs/model.md §11): each of c GPUs keeps its s/c tokens of every
    // tensor above, and its queries' scores against all keys: 1/c of the whole.
    per_layer /= parallel.context;

    // Pipeline 1F1B (Korthikanti §4.2.3): the first stage keeps p micro-batches of L/p layers in
    // flight, L layers' worth whatever p; fewer when the step has fewer micro-batches than stages
    // (docs/model.md §4). The last stage holds one micro-batch of its L/p layers
    // plus the logits: 4 bytes each in FP32 for the loss (docs/model.md §4), split by t (vocab-parallel).
    // With m virtual stages per GPU (interleaved schedule, Korthikanti §4.2.3) the first stage
    // holds L·(1 + (p−1)/(p·m)) layers' worth instead.
    const double p = parallel.pipeline, m = parallel.interleave;
    const double interleaving = p > 1 && m > 1 ? 1 + (p - 1) / (p * m) : 1.0;
    const double in_flight_first = std::fmin(p, micro_batches);
    double layers_first_stage = a.layers * per_layer * interleaving * (in_flight_first / p);
    double layers_last_stage = a.layers / parallel.pipeline * per_layer;
    // Uneven stages (Megatron-Core's decoder_first/last_pipeline_num_layers; Llama 3 §3.3.2 takes
    // one layer off the first and the last stage): those stages hold their own layer counts.
    if (p > 1 && parallel.first_stage_layers > 0)
        layers_first_stage = parallel.first_stage_layers * per_layer * interleaving * in_flight_first;
    if (p > 1 && parallel.last_stage_layers > 0) layers_last_stage = parallel.last_stage_layers * per_layer;
    const double logits = loss_bytes_per_logit(training.framework) * s * b * a.vocab / t / parallel.context;

    ActivationBytes bytes;
    bytes.per_layer = per_layer;
    bytes.micro_batches = micro_batches;
    if (parallel.pipeline <= 1 || layers_last_stage + logits > layers_first_stage) {
        bytes.layers = parallel.pipeline <= 1 ? layers_first_stage : layers_last_stage;
        bytes.logits = logits;
        bytes.in_flight = 1;  // the last stage runs each micro-batch's backward right after its forward
    } else {
        bytes.layers = layers_first_stage;
        bytes.logits = 0;
        bytes.in_flight = in_flight_first;
    }
    return bytes;
}

}  // namespace

ActivationBytes training_activations(const Architecture& a, const TrainingSettings& training,
                                     const ParallelSettings& parallel) {
    return activations_with(a, training, parallel, layer_activation_terms(a, training), training.recompute,
                            micro_batches_per_step(training, parallel));
}

void training_activations_by_recompute(const Architecture& a, const TrainingSettings& training,
                                       const ParallelSettings& parallel, ActivationBytes (&by_recompute)[3]) {
    const LayerActivationTerms terms = layer_activation_terms(a, training);
    const double micro_batches = micro_batches_per_step(training, parallel);
    for (const Recompute r : {Recompute::none, Recompute::selective, Recompute::full})
        by_recompute[static_cast<int>(r)] = activations_with(a, training, parallel, terms, r, micro_batches);
}

double kv_cache_values_per_token(const Architecture& a, double context) {
    // docs/model.md §12, multi-head latent attention (DeepSeek-V2 §2.1.4): one latent of
    // kv_lora_rank values and one decoupled RoPE key of rope_head_dim per layer per token.
    // Otherwise one K and one V vector of a_kv·(h/a) values (a_kv·d with heads of their own size).
    const double per_layer = a.latent_attention() ? a.kv_lora_rank + a.rope_head_dim
                                                  : 2 * a.kv_heads * (a.head_dim > 0 ? a.head_dim : a.hidden / a.heads);
    if (a.sliding_window_layers <= 0) return a.layers * per_layer;
    // Sliding-window layers (Gemma 2) keep only the last w tokens: their share of a token's cache is w/s.
    const double kept = std::fmin(1.0, a.sliding_window / context);
    return per_layer * ((a.layers - a.sliding_window_layers) + a.sliding_window_layers * kept);
}

InferenceBytes inference_memory(const Architecture& a, double parameters, const InferenceSettings& inference) {
    InferenceBytes bytes;
    bytes.bytes_per_param = bytes_per_value(inference.weights);
    bytes.weights = parameters * bytes.bytes_per_param;
    // One K and one V vector of a_kv·(h/a) values per layer per token (docs/model.md §5).
    const double head_size = a.hidden / a.heads;
    if (!a.latent_attention() && a.head_dim <= 0 && a.sliding_window_layers <= 0) {
        bytes.kv_cache = 2 * a.layers * inference.batch * inference.context * a.kv_heads * head_size *
                         bytes_per_value(inference.kv_cache);
        return bytes;
    }
    bytes.kv_cache = kv_cache_values_per_token(a, inference.context) * inference.batch * inference.context *
                     bytes_per_value(inference.kv_cache);
    return bytes;
}

ModelStateBytes per_gpu_model_states(const BytesPerParam& bytes_per_param, const ParameterCount& params,
                                     const ParallelSettings& parallel) {
    const double model_parallel = parallel.tensor * parallel.pipeline;
    // ZeRO shards over the data- and context-parallel ranks, which hold the same weights
    // (Megatron-Core's distributed optimizer over its DP × CP group; docs/model.md §11).
    const double sharding = parallel.data_parallel() * parallel.context;
    if (parallel.expert <= 1 || params.routed_experts <= 0)
        return per_gpu_model_states(bytes_per_param, params.total, model_parallel, sharding, parallel.zero_stage);
    // Expert parallelism: the routed experts are split e ways more, and their states sharded over
    // the d·c/e ranks that hold the same experts (Megatron-Core's expert-data-parallel group).
    const ModelStateBytes rest = per_gpu_model_states(bytes_per_param, params.total - params.routed_experts,
                                                      model_parallel, sharding, parallel.zero_stage);
    const ModelStateBytes experts =
        per_gpu_model_states(bytes_per_param, params.routed_experts, model_parallel * parallel.expert,
                             sharding / parallel.expert, parallel.zero_stage);
    ModelStateBytes bytes;
    bytes.weights = rest.weights + experts.weights;
    bytes.gradients = rest.gradients + experts.gradients;
    bytes.master_weights = rest.master_weights + experts.master_weights;
    bytes.optimizer_states = rest.optimizer_states + experts.optimizer_states;
    return bytes;
}

}  // namespace trainscope
