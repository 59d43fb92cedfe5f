#include "engine/model/choices.hpp"

#include <initializer_list>
#include <string_view>

#include "engine/model/estimate.hpp"
#include "engine/model/finetune.hpp"
#include "engine/model/model.hpp"
#include "engine/model/precision.hpp"
#include "engine/text/json.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {

namespace {

struct Choice {
    std::string_view value;
    std::string label;
    std::string hint;
};

void write_choices(json::Writer& w, std::string_view field, std::initializer_list<Choice> choices) {
    w.key(field).begin_array();
    for (const Choice& choice : choices) {
        w.begin_object().field("value", choice.value).field("label", choice.label);
        if (!choice.hint.empty()) w.field("hint", choice.hint);
        w.end_object();
    }
    w.end_array();
}

// "BF16 (2 bytes)": a number format with the bytes the engine counts for it.
std::string format_with_bytes(NumberFormat format) {
    const double bytes = bytes_per_value(format);
    const std::string bytes_text = quantity::format_significant(bytes);
    return bytes == 1 ? message("estimate.number_format.label_one", "{format} ({bytes} byte)",
                                {{"format", format_label(format)}, {"bytes", bytes_text}})
                      : message("estimate.number_format.label_other", "{format} ({bytes} bytes)",
                                {{"format", format_label(format)}, {"bytes", bytes_text}});
}

// A boolean field's two values with the words a page shows for each.
void write_toggle_choices(json::Writer& w, std::string_view field, const Choice& off, const Choice& on) {
    w.key(field).begin_array();
    for (const Choice* choice : {&off, &on}) {
        w.begin_object().field_bool("value", choice == &on).field("label", choice->label);
        if (!choice->hint.empty()) w.field("hint", choice->hint);
        w.end_object();
    }
    w.end_array();
}

void write_format_choices(json::Writer& w, std::string_view field, std::initializer_list<NumberFormat> formats) {
    w.key(field).begin_array();
    for (const NumberFormat format : formats)
        w.begin_object().field("value", format_name(format)).field("label", format_with_bytes(format)).end_object();
    w.end_array();
}

// The interleave control's values (choices.hpp), "1 (plain 1F1B)" first.
void write_interleave_choices(json::Writer& w) {
    w.key("parallel.interleave").begin_array();
    for (const double stages : interleave_stops) {
        const std::string count = quantity::format(stages, quantity::Figure::integer, 0);
        w.begin_object().field("value", stages);
        w.field("label",
                stages == 1 ? message("choices.interleave.plain", "{count} (plain 1F1B)", {{"count", count}}) : count);
        w.end_object();
    }
    w.end_array();
}

// ZeRO stages (Rajbhandari et al. 2019, §5.1–5.3; PyTorch FSDP's sharding strategies).
void write_zero_stages(json::Writer& w) {
    struct Stage {
        int value;
        std::string label, hint, short_label;
    };
    const Stage stages[] = {
        {0, message("choices.zero.0", "Stage 0"),
         message("choices.zero.0_hint", "plain data parallel (DDP): full copies"),
         message("choices.zero.0_short", "Stage 0: full copies")},
        {1, message("choices.zero.1", "Stage 1"), message("choices.zero.1_hint", "optimizer states sharded"),
         message("choices.zero.1_short", "Stage 1: optimizer states sharded")},
        {2, message("choices.zero.2", "Stage 2"), message("choices.zero.2_hint", "+ gradients (FSDP SHARD_GRAD_OP)"),
         message("choices.zero.2_short", "Stage 2: + gradients")},
        {3, message("choices.zero.3", "Stage 3"), message("choices.zero.3_hint", "+ weights (FSDP FULL_SHARD)"),
         message("choices.zero.3_short", "Stage 3: + weights")},
    };
    w.key("parallel.zero_stage").begin_array();
    for (const Stage& stage : stages) {
        w.begin_object().field("value", static_cast<double>(stage.value)).field("label", stage.label);
        w.field("hint", stage.hint).field("short", stage.short_label).end_object();
    }
    w.end_array();
}

// How LoRA's frozen base is stored (docs/model.md §15), with the bits per weight the engine counts;
// "qlora": whether QLoRA takes it (only the two NF4 choices, Dettmers et al. 2023 §3).
void write_base_storage_choices(json::Writer& w) {
    struct Storage {
        BaseStorage storage;
        std::string label;
    };
    const Storage storages[] = {
        {BaseStorage::bf16, message("choices.base.bf16", "16-bit (BF16)")},
        {BaseStorage::int8, message("choices.base.int8", "8-bit (LLM.int8)")},
        {BaseStorage::nf4, message("choices.base.nf4", "4-bit NF4")},
        {BaseStorage::nf4_double_quant, message("choices.base.nf4_double_quant", "4-bit NF4, double quantisation")},
    };
    w.key("training.lora.base").begin_array();
    for (const Storage& choice : storages) {
        const double bits = 8 * base_storage_bytes_per_param(choice.storage);
        w.begin_object().field("value", base_storage_name(choice.storage)).field("label", choice.label);
        w.field("hint", message("choices.base.hint", "{bits} bits per weight",
                                {{"bits", quantity::format_significant(bits, 4)}}));
        w.field_bool("qlora", choice.storage == BaseStorage::nf4 || choice.storage == BaseStorage::nf4_double_quant);
        w.end_object();
    }
    w.end_array();
}

// Offload to CPU memory (docs/model.md §16); "zero_stage": the least ZeRO stage it runs with
// (DeepSpeed's offload_optimizer needs stage 1, offload_param stage 3).
void write_offload_choices(json::Writer& w) {
    struct Mode {
        Offload offload;
        int zero_stage;
        std::string label, hint;
    };
    const Mode modes[] = {
        {Offload::none, 0, message("choices.offload.none", "None"),
         message("choices.offload.none_hint", "everything stays on the GPU")},
        {Offload::optimizer, 1, message("choices.offload.optimizer", "Optimizer"),
         message("choices.offload.optimizer_hint",
                 "master copy, optimizer states and gradients in CPU memory "
                 "(ZeRO-Offload, ZeRO ≥ 1)")},
        {Offload::parameters, 3, message("choices.offload.parameters", "Optimizer and weights"),
         message("choices.offload.parameters_hint", "the 16-bit weights too (ZeRO-Infinity, ZeRO-3)")},
    };
    w.key("training.offload").begin_array();
    for (const Mode& mode : modes) {
        w.begin_object().field("value", offload_name(mode.offload)).field("label", mode.label);
        w.field("hint", mode.hint).field("zero_stage", static_cast<double>(mode.zero_stage)).end_object();
    }
    w.end_array();
}

// "4Ψ + 12Ψ/d": the bytes kept whole and the bytes sharded over d; a zero part is left out.
std::string stage_term(double whole, double sharded) {
    const std::string whole_text = quantity::format_significant(whole) + "Ψ";
    const std::string sharded_text = quantity::format_significant(sharded) + "Ψ/d";
    if (sharded == 0) return whole_text;
    if (whole == 0) return sharded_text;
    return whole_text + " + " + sharded_text;
}

}  // namespace

