// Fine-tuning with LoRA and QLoRA (docs/model.md §15): the published figures of the LoRA and
// QLoRA papers, and what freezing the base does to the model states.
#include "catch_include.hpp"

#include <string>

#include "engine/model/estimate.hpp"
#include "engine/model/finetune.hpp"
#include "estimate_support.hpp"

using namespace trainscope;
using trainscope::testing::estimate_of;
using trainscope::testing::has_error_for;
using trainscope::testing::number_at;
namespace json = trainscope::json;

namespace {

std::string gpt3_lora(const char* rank, const char* targets) {
    return std::string(R"({"model":{"preset":"gpt3-175b"},"training":{"method":"lora","lora":{"rank":)") + rank +
           R"(,"targets":)" + targets + "}}}";
}

// LLaMA 65B (Touvron et al. 2023, Table 2: 80 layers, 8192 wide, 64 heads; its released config:
// MLP 22016, vocabulary 32000), the model QLoRA fine-tunes on one 48 GB GPU.
std::string llama65b(const char* training) {
    return std::string(R"({"model":{"architecture":{"layers":80,"hidden":8192,"heads":64,"kv_heads":64,"mlp":22016,)"
                       R"("vocab":32000}},"training":)") +
           training + R"(,"parallel":{"gpus":1},"hardware":{"gpu":"h100-sxm","memory_bytes":48e9}})";
}

constexpr const char* all_linear = R"(["q","k","v","o","gate","up","down"])";

}  // namespace

TEST_CASE("LoRA on GPT-3 175B trains 18M parameters with q and v at rank 4, q at rank 8 or all four at rank 2",
          "[finetune][published]") {
    // Hu et al. 2021, Table 5: each choice is "# of Trainable Parameters = 18M"; 96 layers ×
    // r × (12,288 + 12,288) per matrix gives 18.9M, which the paper rounds down (5% tolerance).
    for (const auto& [rank, targets] :
         {std::pair<const char*, const char*>{"4", R"(["q","v"])"}, {"8", R"(["q"])"}, {"2", R"(["q","k","v","o"])"}}) {
        const auto estimate = estimate_of(gpt3_lora(rank, targets));
        CHECK(number_at(estimate, "training.fine_tuning.trainable_params") == Approx(18e6).epsilon(0.05));
    }
}

TEST_CASE("LoRA on GPT-3 175B at rank 8 on q and v trains 37.7M parameters", "[finetune][published]") {
    // Hu et al. 2021, Table 4: "LoRA 37.7M" trainable parameters on GPT-3 175B.
    const auto estimate = estimate_of(gpt3_lora("8", R"(["q","v"])"));
    CHECK(number_at(estimate, "training.fine_tuning.trainable_params") == Approx(37.7e6).epsilon(0.005));
}

TEST_CASE("a LoRA checkpoint of GPT-3 175B is about 35 MB instead of 350 GB", "[finetune][published]") {
    // Hu et al. 2021 §4.2: r = 4 on Wq and Wv, "from 350GB to 35MB". Convention: 16-bit values,
    // decimal bytes; 18.9M adapters × 2 bytes = 37.7 MB, which the paper rounds (10% tolerance).
    const auto lora = estimate_of(gpt3_lora("4", R"(["q","v"])"));
    CHECK(number_at(lora, "training.fine_tuning.checkpoint_bytes") == Approx(35e6).epsilon(0.1));
    const auto full = estimate_of(R"({"model":{"preset":"gpt3-175b"}})");
    CHECK(number_at(full, "training.fine_tuning.checkpoint_bytes") == Approx(350e9).epsilon(0.01));
}

TEST_CASE("LoRA on GPT-3 175B holds about 350 GB of model states, the 16-bit base", "[finetune][published]") {
    // Hu et al. 2021 §4.2: training VRAM "from 1.2TB to 350GB". The 350 GB is the frozen 16-bit
    // base plus the adapters' 16 bytes each (ZeRO §3.1); the paper does not say how it counted 1.2 TB.
    const auto lora = estimate_of(gpt3_lora("4", R"(["q","v"])"));
    CHECK(number_at(lora, "training.model_states.total") == Approx(350e9).epsilon(0.02));
    CHECK(number_at(lora, "training.model_states.gradients") == Approx(18.87e6 * 2).epsilon(0.01));
}

