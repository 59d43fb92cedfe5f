#include "engine/model/glossary.hpp"

#include "engine/model/finetune.hpp"
#include "engine/model/precision.hpp"
#include "engine/text/json.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {

namespace {

using Terms = std::vector<GlossaryTerm>;

// "2", "0.56": a byte count as the current language writes it.
std::string bytes_text(double bytes) { return quantity::format_significant(bytes, 3); }

// Mixed-precision Adam's bytes per parameter (ZeRO §3.1; docs/model.md §3): 16-bit weights and
// gradients, an FP32 master copy, two FP32 moments.
double weight_bytes() { return bytes_per_value(NumberFormat::bf16); }
double master_bytes() { return bytes_per_value(NumberFormat::fp32); }
double moment_bytes() { return 2 * bytes_per_value(NumberFormat::fp32); }
double training_bytes() { return 2 * weight_bytes() + master_bytes() + moment_bytes(); }

void add_model_state_terms(Terms& terms) {
    terms.push_back(
        {"gradients", "", message("glossary.gradients.name", "gradients"), "",
         message("glossary.gradients.definition",
                 "How to nudge each weight to lower the loss, found by backpropagation in the backward pass: "
                 "{bytes} bytes per parameter in 16 bits.",
                 {{"bytes", bytes_text(weight_bytes())}}),
         "Micikevicius et al. 2018, “Mixed Precision Training”, §3"});
    terms.push_back({"master_copy", "", message("glossary.master_copy.name", "master copy"),
                     message("glossary.master_copy.forms", "master weights"),
                     message("glossary.master_copy.definition",
                             "A 32-bit copy of every weight that the optimizer updates, {bytes} bytes per parameter; "
                             "the 16-bit weights are refreshed from it, so tiny updates are not rounded away.",
                             {{"bytes", bytes_text(master_bytes())}}),
                     "Micikevicius et al. 2018, “Mixed Precision Training”, §3.1"});
    terms.push_back({"optimizer_states", "", message("glossary.optimizer_states.name", "optimizer states"),
                     message("glossary.optimizer_states.forms", "optimizer state|moments"),
                     message("glossary.optimizer_states.definition",
                             "What the optimizer remembers about every weight between steps: Adam keeps two running "
                             "averages, of the gradients and of their squares, {bytes} bytes per parameter in 32 bits.",
                             {{"bytes", bytes_text(moment_bytes())}}),
                     "Kingma & Ba 2015, “Adam”; Rajbhandari et al. 2019, “ZeRO”, §3.1"});
    terms.push_back({"activations", "", message("glossary.activations.name", "activations"), "",
                     message("glossary.activations.definition",
                             "Every layer’s intermediate results from the forward pass, kept for the backward pass. "
                             "They grow with the micro-batch and the sequence length, not with the optimizer."),
                     "Korthikanti et al. 2022, “Reducing Activation Recomputation in Large Transformer Models”, §4"});
    terms.push_back({"logits", "", message("glossary.logits.name", "logits"), "",
                     message("glossary.logits.definition",
                             "The model’s raw scores for every entry of its vocabulary at every position, before they "
                             "become probabilities. With a vocabulary of over 100,000 tokens they take gigabytes."),
                     "Llama 3 (Dubey et al. 2024): a vocabulary of 128,000 tokens"});
}

void add_checkpointing_terms(Terms& terms) {
    terms.push_back({"activation_checkpointing", "",
                     message("glossary.activation_checkpointing.name", "activation checkpointing"),
                     message("glossary.activation_checkpointing.forms", "checkpointing|recomputation|recompute"),
                     message("glossary.activation_checkpointing.definition",
                             "Keeping only some activations in the forward pass and computing the rest again when the "
                             "backward pass needs them: a lot of memory saved for some extra arithmetic."),
                     "Chen et al. 2016, “Training Deep Nets with Sublinear Memory Cost”"});
    terms.push_back(
        {"selective_recompute", "", message("glossary.selective_recompute.name", "selective recomputation"),
         message("glossary.selective_recompute.forms", "selective"),
         message("glossary.selective_recompute.definition",
                 "Keep most activations but recompute attention’s largest ones, the scores that grow with the "
                 "square of the sequence: much of the saving for little extra arithmetic."),
         "Korthikanti et al. 2022, §5"});
    terms.push_back(
        {"full_recompute", "", message("glossary.full_recompute.name", "full recomputation"),
         message("glossary.full_recompute.forms", "full checkpointing|full"),
         message("glossary.full_recompute.definition",
                 "Keep only each layer’s input and run its whole forward pass again in the backward pass: the "
                 "least memory, for a third more arithmetic (2 more FLOPs per parameter per token on top of 6)."),
         "Chen et al. 2016; Korthikanti et al. 2022, §5"});
}

void add_batch_terms(Terms& terms) {
    terms.push_back(
        {"micro_batch", "", message("glossary.micro_batch.name", "micro-batch"),
         message("glossary.micro_batch.forms", "micro batch"),
         message("glossary.micro_batch.definition",
                 "The sequences one GPU runs through one forward and backward pass. The gradients of several "
                 "micro-batches can add up before one optimizer step (gradient accumulation)."),
         ""});
    terms.push_back({"global_batch", "", message("glossary.global_batch.name", "global batch"),
                     message("glossary.global_batch.forms", "global batch size"),
                     message("glossary.global_batch.definition",
                             "All the sequences behind one optimizer step: micro-batch × micro-batches per step × "
                             "data-parallel copies. A larger one means fewer, bigger steps."),
                     ""});
}

void add_sharding_terms(Terms& terms) {
    terms.push_back(
        {"zero", "ZeRO", message("glossary.zero.name", "Zero Redundancy Optimizer"), "",
         message("glossary.zero.definition",
                 "Data parallelism without the copies: each GPU keeps only its own slice of the model states and "
                 "fetches the rest when needed. Stages 1, 2 and 3 shard more and more."),
         "Rajbhandari et al. 2019, “ZeRO: Memory Optimizations Toward Training Trillion Parameter Models”, §5"});
    terms.push_back({"zero_0", "", message("glossary.zero_0.name", "ZeRO stage 0"),
                     message("glossary.zero_0.forms", "stage 0"),
                     message("glossary.zero_0.definition",
                             "No sharding: every data-parallel GPU keeps all the weights, gradients, master copy and "
                             "optimizer states, {bytes} bytes per parameter with Adam in mixed precision.",
                             {{"bytes", bytes_text(training_bytes())}}),
                     "Rajbhandari et al. 2019, §3.1"});
    terms.push_back(
        {"zero_1", "", message("glossary.zero_1.name", "ZeRO stage 1"), message("glossary.zero_1.forms", "stage 1"),
         message("glossary.zero_1.definition",
                 "The optimizer states and master copy are sharded: with d data-parallel GPUs each keeps 1/d of "
                 "them, and still all the weights and gradients."),
         "Rajbhandari et al. 2019, §5.1"});
    terms.push_back({"zero_2", "", message("glossary.zero_2.name", "ZeRO stage 2"),
                     message("glossary.zero_2.forms", "stage 2"),
                     message("glossary.zero_2.definition",
                             "The gradients are sharded too: each is reduced straight to the GPU that owns its slice. "
                             "PyTorch FSDP calls it SHARD_GRAD_OP."),
                     "Rajbhandari et al. 2019, §5.2"});
    terms.push_back(
        {"zero_3", "", message("glossary.zero_3.name", "ZeRO stage 3"), message("glossary.zero_3.forms", "stage 3"),
         message("glossary.zero_3.definition",
                 "The 16-bit weights are sharded too: each layer’s are gathered from the other GPUs just before "
                 "use and dropped after. PyTorch FSDP calls it FULL_SHARD."),
         "Rajbhandari et al. 2019, §5.3"});
    terms.push_back({"fsdp", "FSDP", message("glossary.fsdp.name", "Fully Sharded Data Parallel"), "",
                     message("glossary.fsdp.definition",
                             "PyTorch’s own ZeRO. Its sharding strategies NO_SHARD, SHARD_GRAD_OP and FULL_SHARD match "
                             "ZeRO stages 0, 2 and 3."),
                     "Zhao et al. 2023, “PyTorch FSDP”; PyTorch documentation, ShardingStrategy"});
    terms.push_back(
        {"no_shard", "NO_SHARD", message("glossary.no_shard.name", "FSDP without sharding"), "",
         message("glossary.no_shard.definition",
                 "FSDP’s name for plain data parallelism (ZeRO stage 0, PyTorch’s DDP): every GPU keeps everything."),
         "PyTorch documentation, ShardingStrategy"});
    terms.push_back(
        {"shard_grad_op", "SHARD_GRAD_OP",
         message("glossary.shard_grad_op.name", "FSDP sharding gradients and optimizer states"), "",
         message("glossary.shard_grad_op.definition",
                 "FSDP’s name for ZeRO stage 2: gradients, master copy and optimizer states sharded; every GPU "
                 "keeps all the 16-bit weights."),
         "PyTorch documentation, ShardingStrategy"});
    terms.push_back(
        {"full_shard", "FULL_SHARD", message("glossary.full_shard.name", "FSDP sharding everything"), "",
         message("glossary.full_shard.definition",
                 "FSDP’s name for ZeRO stage 3: weights, gradients, master copy and optimizer states all sharded."),
         "PyTorch documentation, ShardingStrategy"});
    terms.push_back(
        {"offload", "", message("glossary.offload.name", "offload"),
         message("glossary.offload.forms", "offloading|ZeRO-Offload"),
         message("glossary.offload.definition",
                 "Keeping part of the training state (master copy, optimizer states, gradients, even the "
                 "weights) in the CPU’s memory and moving it over PCIe when needed: GPU memory saved, time paid."),
         "Ren et al. 2021, “ZeRO-Offload”; Rajbhandari et al. 2021, “ZeRO-Infinity”"});
}

void add_parallelism_terms(Terms& terms) {
    terms.push_back(
        {"data_parallel", "DP", message("glossary.data_parallel.name", "data parallelism"),
         message("glossary.data_parallel.forms", "data parallel|data-parallel"),
         message("glossary.data_parallel.definition",
                 "Every copy of the model trains on different sequences; their gradients are averaged after "
                 "each step, so the copies stay the same."),
         ""});
    terms.push_back(
        {"tensor_parallel", "TP", message("glossary.tensor_parallel.name", "tensor parallelism"),
         message("glossary.tensor_parallel.forms", "tensor parallel|tensor-parallel"),
         message("glossary.tensor_parallel.definition",
                 "Each layer’s matrices are split across a group of GPUs that compute every product together, "
                 "trading partial results inside each layer, so it stays within one server’s fast links."),
         "Shoeybi et al. 2019, “Megatron-LM”, §3"});
    terms.push_back(
        {"pipeline_parallel", "PP", message("glossary.pipeline_parallel.name", "pipeline parallelism"),
         message("glossary.pipeline_parallel.forms", "pipeline parallel|pipeline stages|pipeline"),
         message("glossary.pipeline_parallel.definition",
                 "The layers are cut into consecutive stages, one per group of GPUs; micro-batches flow "
                 "through them like an assembly line."),
         "Huang et al. 2019, “GPipe”; Narayanan et al. 2021, “Efficient Large-Scale Language Model Training”"});
    terms.push_back({"context_parallel", "CP", message("glossary.context_parallel.name", "context parallelism"),
                     message("glossary.context_parallel.forms", "context parallel|context-parallel"),
                     message("glossary.context_parallel.definition",
                             "Each sequence’s tokens are split across GPUs, which trade keys and values for attention: "
                             "long contexts’ activations are shared out."),
                     "Dubey et al. 2024, “The Llama 3 Herd of Models”, §3.3.2"});
    terms.push_back(
        {"expert_parallel", "EP", message("glossary.expert_parallel.name", "expert parallelism"),
         message("glossary.expert_parallel.forms", "expert parallel|expert-parallel"),
         message("glossary.expert_parallel.definition",
                 "In a mixture of experts, the experts are spread over GPUs and each token is sent to the GPUs "
                 "that hold the experts it is routed to."),
         "Lepikhin et al. 2020, “GShard”; DeepSeek-AI 2024, “DeepSeek-V3”, §3.2"});
    terms.push_back({"sequence_parallel", "SP", message("glossary.sequence_parallel.name", "sequence parallelism"),
                     message("glossary.sequence_parallel.forms", "sequence parallel|sequence-parallel"),
                     message("glossary.sequence_parallel.definition",
                             "Inside a tensor-parallel group, the activations tensor parallelism leaves whole (norms, "
                             "dropout) are split along the sequence, so each GPU keeps only its share."),
                     "Korthikanti et al. 2022, §4.2.2"});
}

void add_pipeline_terms(Terms& terms) {
    terms.push_back(
        {"one_f_one_b", "1F1B", message("glossary.one_f_one_b.name", "one forward, one backward"), "",
         message("glossary.one_f_one_b.definition",
                 "A pipeline schedule: after a warm-up each stage alternates one micro-batch’s forward pass "
                 "with another’s backward pass, so it holds at most as many micro-batches as there are stages."),
         "Narayanan et al. 2021, §2.2"});
    terms.push_back(
        {"interleaved_stages", "", message("glossary.interleaved_stages.name", "interleaved stages"),
         message("glossary.interleaved_stages.forms", "interleaving|interleaved"),
         message("glossary.interleaved_stages.definition",
                 "Each GPU runs several smaller, separate stages of the pipeline instead of one: the bubble "
                 "shrinks, at the price of more messages and more activations held on the first stage."),
         "Narayanan et al. 2021, §2.2.1"});
    terms.push_back(
        {"pipeline_bubble", "", message("glossary.pipeline_bubble.name", "pipeline bubble"),
         message("glossary.pipeline_bubble.forms", "bubble"),
         message("glossary.pipeline_bubble.definition",
                 "The time at the start and end of each step when pipeline stages wait for work: (stages − 1) "
                 "of the micro-batches’ time, so more micro-batches make it smaller."),
         "Huang et al. 2019, “GPipe”, §2.3; Narayanan et al. 2021, §2.2"});
}

void add_time_terms(Terms& terms) {
    terms.push_back(
        {"flops", "FLOPs", message("glossary.flops.name", "floating-point operations"), "",
         message("glossary.flops.definition",
                 "Multiplications and additions of numbers with a decimal point; training costs about 6 per "
                 "parameter per token, and a GPU’s speed is counted in FLOP/s."),
         "Kaplan et al. 2020, “Scaling Laws for Neural Language Models”, §2.1"});
    terms.push_back({"utilisation", "", message("glossary.utilisation.name", "utilisation"),
                     message("glossary.utilisation.forms", "utilization"),
                     message("glossary.utilisation.definition",
                             "The share of a GPU’s peak FLOP/s a training run sustains on average: GPUs wait for data "
                             "and for each other, so large runs reach about 40%."),
                     "Dubey et al. 2024, “The Llama 3 Herd of Models”, Table 4: 38–43%"});
    terms.push_back(
        {"mfu", "MFU", message("glossary.mfu.name", "model FLOPs utilisation"),
         message("glossary.mfu.forms", "model FLOPs utilization"),
         message("glossary.mfu.definition",
                 "The model’s own FLOPs per second (6 per parameter per token, recomputation not counted) as a "
                 "share of the GPUs’ peak."),
         "Chowdhery et al. 2022, “PaLM”, Appendix B"});
    terms.push_back({"gpu_hours", "", message("glossary.gpu_hours.name", "GPU-hours"),
                     message("glossary.gpu_hours.forms", "GPU-hour"),
                     message("glossary.gpu_hours.definition",
                             "GPUs × hours of training: 1,000 GPUs for a day are 24,000 GPU-hours. Clouds rent GPUs by "
                             "the hour, so it sets the cost."),
                     ""});
    terms.push_back({"kv_cache", "", message("glossary.kv_cache.name", "KV cache"),
                     message("glossary.kv_cache.forms", "key-value cache"),
                     message("glossary.kv_cache.definition",
                             "When running a model, the keys and values of every earlier token, kept for each layer so "
                             "that each new token need not compute them again; it grows with the context."),
                     ""});
}

void add_fine_tuning_terms(Terms& terms) {
    terms.push_back(
        {"lora", "LoRA", message("glossary.lora.name", "low-rank adaptation"), "",
         message("glossary.lora.definition",
                 "Fine-tuning that freezes the model and trains small adapters, two thin matrices of rank r "
                 "beside some of its matrices: no gradients or optimizer states for the base."),
         "Hu et al. 2021, “LoRA: Low-Rank Adaptation of Large Language Models”, §4"});
    terms.push_back(
        {"qlora", "QLoRA", message("glossary.qlora.name", "quantised low-rank adaptation"), "",
         message("glossary.qlora.definition",
                 "LoRA with the frozen base stored in 4-bit NF4, about {bytes} bytes per weight instead of {bf16}.",
                 {{"bytes", bytes_text(base_storage_bytes_per_param(BaseStorage::nf4))},
                  {"bf16", bytes_text(base_storage_bytes_per_param(BaseStorage::bf16))}}),
         "Dettmers et al. 2023, “QLoRA”, §3"});
    terms.push_back(
        {"nf4", "NF4", message("glossary.nf4.name", "4-bit NormalFloat"), "",
         message("glossary.nf4.definition",
                 "A 4-bit number format whose 16 values are spaced for weights that follow a bell curve; with "
                 "one scale per block of 64 weights, {bits} bits per weight.",
                 {{"bits", bytes_text(8 * base_storage_bytes_per_param(BaseStorage::nf4))}}),
         "Dettmers et al. 2023, “QLoRA”, §3"});
}

}  // namespace

std::vector<GlossaryTerm> glossary() {
    Terms terms;
    add_model_state_terms(terms);
    add_sharding_terms(terms);
    add_checkpointing_terms(terms);
    add_batch_terms(terms);
    add_parallelism_terms(terms);
    add_pipeline_terms(terms);
    add_time_terms(terms);
    add_fine_tuning_terms(terms);
    return terms;
}

std::string glossary_json() {
    json::Writer w;
    w.begin_object().key("terms").begin_array();
    for (const GlossaryTerm& term : glossary()) {
        w.begin_object().field("id", term.id).field("abbreviation", term.abbreviation).field("name", term.name);
        w.key("forms").begin_array();
        std::string_view rest = term.forms;
        while (!rest.empty()) {
            const std::size_t bar = rest.find('|');
            const std::string_view form = rest.substr(0, bar);
            if (!form.empty()) w.string(form);
            rest = bar == std::string_view::npos ? std::string_view() : rest.substr(bar + 1);
        }
        w.end_array();
        w.field("definition", term.definition).field("source", term.source).end_object();
    }
    w.end_array().end_object();
    return w.take();
}

}  // namespace trainscope