// docs/model.md §15: full training updates every weight (pre-training or full fine-tuning); LoRA (Hu et al.
// 2021) trains adapters beside a frozen 16-bit base; QLoRA (Dettmers et al. 2023) beside a 4-bit NF4 base.
std::string fine_tuning_method_label(FineTuningMethod method) {
    switch (method) {
        case FineTuningMethod::full:
            return message("choices.method.full", "Full training");
        case FineTuningMethod::lora:
            return message("choices.method.lora", "LoRA");
        case FineTuningMethod::qlora:
            return message("choices.method.qlora", "QLoRA");
    }
    return "";
}

std::string choices_json() {
    json::Writer w;
    w.begin_object();
    write_choices(w, "training.precision",
                  {{"bf16", message("choices.precision.bf16", "BF16 mixed (FP32 master copy)"), ""},
                   {"fp16", message("choices.precision.fp16", "FP16 mixed (FP32 master copy)"), ""},
                   {"fp32", message("choices.precision.fp32", "FP32 throughout"), ""}});
    write_choices(w, "training.optimizer",
                  {{"adamw", message("choices.optimizer.adamw", "AdamW (two states per weight)"), ""},
                   {"adam", "Adam", ""},
                   {"sgd_momentum", message("choices.optimizer.sgd_momentum", "SGD with momentum (one state)"), ""},
                   {"sgd", message("choices.optimizer.sgd", "Plain SGD (no state)"), ""},
                   {"adam_8bit", message("choices.optimizer.adam_8bit", "8-bit Adam"), ""},
                   {"adafactor", message("choices.optimizer.adafactor", "Adafactor (factored)"), ""}});
    // docs/model.md §2: how a 16-bit precision holds the weights, as frameworks run it.
    write_choices(
        w, "training.precision_recipe",
        {{"master_copy", message("choices.precision_recipe.master_copy", "FP32 master copy"),
          message("choices.precision_recipe.master_copy_hint",
                  "16-bit weights and gradients, FP32 master copy and optimizer states (Megatron, DeepSpeed)")},
         {"pure", message("choices.precision_recipe.pure", "Pure 16-bit"),
          message("choices.precision_recipe.pure_hint",
                  "weights, gradients and optimizer states all in 16 bits, no master copy (LitGPT "
                  "bf16-true, torchtune)")},
         {"autocast", message("choices.precision_recipe.autocast", "Autocast (AMP)"),
          message("choices.precision_recipe.autocast_hint",
                  "FP32 weights, gradients and states; 16-bit copies of the weights made for each operation "
                  "(PyTorch AMP)")}});
    // docs/model.md §4: whose rules decide what a layer keeps for the backward, and the loss.
    write_choices(
        w, "training.framework",
        {{"megatron", message("choices.framework.megatron", "Megatron-Core"),
          message("choices.framework.megatron_hint", "fused kernels and loss (the papers' accounting)")},
         {"hugging_face", message("choices.framework.hugging_face", "Hugging Face (PEFT, TRL)"),
          message("choices.framework.hugging_face_hint", "eager PyTorch, op by op; the default cross-entropy")},
         {"litgpt", "LitGPT", message("choices.framework.litgpt_hint", "eager PyTorch; chunked head and loss")},
         {"torchtune", "torchtune",
          message("choices.framework.torchtune_hint", "eager PyTorch; cross-entropy on FP32 logits")}});
    // docs/model.md §9: bitsandbytes' paged optimizers; torchtune's optimizer step in the backward.
    write_toggle_choices(w, "training.paged_optimizer",
                         {"", message("choices.paged_optimizer.off", "In GPU memory"), ""},
                         {"", message("choices.paged_optimizer.on", "Paged optimizer"),
                          message("choices.paged_optimizer.on_hint",
                                  "optimizer states in unified memory, moved to CPU memory under pressure "
                                  "(bitsandbytes)")});
    write_toggle_choices(w, "training.optimizer_in_backward",
                         {"", message("choices.optimizer_in_backward.off", "Step after the backward pass"), ""},
                         {"", message("choices.optimizer_in_backward.on", "Step inside the backward pass"),
                          message("choices.optimizer_in_backward.on_hint",
                                  "each gradient applied and freed as soon as it is complete (torchtune)")});
    write_format_choices(w, "inference.precision",
                         {NumberFormat::bf16, NumberFormat::fp16, NumberFormat::fp32, NumberFormat::fp8,
                          NumberFormat::int8, NumberFormat::int4});
    write_format_choices(
        w, "inference.kv_precision",
        {NumberFormat::bf16, NumberFormat::fp16, NumberFormat::fp32, NumberFormat::fp8, NumberFormat::int8});
    // Korthikanti et al. 2022: selective recomputation redoes attention's softmax and dropout; full keeps each layer's
    // input.
    write_choices(
        w, "training.recompute",
        {{"none", message("choices.recompute.none", "None"), message("choices.recompute.none_hint", "keep everything")},
         {"selective", message("choices.recompute.selective", "Selective"),
          message("choices.recompute.selective_hint", "recompute attention")},
         {"full", message("choices.recompute.full", "Full"),
          message("choices.recompute.full_hint", "keep layer inputs only")}});
    write_choices(w, "training.method",
                  {{"full", fine_tuning_method_label(FineTuningMethod::full),
                    message("choices.method.full_hint", "pre-training or full fine-tuning: every weight learns")},
                   {"lora", fine_tuning_method_label(FineTuningMethod::lora),
                    message("choices.method.lora_hint", "small adapters beside a frozen 16-bit base")},
                   {"qlora", fine_tuning_method_label(FineTuningMethod::qlora),
                    message("choices.method.qlora_hint", "adapters beside a frozen 4-bit base")}});
    // Hu et al. 2021 §4.2: the attention projections W_q, W_k, W_v, W_o; QLoRA §4 adapts the MLP's too.
    write_choices(w, "training.lora.targets",
                  {{"q", "q", message("choices.target.q_hint", "queries")},
                   {"k", "k", message("choices.target.k_hint", "keys")},
                   {"v", "v", message("choices.target.v_hint", "values")},
                   {"o", "o", message("choices.target.o_hint", "attention output")},
                   {"gate", "gate", message("choices.target.gate_hint", "MLP gate")},
                   {"up", "up", message("choices.target.up_hint", "MLP up")},
                   {"down", "down", message("choices.target.down_hint", "MLP down")}});
    write_base_storage_choices(w);
    write_offload_choices(w);
    write_zero_stages(w);
    write_interleave_choices(w);
    w.end_object();
    return w.take();
}

