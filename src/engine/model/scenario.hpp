// A scenario: everything a learner can set. Plain data, read from and written to JSON
// (docs/scenario.md). Reading validates every field and names the bad ones.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/model/hardware.hpp"
#include "engine/model/model.hpp"
#include "engine/model/precision.hpp"
#include "engine/text/json.hpp"

namespace trainscope {

enum class Optimizer { adamw, adam, sgd_momentum, sgd, adam_8bit, adafactor };
enum class Recompute { none, selective, full };
// How the model states are tallied (docs/model.md §2): the ZeRO paper's 16 bytes for mixed Adam,
// or with an FP32 gradient copy as well, 18 (Hugging Face's guide, DeepSpeed's ZeRO-3 estimator).
enum class AccountingConvention { zero, fp32_gradients };
// docs/model.md §15: train every weight, or freeze the base and train LoRA adapters (QLoRA: on a 4-bit base).
enum class FineTuningMethod { full, lora, qlora };
// How the frozen base is stored: 16-bit, 8-bit (LLM.int8), 4-bit NormalFloat, or NF4 with its
// quantisation constants quantised again (QLoRA §3, "double quantization").
enum class BaseStorage { bf16, int8, nf4, nf4_double_quant };
// The matrices LoRA adapts, as bits: attention's query, key, value and output, the MLP's gate, up and down.
enum LoraTarget : unsigned {
    lora_q = 1,
    lora_k = 2,
    lora_v = 4,
    lora_o = 8,
    lora_gate = 16,
    lora_up = 32,
    lora_down = 64
};
constexpr int lora_target_count = 7;
// docs/model.md §16: what moves to CPU memory (ZeRO-Offload, ZeRO-Infinity).
enum class Offload { none, optimizer, parameters };
// How a 16-bit training precision holds the weights (docs/model.md §2): 16-bit weights beside an
// FP32 master copy and FP32 optimizer states (Micikevicius et al. 2018; Megatron, DeepSpeed: the
// lesson's 16 bytes); everything in 16 bits, the optimizer's states too (LitGPT bf16-true,
// torchtune, PEFT's examples); or PyTorch autocast: FP32 weights, gradients and states, with 16-bit
// copies of the weights made per op and kept for the backward (LitGPT bf16-mixed, Trainer fp16=True).
enum class PrecisionRecipe { master_copy, pure, autocast };
// Whose rules decide what a layer keeps for the backward pass (docs/model.md §4, issue 32):
// Megatron-Core with Transformer Engine's fused kernels (Korthikanti et al. 2022's accounting, the
// lesson's and every published figure's), or eager PyTorch as Hugging Face transformers (with PEFT
// and TRL), LitGPT and torchtune run a model, op by op, each with its own loss.
enum class Framework { megatron, hugging_face, litgpt, torchtune };

std::string_view optimizer_name(Optimizer optimizer);
std::string_view recompute_name(Recompute recompute);
std::string_view accounting_name(AccountingConvention accounting);
std::string_view fine_tuning_method_name(FineTuningMethod method);
std::string_view base_storage_name(BaseStorage storage);
std::string_view offload_name(Offload offload);
std::string_view precision_recipe_name(PrecisionRecipe recipe);
std::string_view framework_name(Framework framework);
// "q", "k", "v", "o", "gate", "up", "down" for the bit `index` (0 … 6) of LoraTarget.
std::string_view lora_target_name(int index);

struct ModelChoice {
    std::string preset_id;  // empty for a bare count or a custom architecture
    bool architecture_overridden = false;
    bool architecture_assumed = false;  // shape derived from a bare parameter count
    double given_params = 0;            // the bare count, when that is what was given
    std::string name;  // what the learner called it (a pasted config's name): shown, never computed with
    Architecture architecture;
};

struct InferenceSettings {
    NumberFormat weights = NumberFormat::bf16;
    NumberFormat kv_cache = NumberFormat::bf16;
    double batch = 1;
    double context = 4096;
};

// Where training.tokens came from: the learner, a preset's pre-training run, 20 per parameter
// (Chinchilla), or the default fine-tuning run of LoRA and QLoRA (docs/scenario.md).
enum class TokensOrigin { given, preset_run, compute_optimal, fine_tuning_run };

struct TrainingSettings {
    NumberFormat precision = NumberFormat::bf16;  // bf16/fp16: mixed precision with an FP32 master copy
    Optimizer optimizer = Optimizer::adamw;
    double micro_batch = 1;
    double sequence = 4096;
    Recompute recompute = Recompute::none;
    bool flash_attention = true;  // what current training stacks use (Dao et al. 2022)
    bool sequence_parallel = false;
    double tokens = 0;
    TokensOrigin tokens_origin = TokensOrigin::given;  // not written: read_scenario derives it
    bool attention_flops = false;
    // Sequences per optimizer step over all data-parallel replicas; 0: the fewest micro-batches
    // the layout needs (micro_batches_per_step, memory.hpp).
    double global_batch = 0;
    AccountingConvention accounting = AccountingConvention::zero;
    FineTuningMethod method = FineTuningMethod::full;
    // LoRA's rank and targets: PEFT's default rank 8 on the query and value projections, the
    // matrices Hu et al. 2021 adapt (§4.2, §7.1). Read only for lora and qlora.
    double lora_rank = 8;
    unsigned lora_targets = lora_q | lora_v;
    // 16-bit for LoRA; QLoRA's NF4 with double quantisation (Dettmers et al. 2023 §3) for qlora.
    BaseStorage base_storage = BaseStorage::bf16;
    // optimizer: the master copy, optimizer states and gradients' shard live in CPU memory
    // (ZeRO-Offload, needs ZeRO ≥ 1); parameters: the 16-bit weights too (ZeRO-Infinity, needs ZeRO-3).
    Offload offload = Offload::none;
    // Read for bf16 and fp16; written only when not the default.
    PrecisionRecipe precision_recipe = PrecisionRecipe::master_copy;
    // bitsandbytes' paged optimizers (docs/model.md §9): the optimizer states live in CUDA unified
    // memory, outside PyTorch's allocator, and the driver moves them to CPU memory under pressure.
    bool paged_optimizer = false;
    // The optimizer step taken inside the backward pass (torchtune's optimizer_in_bwd): each gradient
    // is applied and freed as soon as it is complete, so one tensor's gradient is live at a time.
    bool optimizer_in_backward = false;
    Framework framework = Framework::megatron;  // written only when not the default
};

struct ParallelSettings {
    double gpus = 1;
    double tensor = 1;
    double pipeline = 1;
    double interleave = 1;  // virtual pipeline stages per GPU (Megatron's interleaved 1F1B); 1: plain 1F1B
    double context = 1;     // context parallelism: each sequence split over this many GPUs (docs/model.md §11)
    double expert = 1;      // expert parallelism: the routed experts split over this many GPUs (docs/model.md §11)
    // Layers on the first and last pipeline stages when they differ from the others (Megatron-Core's
    // decoder_first/last_pipeline_num_layers); 0: layers / pipeline on every stage.
    double first_stage_layers = 0;
    double last_stage_layers = 0;
    int zero_stage = 0;
    // Data-parallel degree d = G / (t·p·c); ZeRO shards over d·c (Megatron-Core's distributed optimizer).
    double data_parallel() const { return gpus / (tensor * pipeline * context); }
};

struct HardwareSettings {
    Gpu gpu;
    double utilization = 0.4;  // the lesson's 40% of peak
    double price_per_gpu_hour = 0;
};

struct Scenario {
    ModelChoice model;
    InferenceSettings inference;
    TrainingSettings training;
    ParallelSettings parallel;
    HardwareSettings hardware;
};

struct FieldError {
    std::string field;    // dotted path, e.g. "parallel.gpus"
    std::string message;  // a sentence a learner can act on
};

struct ScenarioReading {
    Scenario scenario;
    std::vector<FieldError> errors;
    bool ok() const { return errors.empty(); }
};

// Fields absent from `document` take their defaults; a preset also sets the training tokens,
// GPU count and GPU type its authors reported.
ScenarioReading read_scenario(const json::Value& document);
ScenarioReading read_scenario_text(std::string_view json_text);

// The scenario fully spelled out, in the same schema.
std::string write_scenario(const Scenario& scenario);

// The architecture's fields, as members of the JSON object the writer is in.
void write_architecture_fields(json::Writer& writer, const Architecture& architecture);

// A preset's published training run as a scenario (docs/model.md §14): the preset, the run's GPUs
// and layout, sequence, batch, tokens and recompute, and its published utilisation when there is one.
std::string run_scenario_json(const ModelPreset& preset, const TrainingRun& run);

// A GPU's short names and interconnect, as members of the JSON object the writer is in: short_name,
// model_name, gpus_per_node, intra_node_bandwidth, inter_node_bandwidth, pcie_bandwidth,
// interconnect_source (docs/scenario.md).
void write_gpu_interconnect(json::Writer& writer, const Gpu& gpu);

}  // namespace trainscope
