#include "engine/model/model.hpp"

#include <cmath>

#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {

namespace {

// docs/model.md §12: the attention block's weights when it is not the plain h×h shape of §1.
double attention_parameters(const Architecture& a) {
    const double h = a.hidden;
    if (a.latent_attention()) {
        // DeepSeek-V2 §2.1.2–2.1.3 (and V3's config): Q from h, or through a latent of q_lora_rank
        // with its RMSNorm; K and V from a shared latent of kv_lora_rank (with its RMSNorm) plus
        // one decoupled RoPE key of rope_head_dim; each head's query and key are nope + rope wide.
        const double qk_head = a.nope_head_dim + a.rope_head_dim;
        const double query = a.q_lora_rank > 0 ? h * a.q_lora_rank + a.q_lora_rank + a.q_lora_rank * a.heads * qk_head
                                               : h * a.heads * qk_head;
        const double key_value = h * (a.kv_lora_rank + a.rope_head_dim) + a.kv_lora_rank +
                                 a.kv_lora_rank * a.heads * (a.nope_head_dim + a.v_head_dim);
        const double output = a.heads * a.v_head_dim * h;
        return query + key_value + output;
    }
    // Heads of their own size d (Gemma 2): Q and O are h×(a·d), K and V h×(a_kv·d).
    const double d = a.head_dim;
    return 2 * h * a.heads * d + 2 * h * a.kv_heads * d;
}

}  // namespace

ParameterCount count_parameters(const Architecture& a) {
    const double h = a.hidden;
    const double kv_width = h * a.kv_heads / a.heads;  // K and V project to a_kv heads of size h/a

    // docs/model.md §1 (attention): Q and O are h×h, K and V are h×(h·a_kv/a).
    double attention = a.latent_attention() || a.head_dim > 0 ? attention_parameters(a) : 2 * h * h + 2 * h * kv_width;
    // docs/model.md §1 (MLP): SwiGLU has gate, up and down matrices; GeLU has up and down.
    const double matrices = a.gated_mlp ? 3.0 : 2.0;
    double mlp_per_expert = matrices * h * a.routed_mlp();
    double dense_mlp = matrices * h * a.mlp;
    // Two norms per layer (before attention, before the MLP), h weights each.
    double norms = 2 * h;
    double final_norm = h;
    if (a.biases) {
        // GPT-2/3: every linear layer has a bias and LayerNorm has a shift as well as a scale.
        attention += 2 * h + 2 * kv_width;
        mlp_per_expert += (a.gated_mlp ? 2.0 : 1.0) * a.routed_mlp() + h;
        dense_mlp += (a.gated_mlp ? 2.0 : 1.0) * a.mlp + h;
        norms *= 2;
        final_norm *= 2;
    }
    // Mixture of experts (Mixtral, Jiang et al. 2024 §2.1): a router h×E picks k of E MLPs.
    const double router = a.experts > 1 ? h * a.experts : 0.0;

    const double embeddings = a.vocab * h * (a.tied_embeddings ? 1.0 : 2.0) + a.learned_positions * h;
    const double shared = attention + router + norms;

    ParameterCount count;
    if (!a.extended_moe()) {
        count.total = a.layers * (shared + a.experts * mlp_per_expert) + embeddings + final_norm;
        count.active = a.layers * (shared + a.experts_per_token * mlp_per_expert) + embeddings + final_norm;
        count.routed_experts = a.experts > 1 ? a.layers * a.experts * mlp_per_expert : 0.0;
        return count;
    }
    // docs/model.md §11 (DeepSeekMoE, Dai et al. 2024; DeepSeek-V3 §2.1.2): the first dense_layers
    // layers have one MLP of width mlp; the others E routed experts and S shared ones of width
    // expert_mlp, of which a token uses its k routed experts and all S shared ones.
    const double moe_layers = a.layers - a.dense_layers;
    const double dense_layer = attention + norms + dense_mlp;
    count.routed_experts = a.experts > 1 ? moe_layers * a.experts * mlp_per_expert : 0.0;
    count.total = moe_layers * (shared + (a.experts + a.shared_experts) * mlp_per_expert) +
                  a.dense_layers * dense_layer + embeddings + final_norm;
    count.active = moe_layers * (shared + (a.experts_per_token + a.shared_experts) * mlp_per_expert) +
                   a.dense_layers * dense_layer + embeddings + final_norm;
    return count;
}