bool is_interleave_stop(double interleave) {
    for (const double stop : interleave_stops)
        if (stop == interleave) return true;
    return false;
}

std::string zero_stage_formula(const BytesPerParam& bytes) {
    // Stage 1 shards the optimizer states and the master copy, stage 2 the gradients too, stage 3 the weights
    // (memory.cpp).
    const double states = bytes.optimizer_states + bytes.master_weights;
    return message("choices.zero.formula",
                   "per GPU, d data-parallel GPUs: stage 0 {stage_0}; stage 1 {stage_1}; stage 2 {stage_2}; stage 3 "
                   "{stage_3} (Ψ parameters)",
                   {{"stage_0", stage_term(bytes.total(), 0)},
                    {"stage_1", stage_term(bytes.weights + bytes.gradients, states)},
                    {"stage_2", stage_term(bytes.weights, bytes.gradients + states)},
                    {"stage_3", stage_term(0, bytes.total())}});
}

std::string zero_unsharded_sentence(int zero_stage, double data_parallel) {
    // ZeRO §5: each stage partitions states over the data-parallel group, so one replica keeps them all.
    if (zero_stage <= 0 || data_parallel > 1) return "";
    return message("choices.zero.unsharded",
                   "ZeRO stage {stage} shares the model states out among the data-parallel GPUs, and this layout has "
                   "only one: it keeps them all, and nothing is sharded until there are more GPUs.",
                   {{"stage", quantity::format(zero_stage, quantity::Figure::integer, 0)}});
}

