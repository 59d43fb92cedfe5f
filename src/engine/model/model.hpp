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
    double kv_heads = 0;          // grouped-query attention; = heads for multi-head attention
    double mlp = 0;               // MLP (FFN) inner size f
    double vocab = 0;
    bool gated_mlp = true;        // SwiGLU: three h×f matrices; plain GeLU: two
    bool tied_embeddings = false; // output head shares the input embedding matrix
    double learned_positions = 0; // GPT-2/3 learned position table rows; 0 for rotary
    bool biases = false;          // linear and LayerNorm biases (GPT-2/3)
    bool dropout = false;         // dropout masks are kept for the backward pass (GPT-style)
    double experts = 1;
    double experts_per_token = 1;
};

// A plain (GeLU) MLP is this many times the hidden size wide: GPT-2 and GPT-3 (Brown et al. 2020,
// Table 2.1: d_ff = 4 · d_model). Hugging Face's GPT-2 reads a null n_inner the same way.
constexpr double plain_mlp_multiple = 4.0;

struct ParameterCount {
    double total = 0;   // what memory holds
    double active = 0;  // what one token uses: the compute side of a mixture of experts
};

// docs/model.md §1: Q, O are h×h; K, V are h×(h·a_kv/a); MLP 3·h·f gated or 2·h·f plain;
// two norms per layer and a final one; embeddings V·h, an untied head another V·h.
ParameterCount count_parameters(const Architecture& architecture);

// A plausible Llama-style shape for a bare parameter count, used only for activations and the
// KV cache: hidden ≈ 128 × layers (GPT-3 12288/96, Llama 2 7B 4096/32), head size 128, f = 8h/3.
Architecture assumed_architecture(double parameters);

struct ModelPreset {
    std::string_view id;
    std::string_view name;
    Architecture architecture;
    double published_params;       // the size its authors report, for the tests
    double training_tokens;        // reported training tokens; 0 when not reported
    double training_gpus;          // reported largest training cluster; 0 when not reported
    std::string_view training_gpu; // catalogue id of that cluster's GPU, or empty
    std::string_view source;
};

const std::vector<ModelPreset>& model_presets();
const ModelPreset* find_model_preset(std::string_view id);

}  // namespace trainscope