Architecture assumed_architecture(double parameters) {
    Architecture a;
    a.vocab = 32000;
    a.gated_mlp = true;
    // Per layer 4h² (attention, multi-head) + 3·h·(8h/3) (SwiGLU) = 12h²; with h = 128·L
    // the whole model is about 12·128²·L³ + 2·V·h. Solve for L by bisection; it is monotonic.
    auto total_for_layers = [&](double layers) {
        const double h = 128 * layers;
        return layers * 12 * h * h + 2 * a.vocab * h;
    };
    double low = 0.01, high = 1e5;
    for (int i = 0; i < 200; ++i) {
        const double middle = std::sqrt(low * high);
        (total_for_layers(middle) < parameters ? low : high) = middle;
    }
    a.layers = std::fmax(1.0, std::round(low));
    // With whole layers, choose the hidden size (a multiple of 128) that best matches the count.
    const double quadratic = 12 * a.layers, linear = 2 * a.vocab;
    const double exact_hidden = (-linear + std::sqrt(linear * linear + 4 * quadratic * parameters)) / (2 * quadratic);
    a.hidden = std::fmax(128.0, std::round(exact_hidden / 128) * 128);
    a.heads = a.hidden / 128;
    a.kv_heads = a.heads;
    a.mlp = std::round(a.hidden * 8 / 3);
    return a;
}