TEST_CASE("NF4 with double quantisation stores a base weight in 4.127 bits", "[finetune][published]") {
    // Dettmers et al. 2023 (QLoRA) §3: blocks of 64, second-level blocks of 256: 4 + 8/64 + 32/(64·256).
    const auto estimate = estimate_of(R"({"model":{"preset":"llama2-7b"},"training":{"method":"qlora"}})");
    CHECK(number_at(estimate, "training.fine_tuning.base_bits_per_param") == Approx(4.127).margin(0.0005));
    const auto single =
        estimate_of(R"({"model":{"preset":"llama2-7b"},"training":{"method":"qlora","lora":{"base":"nf4"}}})");
    CHECK(number_at(single, "training.fine_tuning.base_bits_per_param") ==
          Approx(4.5));  // QLoRA §3: 32/64 = 0.5 bits of constants
}

TEST_CASE("QLoRA fine-tunes a 65B model on one 48 GB GPU; 16-bit LoRA does not fit", "[finetune][published]") {
    // Dettmers et al. 2023, abstract: 65B on a single 48 GB GPU, with gradient checkpointing and one
    // sequence of 512 tokens (Figure 6's setting). Convention: the engine gives the adapters the
    // whole mixed-precision AdamW tally, 16 bytes with an FP32 master copy; QLoRA keeps them in BF16
    // without one, so it holds the master copy's bytes less.
    const std::string sixty_four = std::string(R"({"rank":64,"targets":)") + all_linear + "}";
    const std::string qlora =
        R"({"method":"qlora","micro_batch":1,"sequence":512,"recompute":"full","lora":)" + sixty_four + "}";
    const auto r64 = estimate_of(llama65b(qlora.c_str()));
    // r = 64 on every linear layer (QLoRA §4): Figure 6's "do not quite fit" without paged optimizers.
    CHECK(number_at(r64, "training.per_gpu.total") == Approx(48e9).epsilon(0.01));
    CHECK(number_at(r64, "training.per_gpu.total") - number_at(r64, "training.per_gpu.master_weights") < 48e9);
    // Adapters of 0.2% of the weights, QLoRA §2's "commonly used" size: r = 10 on every linear layer.
    const std::string ten = std::string(R"({"rank":10,"targets":)") + all_linear + "}";
    const std::string small =
        R"({"method":"qlora","micro_batch":1,"sequence":512,"recompute":"full","lora":)" + ten + "}";
    const auto r10 = estimate_of(llama65b(small.c_str()));
    CHECK(number_at(r10, "training.fine_tuning.adapter_params") / number_at(r10, "params") ==
          Approx(0.002).epsilon(0.05));
    CHECK(r10.find_path("training.fits")->boolean);
    const std::string sixteen =
        R"({"method":"lora","micro_batch":1,"sequence":512,"recompute":"full","lora":)" + ten + "}";
    CHECK_FALSE(estimate_of(llama65b(sixteen.c_str())).find_path("training.fits")->boolean);
}

TEST_CASE("full fine-tuning of a 65B model needs more than 780 GB", "[finetune][published]") {
    // Dettmers et al. 2023, abstract: from "more than 780GB of GPU memory" to under 48 GB.
    const auto full = estimate_of(llama65b(R"({"micro_batch":1,"sequence":512,"recompute":"full"})"));
    CHECK(number_at(full, "training.model_states.total") > 780e9);
}

TEST_CASE("frozen weights keep no gradients, master copy or optimizer states: only the adapters do", "[finetune]") {
    // docs/model.md §15: the adapters' tally is the optimizer's own (16 bytes for mixed AdamW).
    const auto lora = estimate_of(gpt3_lora("4", R"(["q","v"])"));
    const double adapters = number_at(lora, "training.fine_tuning.adapter_params");
    CHECK(number_at(lora, "training.model_states.optimizer_states") == Approx(adapters * 8));
    CHECK(number_at(lora, "training.model_states.master_weights") == Approx(adapters * 4));
    CHECK(number_at(lora, "training.fine_tuning.trainable_bytes_per_param") == 16);
    CHECK(number_at(lora, "training.fine_tuning.frozen_params") == number_at(lora, "params"));
}

TEST_CASE("QLoRA quantises only the linear layers: embeddings and norms stay 16-bit", "[finetune]") {
    // Dettmers et al. 2023 §3: NF4 for the linear layers' weights.
    const auto q = estimate_of(R"({"model":{"preset":"llama2-7b"},"training":{"method":"qlora"}})");
    const double params = number_at(q, "params"), quantized = number_at(q, "training.fine_tuning.quantized_params");
    const double embeddings = 2 * 32000.0 * 4096, norms = (2 * 32 + 1) * 4096.0;  // Llama 2 7B: untied, RMSNorm
    CHECK(params - quantized == Approx(embeddings + norms));
    CHECK(number_at(q, "training.fine_tuning.base_weights") ==
          Approx(quantized * 4.127 / 8 + (embeddings + norms) * 2).epsilon(1e-4));
}