std::string stories_json() {
    json::Writer w;
    w.begin_array();
    // lands_on: the lesson part whose figure tells the story (the page's parts, docs/page.md), where
    // the page scrolls when the story is loaded.
    w.begin_object()
        .field("id", "run-vs-train-70b")
        .field("label", message("stories.70b", "70B: run vs train"))
        .field("lands_on", "run-vs-train");
    w.key("scenario").raw(R"({"model":{"preset":"llama3-70b"}})");
    w.field("source",
            message("stories.70b_source",
                    "The lesson’s opening: a 70B model runs on one or two GPUs; training needs over a terabyte."));
    w.end_object();
    // The Llama 3 Herd of Models (Meta, 2024), §3.3 and Table 4: the 405B run as it was laid out, the
    // very scenario of the sharding section's published-run button (model.cpp's first run: TP 8 ×
    // PP 16 with 8 interleaved stages, ZeRO-1, no recompute, 41% MFU), so both tell one run.
    const ModelPreset* llama = find_model_preset("llama3-405b");
    const TrainingRun* run = llama && !llama->runs.empty() ? &llama->runs.front() : nullptr;
    w.begin_object()
        .field("id", "llama3-405b")
        .field("label", message("stories.405b", "Llama 3 405B as Meta trained it"))
        .field("lands_on", "compute-time");
    w.key("scenario").raw(run ? run_scenario_json(*llama, *run) : std::string(R"({"model":{"preset":"llama3-405b"}})"));
    const double gpus = run ? run->gpus : 0;
    const double mfu = run ? (run->published_mfu_low + run->published_mfu_high) / 2 : 0;
    w.field("source",
            message("stories.405b_source",
                    "The Llama 3 Herd of Models (Meta, 2024), §3.3: {tokens} tokens, 8,192-token sequences, {gpus} "
                    "H100s as TP 8 × PP 16 (8 interleaved stages each) × DP {data_parallel}, the optimizer's states "
                    "sharded (ZeRO-1), {mfu} MFU; the lesson rounds it to 40%.",
                    {{"tokens", quantity::format(run ? run->tokens : 0, quantity::Figure::count_short, 0)},
                     {"gpus", quantity::format_count(gpus)},
                     {"data_parallel", quantity::format_count(run ? gpus / (run->tensor * run->pipeline) : 0)},
                     {"mfu", quantity::format(mfu, quantity::Figure::percent, 0)}}));
    w.end_object();
    w.end_array();
    return w.take();
}

}  // namespace trainscope