namespace {

Architecture gpt_style(double layers, double hidden, double heads, double vocab, double positions) {
    Architecture a;
    a.layers = layers;
    a.hidden = hidden;
    a.heads = heads;
    a.kv_heads = heads;
    a.mlp = plain_mlp_multiple * hidden;
    a.vocab = vocab;
    a.gated_mlp = false;
    a.tied_embeddings = true;
    a.learned_positions = positions;
    a.biases = true;
    a.dropout = true;
    return a;
}

Architecture llama_style(double layers, double hidden, double heads, double kv_heads, double mlp, double vocab) {
    Architecture a;
    a.layers = layers;
    a.hidden = hidden;
    a.heads = heads;
    a.kv_heads = kv_heads;
    a.mlp = mlp;
    a.vocab = vocab;
    return a;
}

Architecture mixtral_8x7b() {
    Architecture a = llama_style(32, 4096, 32, 8, 14336, 32000);
    a.experts = 8;
    a.experts_per_token = 2;
    return a;
}

Architecture mixtral_8x22b() {
    // mistralai/Mixtral-8x22B-v0.1 config.json: 56 layers, 6144 hidden, 48 heads (8 KV), 16384 MLP, 32768 vocabulary.
    Architecture a = llama_style(56, 6144, 48, 8, 16384, 32768);
    a.experts = 8;
    a.experts_per_token = 2;
    return a;
}

Architecture deepseek_v3() {
    // DeepSeek-V3 Technical Report §4.2 and deepseek-ai/DeepSeek-V3 config.json: 61 layers, hidden
    // 7168, 128 heads of multi-head latent attention (query latent 1536, key-value latent 512,
    // heads of 128 + 64 rotary for Q and K, 128 for V), the first 3 layers dense (MLP 18432), then
    // 256 routed experts (8 per token) and 1 shared, each 2048 wide; vocabulary 129280, untied.
    Architecture a = llama_style(61, 7168, 128, 128, 18432, 129280);
    a.experts = 256;
    a.experts_per_token = 8;
    a.shared_experts = 1;
    a.expert_mlp = 2048;
    a.dense_layers = 3;
    a.expert_node_limit = 4;  // §2.1.2: each token is sent to at most 4 nodes
    a.q_lora_rank = 1536;
    a.kv_lora_rank = 512;
    a.nope_head_dim = 128;
    a.rope_head_dim = 64;
    a.v_head_dim = 128;
    return a;
}

Architecture gemma2_27b() {
    // Gemma Team 2024, Gemma 2, Table 1 and google/gemma-2-27b config.json: 46 layers, hidden 4608,
    // 32 heads of 128 (16 KV), GeGLU 36864 wide, vocabulary 256000 tied; every other layer attends
    // to a sliding window of 4096 tokens.
    Architecture a = llama_style(46, 4608, 32, 16, 36864, 256000);
    a.head_dim = 128;
    a.tied_embeddings = true;
    a.sliding_window = 4096;
    a.sliding_window_layers = 23;
    return a;
}

// Llama 3 Herd of Models 2024, Table 4: the 16,384-GPU rows of 405B pre-training (docs/model.md §14).
std::vector<TrainingRun> llama3_405b_runs() {
    TrainingRun main_run;
    main_run.id = "pretraining-8k";
    main_run.name = [] {
        return message("presets.run.llama3_405b.pretraining_8k", "Pre-training at 8K context on {gpus} H100s",
                       {{"gpus", quantity::format_count(16384)}});
    };
    main_run.gpu = "h100-sxm";
    main_run.gpus = 16384;
    main_run.tensor = 8;
    main_run.pipeline = 16;
    main_run.zero_stage = 1;
    main_run.sequence_parallel = true;
    // §3.3.2: one layer fewer on the first and the last stage, to even out their memory.
    main_run.first_stage_layers = 7;
    main_run.last_stage_layers = 7;
    // §3.3.2: interleaved stages, the first chunk of the first stage only the embedding and the last
    // chunk of the last stage only the output: 16 stages of 8 one-layer chunks hold the 126 layers.
    main_run.interleave = 8;
    main_run.sequence = 8192;
    main_run.global_batch = 2048;  // 16 sequences per data-parallel rank × 128
    main_run.tokens = 15.6e12;
    main_run.published_gpu_hours = 30.84e6;
    main_run.published_mfu_low = 0.41;
    main_run.published_mfu_high = 0.41;
    main_run.published_flops = 3.8e25;
    main_run.recompute = "none";  // §3.3.2: "without activation checkpointing" at 8K
    main_run.source =
        "Llama 3 Herd of Models 2024, Table 4 (16,384 GPUs, TP 8, CP 1, PP 16, DP 128, 8,192 tokens, 16 sequences "
        "per DP rank, 41% BF16 MFU) and §3.2.1 (3.8 × 10^25 FLOPs, 15.6T tokens); Llama 3.1 model card (30.84M H100 "
        "GPU-hours for 405B)";
    TrainingRun long_context = main_run;
    long_context.id = "long-context-128k";
    long_context.name = [] {
        return message("presets.run.llama3_405b.long_context_128k", "Long-context pre-training at 128K on {gpus} H100s",
                       {{"gpus", quantity::format_count(16384)}});
    };
    long_context.context = 16;
    // At 128K attention's FLOPs (12·L·h·s per token) exceed the 6·N of the weights: an MFU of 38%
    // counts them, as PaLM's (App. B) does.
    long_context.attention_flops = true;
    // §3.3.2: the first chunk of the first stage holds only the embedding, the last chunk of the last
    // stage only the output: with 16 stages of 8 one-layer chunks, 126 layers.
    long_context.interleave = 8;
    long_context.sequence = 131072;
    long_context.global_batch = 128;  // 16 sequences per data-parallel rank × 8
    long_context.tokens = 800e9;
    long_context.published_gpu_hours = 0;
    long_context.published_mfu_low = long_context.published_mfu_high = 0.38;
    long_context.published_flops = 0;
    long_context.source =
        "Llama 3 Herd of Models 2024, Table 4 (16,384 GPUs, TP 8, CP 16, PP 16, DP 8, 131,072 tokens, 16 sequences "
        "per DP rank, 38% BF16 MFU) and §3.4.2 (about 800B tokens of long-context pre-training)";
    return {main_run, long_context};
}

std::vector<TrainingRun> deepseek_v3_runs() {
    TrainingRun run;
    run.id = "pretraining";
    run.name = [] {
        return message("presets.run.deepseek_v3.pretraining", "Pre-training on {gpus} H800s",
                       {{"gpus", quantity::format_count(2048)}});
    };
    run.gpu = "h800-sxm";
    run.gpus = 2048;
    run.pipeline = 16;
    run.expert = 64;
    run.zero_stage = 1;
    run.sequence = 4096;
    run.global_batch = 15360;
    run.tokens = 14.8e12;
    run.published_gpu_hours = 2.664e6;
    run.recompute = "full";
    run.note = [] {
        return message("presets.run.deepseek_v3.pretraining_note",
                       "DeepSeek-V3 recomputes only its RMSNorms and MLA up-projections and caches some activations "
                       "in FP8 (§3.3.2), which this engine's per-layer model cannot express; full recomputation is "
                       "the nearest setting that fits in the H800's {memory}, and costs a third more arithmetic "
                       "than the run did.",
                       {{"memory", quantity::format(80e9, quantity::Figure::bytes)}});
    };
    run.source =
        "DeepSeek-V3 Technical Report 2024, §3.1 (2,048 H800 GPUs), §3.2 (16-way pipeline, 64-way expert parallelism "
        "over 8 nodes, ZeRO-1 data parallelism, no tensor parallelism), §4.2 (14.8T tokens, 4K sequences, batch "
        "ramped to 15,360) and Table 1 (2,664K H800 GPU-hours of pre-training)";
    return {run};
}

std::vector<TrainingRun> gemma2_27b_runs() {
    TrainingRun run;
    run.id = "pretraining";
    run.name = [] {
        return message("presets.run.gemma2_27b.pretraining", "Pre-training on {chips} TPU v5p chips",
                       {{"chips", quantity::format_count(6144)}});
    };
    run.gpu = "tpu-v5p";
    run.gpus = 6144;
    run.tensor = 8;
    run.zero_stage = 3;
    run.sequence = 8192;
    run.tokens = 13e12;
    run.recompute = "none";
    run.source =
        "Gemma Team 2024, Gemma 2, Table 3 (27B: TPUv5p, 6,144 chips, 768-way data and 8-way model "
        "sharding), §3.1 (13T tokens, 8,192-token context) and §3.3 (optimizer state sharded like ZeRO-3)";
    return {run};
}

}  // namespace