TEST_CASE("LoRA skips the frozen weights' gradient arithmetic: 4 FLOPs per parameter and token, not 6", "[finetune]") {
    // docs/model.md §15 (Hu et al. 2021 §4.2: no gradients for most parameters, faster training).
    const auto full = estimate_of(R"({"model":{"preset":"llama2-7b"},"training":{"tokens":1e9}})");
    const auto lora = estimate_of(R"({"model":{"preset":"llama2-7b"},"training":{"method":"lora","tokens":1e9}})");
    const double ratio = number_at(lora, "compute.flops") / number_at(full, "compute.flops");
    CHECK(ratio == Approx(4.0 / 6.0).epsilon(0.01));
}

TEST_CASE("full fine-tuning is the default and writes no lora object", "[finetune]") {
    const auto estimate = estimate_of(R"({"model":{"preset":"llama3-8b"}})");
    CHECK(estimate.find_path("scenario.training.method")->text == "full");
    CHECK(estimate.find_path("scenario.training.lora") == nullptr);
    CHECK(number_at(estimate, "training.fine_tuning.trainable_params") == number_at(estimate, "params"));
    CHECK(number_at(estimate, "training.bytes_per_param.total") == 16);
}

TEST_CASE("a LoRA setting outside the schema is refused naming its field", "[finetune][errors]") {
    CHECK(has_error_for(estimate_of(R"({"training":{"method":"lora","lora":{"targets":["q","x"]}}})"),
                        "training.lora.targets"));
    CHECK(
        has_error_for(estimate_of(R"({"training":{"method":"lora","lora":{"targets":[]}}})"), "training.lora.targets"));
    CHECK(has_error_for(estimate_of(R"({"training":{"method":"lora","lora":{"rank":0}}})"), "training.lora.rank"));
    CHECK(
        has_error_for(estimate_of(R"({"training":{"method":"qlora","lora":{"base":"bf16"}}})"), "training.lora.base"));
    CHECK(has_error_for(estimate_of(R"({"training":{"method":"dora"}})"), "training.method"));
}

TEST_CASE("a LoRA scenario reads back as it was written", "[finetune][scenario]") {
    const auto first = estimate_of(R"({"training":{"method":"qlora","lora":{"rank":64,"targets":["down","q"]}}})");
    const json::Value* written = first.find_path("scenario.training.lora");
    REQUIRE(written != nullptr);
    CHECK(written->find("targets")->items.size() == 2);
    CHECK(written->find("base")->text == "nf4_double_quant");
    CHECK(number_at(first, "scenario.training.lora.rank") == 64);
}

