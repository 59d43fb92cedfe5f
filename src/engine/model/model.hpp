// Model shapes, parameter counts and the preset catalogue.
#pragma once

#include <string_view>
#include <vector>

namespace trainscope {

// A decoder-only transformer. Counts are doubles: 405e9 × 16 overflows 32-bit size_t on wasm32,
// and doubles hold every integer below 2^53 exactly.
struct Architecture {
    double layers = 0;
    double hidden = 0;
    double heads = 0;
    double kv_heads = 0;  // grouped-query attention; = heads for multi-head attention
    double mlp = 0;       // MLP (FFN) inner size f
    double vocab = 0;
    bool gated_mlp = true;         // SwiGLU: three h×f matrices; plain GeLU: two
    bool tied_embeddings = false;  // output head shares the input embedding matrix
    double learned_positions = 0;  // GPT-2/3 learned position table rows; 0 for rotary
    bool biases = false;           // linear and LayerNorm biases (GPT-2/3)
    bool dropout = false;          // dropout masks are kept for the backward pass (GPT-style)
    double experts = 1;
    double experts_per_token = 1;
    // Mixture of experts as DeepSeek-V3 builds it (docs/model.md §11): experts every token visits
    // besides its k routed ones, the experts' MLP width when it differs from the dense one (0: mlp),
    // and dense layers (an MLP of width mlp) before the first mixture-of-experts layer.
    double shared_experts = 0;
    double expert_mlp = 0;
    double dense_layers = 0;
    // Node-limited routing (DeepSeek-V3 §2.1.2): a token's experts lie on at most this many nodes,
    // so it crosses the network at most this many times (§3.2.2); 0: no limit.
    double expert_node_limit = 0;
    // Attention heads of their own size (Gemma 2: 32 heads of 128 in a hidden size of 4608); 0: h/a.
    double head_dim = 0;
    // Multi-head latent attention (DeepSeek-V2 §2.1, docs/model.md §12), used when kv_lora_rank > 0:
    // K and V come from a compressed latent of kv_lora_rank values, plus a decoupled RoPE key of
    // rope_head_dim shared by all heads; Q from a latent of q_lora_rank (0: straight from h).
    double q_lora_rank = 0;
    double kv_lora_rank = 0;
    double nope_head_dim = 0;  // the part of each query/key head without rotary positions
    double rope_head_dim = 0;
    double v_head_dim = 0;
    // Sliding-window attention (Gemma 2, docs/model.md §12): this many layers attend only to the
    // last sliding_window tokens; 0: every layer attends to the whole context.
    double sliding_window = 0;
    double sliding_window_layers = 0;

    bool latent_attention() const { return kv_lora_rank > 0; }
    // True when any field beyond the original shape is in use; the original formulas apply otherwise.
    bool extended_moe() const { return shared_experts > 0 || expert_mlp > 0 || dense_layers > 0; }
    double routed_mlp() const { return expert_mlp > 0 ? expert_mlp : mlp; }
};

// A plain (GeLU) MLP is this many times the hidden size wide: GPT-2 and GPT-3 (Brown et al. 2020,
// Table 2.1: d_ff = 4 · d_model). Hugging Face's GPT-2 reads a null n_inner the same way.
constexpr double plain_mlp_multiple = 4.0;

struct ParameterCount {
    double total = 0;           // what memory holds
    double active = 0;          // what one token uses: the compute side of a mixture of experts
    double routed_experts = 0;  // of total, the routed experts' MLPs: what expert parallelism splits
};

// docs/model.md §1: Q, O are h×h; K, V are h×(h·a_kv/a); MLP 3·h·f gated or 2·h·f plain;
// two norms per layer and a final one; embeddings V·h, an untied head another V·h.
ParameterCount count_parameters(const Architecture& architecture);

// A plausible Llama-style shape for a bare parameter count, used only for activations and the
// KV cache: hidden ≈ 128 × layers (GPT-3 12288/96, Llama 2 7B 4096/32), head size 128, f = 8h/3.
Architecture assumed_architecture(double parameters);

// A published training run of a preset, laid out as its paper states (docs/model.md §14): what
// "load the run as it was" loads, and what the tests check against the paper's own figures.
struct TrainingRun {
    std::string_view id;
    // The run's name and what the engine approximates, in the current language: functions, since
    // the table is built once and a learner may change the language after (docs/i18n.md).
    std::string (*name)() = nullptr;
    std::string_view gpu;  // catalogue id
    double gpus = 0;
    double tensor = 1, pipeline = 1, context = 1, expert = 1, interleave = 1;
    double first_stage_layers = 0, last_stage_layers = 0;  // 0: even stages
    int zero_stage = 0;
    bool sequence_parallel = false;
    bool attention_flops = false;  // count attention's FLOPs (PaLM App. B), as the paper's MFU does at long context
    double sequence = 0;           // tokens per sequence
    double global_batch = 0;       // sequences per optimizer step
    double micro_batch = 1;
    double tokens = 0;  // tokens of this run
    // The paper's own figures, for the tests: 0 when not stated.
    double published_gpu_hours = 0;
    double published_mfu_low = 0, published_mfu_high = 0;
    double published_flops = 0;
    std::string_view recompute;       // "none", "selective" or "full"
    std::string (*note)() = nullptr;  // when the engine cannot lay the run out exactly; null: nothing to say
    std::string_view source;
};

struct ModelPreset {
    std::string_view id;
    std::string_view name;
    Architecture architecture;
    double published_params;        // the size its authors report, for the tests
    double training_tokens;         // reported training tokens; 0 when not reported
    double training_gpus;           // reported largest training cluster; 0 when not reported
    std::string_view training_gpu;  // catalogue id of that cluster's GPU, or empty
    std::string_view source;
    double published_active_params = 0;  // for a mixture of experts; 0 when the same as the total
    double context_window = 0;           // the longest context it was trained for; 0 when not stated
    std::vector<TrainingRun> runs = {};
};

const std::vector<ModelPreset>& model_presets();
const ModelPreset* find_model_preset(std::string_view id);

}  // namespace trainscope