const std::vector<ModelPreset>& model_presets() {
    // Shapes from each model's paper or released config.json; published sizes from the same.
    static const std::vector<ModelPreset> presets = {
        {"gpt2-124m", "GPT-2 124M", gpt_style(12, 768, 12, 50257, 1024), 124e6, 0, 0, "",
         "Radford et al. 2019, GPT-2, Table 2; openai-community/gpt2 config.json"},
        {"llama2-7b", "Llama 2 7B", llama_style(32, 4096, 32, 32, 11008, 32000), 6.74e9, 2e12, 0, "",
         "Touvron et al. 2023, Llama 2, §2 and Table 1; meta-llama/Llama-2-7b-hf config.json (6.74B)"},
        {"llama2-13b", "Llama 2 13B", llama_style(40, 5120, 40, 40, 13824, 32000), 13.0e9, 2e12, 0, "",
         "Touvron et al. 2023, Llama 2, §2 and Table 1; meta-llama/Llama-2-13b-hf config.json (13.0B)"},
        {"llama2-70b", "Llama 2 70B", llama_style(80, 8192, 64, 8, 28672, 32000), 68.98e9, 2e12, 0, "",
         "Touvron et al. 2023, Llama 2, §2 and Table 1; meta-llama/Llama-2-70b-hf config.json (68.98B)"},
        {"llama3-8b", "Llama 3 8B", llama_style(32, 4096, 32, 8, 14336, 128256), 8.03e9, 15e12, 0, "",
         "Llama 3 Herd of Models 2024, Table 3; meta-llama/Meta-Llama-3-8B config.json (8.03B)"},
        {"llama3-70b", "Llama 3 70B", llama_style(80, 8192, 64, 8, 28672, 128256), 70.55e9, 15e12, 0, "",
         "Llama 3 Herd of Models 2024, Table 3; meta-llama/Meta-Llama-3-70B config.json (70.55B)"},
        {"llama3-405b", "Llama 3 405B", llama_style(126, 16384, 128, 8, 53248, 128256), 405.85e9, 15.6e12, 16384,
         "h100-sxm",
         "Llama 3 Herd of Models 2024, Table 3 and §3.3.1 (15.6T tokens, up to 16,384 H100 GPUs); Llama 3.1's 128K "
         "context (§3.4.2)",
         0, 131072, llama3_405b_runs()},
        {"gpt3-175b", "GPT-3 175B", gpt_style(96, 12288, 96, 50257, 2048), 175e9, 300e9, 0, "",
         "Brown et al. 2020, GPT-3, Table 2.1 and §2.2 (300B tokens)"},
        {"mixtral-8x7b", "Mixtral 8x7B", mixtral_8x7b(), 46.7e9, 0, 0, "",
         "Jiang et al. 2024, Mixtral of Experts, §2 (46.7B total, 12.9B active)", 12.9e9, 32768},
        {"mixtral-8x22b", "Mixtral 8x22B", mixtral_8x22b(), 141e9, 0, 0, "",
         "Mistral AI 2024, \"Cheaper, Better, Faster, Stronger\" (141B total, 39B active, 64K context); "
         "mistralai/Mixtral-8x22B-v0.1 config.json",
         39e9, 65536},
        {"qwen2.5-72b", "Qwen2.5 72B", llama_style(80, 8192, 64, 8, 29568, 152064), 72.7e9, 18e12, 0, "",
         "Qwen Team 2024, Qwen2.5 Technical Report, Table 1 and §3 (72.7B, 18T tokens, 128K context); "
         "Qwen/Qwen2.5-72B config.json",
         0, 131072},
        {"gemma2-27b", "Gemma 2 27B", gemma2_27b(), 27.2e9, 13e12, 6144, "tpu-v5p",
         "Gemma Team 2024, Gemma 2, Tables 1–3 (27.2B: 26.05B besides the embeddings, 13T tokens, 6,144 TPU v5p "
         "chips, 8K context)",
         0, 8192, gemma2_27b_runs()},
        {"deepseek-v3", "DeepSeek-V3", deepseek_v3(), 671e9, 14.8e12, 2048, "h800-sxm",
         "DeepSeek-V3 Technical Report 2024, §2.1, §3.1 and §4.2 (671B total, 37B active per token, 14.8T tokens, "
         "2,048 H800 GPUs, 128K context after extension); deepseek-ai/DeepSeek-V3 config.json",
         37e9, 131072, deepseek_v3_runs()},
    };
    return presets;
}

const ModelPreset* find_model_preset(std::string_view id) {
    for (const auto& preset : model_presets())
        if (preset.id == id) return &preset;
    return nullptr;
}

}  // namespace trainscope