TEST_CASE("LoRA and QLoRA train on QLoRA's Guanaco run, 15.84 million tokens, when the learner sets none",
          "[finetune][tokens]") {
    // artidoro/qlora scripts/finetune_guanaco_65b.sh: 1,875 steps × (4 × 4) sequences × (16 + 512)
    // tokens at most, every sequence counted at its limit.
    for (const char* method : {"lora", "qlora"}) {
        const auto estimate =
            estimate_of(std::string(R"({"model":{"preset":"llama3-8b"},"training":{"method":")") + method + R"("}})");
        CHECK(number_at(estimate, "scenario.training.tokens") == 1875.0 * 16 * 528);
        CHECK(estimate.find_path("compute.tokens_origin")->text.find("Guanaco") != std::string::npos);
    }
}

TEST_CASE("full training keeps the preset's pre-training tokens", "[finetune][tokens]") {
    // Meta 2024 (Llama 3): "over 15T tokens", the preset's training_tokens.
    const auto estimate = estimate_of(R"({"model":{"preset":"llama3-8b"}})");
    CHECK(number_at(estimate, "scenario.training.tokens") == 15e12);
    CHECK(estimate.find_path("compute.tokens_origin")->text.find("pre-training run") != std::string::npos);
}

TEST_CASE("the pre-training run's tokens name LoRA and QLoRA only where the reader can choose a method",
          "[finetune][tokens]") {
    // The lesson's time part shows tokens and GPUs, no method: its sentence names none (issue 31).
    const ScenarioReading reading = read_scenario_text(R"({"model":{"preset":"llama3-8b"}})");
    REQUIRE(reading.ok());
    const std::string lesson =
        estimate(reading.scenario, StepDetail::peak, EstimateParts{}, "training.tokens parallel.gpus").tokens_origin;
    const std::string everything = estimate(reading.scenario).tokens_origin;
    INFO(lesson);
    CHECK(lesson.find("pre-training run") != std::string::npos);
    CHECK(lesson.find("LoRA") == std::string::npos);
    CHECK(everything.rfind(lesson, 0) == 0);
    CHECK(everything.find("LoRA and QLoRA count a fine-tuning run's tokens instead.") != std::string::npos);
    const std::string with_method =
        estimate(reading.scenario, StepDetail::peak, EstimateParts{}, "training.tokens training.method").tokens_origin;
    CHECK(with_method == everything);
}

TEST_CASE("the tokens a learner sets are kept with LoRA and said to be theirs", "[finetune][tokens]") {
    const auto estimate = estimate_of(R"({"model":{"preset":"llama3-8b"},"training":{"method":"qlora","tokens":2e8}})");
    CHECK(number_at(estimate, "scenario.training.tokens") == 2e8);
    CHECK(estimate.find_path("compute.tokens_origin")->text.find("as you set them") != std::string::npos);
}

TEST_CASE("QLoRA fine-tunes Guanaco 65B on OASST1 in about 24 hours on one 48 GB GPU", "[finetune][published]") {
    // Dettmers et al. 2023, abstract: "24 hours of finetuning on a single GPU", 65B on one 48 GB GPU.
    // Convention: the run of scripts/finetune_guanaco_65b.sh (r = 64 on every linear layer, NF4 with
    // double quantisation, gradient checkpointing: one extra forward pass) on its default tokens, every
    // sequence counted at its 528-token limit (an upper bound: batches are padded only to their
    // longest); the 48 GB GPU taken as an RTX A6000 (NVIDIA RTX A6000 datasheet: 154.8 TFLOP/s dense
    // BF16), which the paper does not name; the lesson's 40% of peak. 28.3 hours: within 20%.
    const std::string training = std::string(R"({"method":"qlora","micro_batch":4,"sequence":528,"global_batch":16,)") +
                                 R"("recompute":"full","lora":{"rank":64,"targets":)" + all_linear + "}}";
    std::string scenario = llama65b(training.c_str());
    scenario.replace(scenario.find(R"("gpu":"h100-sxm")"), 16, R"("gpu":"custom","peak_flops":154.8e12)");
    const auto estimate = estimate_of(scenario);
    CHECK(number_at(estimate, "scenario.training.tokens") == 1875.0 * 16 * 528);
    CHECK(number_at(estimate, "compute.seconds") == Approx(24 * 3600.0).epsilon(0.2));
}

TEST_CASE("switching between full training and LoRA changes the goal, so the tokens become the method's default",
          "[finetune][tokens]") {
    // finetune.hpp: the page's method control drops the tokens when the goal changes (docs/scenario.md).
    const ScenarioReading full = read_scenario_text(R"({"model":{"preset":"llama3-8b"},"training":{"tokens":3e12}})");
    REQUIRE(full.ok());
    const Scenario lora = with_fine_tuning_method(full.scenario, FineTuningMethod::lora);
    CHECK(lora.training.tokens == default_fine_tuning_run().tokens());
    CHECK(lora.training.base_storage == BaseStorage::bf16);
    const Scenario back = with_fine_tuning_method(lora, FineTuningMethod::full);
    CHECK(back.training.tokens == 15e12);  // the preset's pre-training run (Meta 2024)
    CHECK(back.training.tokens_origin == TokensOrigin::preset_run);
}

TEST_CASE("switching between LoRA and QLoRA keeps the fine-tuning tokens the learner set", "[finetune][tokens]") {
    const ScenarioReading lora =
        read_scenario_text(R"({"model":{"preset":"llama3-8b"},"training":{"method":"lora","tokens":2e8}})");
    REQUIRE(lora.ok());
    const Scenario qlora = with_fine_tuning_method(lora.scenario, FineTuningMethod::qlora);
    CHECK(qlora.training.tokens == 2e8);
    CHECK(qlora.training.base_storage == BaseStorage::nf4_double_quant);
}

TEST_CASE("a quantized base holds one dequantized 16-bit matrix in flight", "[finetune][qlora]") {
    // docs/model.md §15: bitsandbytes dequantizes each linear's weight for its matmul; Llama 2 7B's
    // largest linear is an MLP matrix, 4,096 × 11,008.
    const auto nf4 =
        trainscope::testing::estimate_of(R"({"model":{"preset":"llama2-7b"},"training":{"method":"qlora"}})");
    const double quantized = trainscope::testing::number_at(nf4, "training.fine_tuning.quantized_params");
    const double params = trainscope::testing::number_at(nf4, "params");
    const double per_value = trainscope::testing::number_at(nf4, "training.fine_tuning.base_bytes_per_param");
    const double stored = quantized * per_value + (params - quantized) * 2;
    CHECK(trainscope::testing::number_at(nf4, "training.fine_tuning.base_weights") == Approx(stored));
    CHECK(trainscope::testing::number_at(nf4, "training.model_states.weights") >= stored + 2.0 * 4096 * 11008);
}
