// Precisions and optimizers as frameworks run them (docs/model.md §2, §9; issue 32): pure 16-bit,
// autocast, paged optimizer states and the optimizer step inside the backward pass.
#include <string>

#include "catch_include.hpp"
#include "estimate_support.hpp"

using trainscope::testing::estimate_of;
using trainscope::testing::number_at;

namespace {

std::string llama_8b(const std::string& training) {
    return R"({"model":{"preset":"llama3-8b"},"training":{)" + training + "}}";
}

}  // namespace

TEST_CASE("mixed precision with an FP32 master copy stays the lesson's 16 bytes per parameter", "[precision]") {
    // ZeRO §3.1: 2 + 2 + 4 + 4 + 4.
    const auto estimate = estimate_of(llama_8b(R"("precision":"bf16")"));
    CHECK(number_at(estimate, "training.bytes_per_param.total") == 16);
    CHECK(estimate.find_path("training.bytes_per_param_sum")->text == "2 + 2 + 4 + 4 + 4 = 16");
}

TEST_CASE("pure BF16 keeps weights, gradients and Adam's moments in 16 bits: 8 bytes per parameter", "[precision]") {
    // LitGPT bf16-true, torchtune: PyTorch's AdamW creates its states like the parameter (bf16).
    const auto estimate = estimate_of(llama_8b(R"("precision":"bf16","precision_recipe":"pure")"));
    CHECK(number_at(estimate, "training.bytes_per_param.master_weights") == 0);
    CHECK(estimate.find_path("training.bytes_per_param_sum")->text == "2 + 2 + 2 + 2 = 8");
    const auto parts = estimate.find_path("training.bytes_per_param_parts");
    REQUIRE(parts != nullptr);
    CHECK(parts->items.back().find("format")->text == "bf16");
}

TEST_CASE("autocast keeps FP32 weights, gradients and states, and 16-bit copies for compute: 18 bytes", "[precision]") {
    // PyTorch AMP: 2 (16-bit copies kept for the backward) + 4 + 4 (FP32 parameters) + 8, the count
    // of Hugging Face's memory guide.
    const auto estimate = estimate_of(llama_8b(R"("precision":"bf16","precision_recipe":"autocast")"));
    CHECK(estimate.find_path("training.bytes_per_param_sum")->text == "2 + 4 + 4 + 4 + 4 = 18");
    CHECK(estimate.find_path("scenario.training.precision_recipe")->text == "autocast");
}

TEST_CASE("autocast LoRA holds the frozen base in FP32 with each linear layer's 16-bit copy", "[precision][lora]") {
    // LitGPT's bf16-mixed loads the model in FP32; autograd keeps each linear's bf16 weight for the
    // input's gradient: 6 bytes per linear weight, against 2 for a 16-bit base.
    const auto lora = estimate_of(llama_8b(R"("method":"lora","precision_recipe":"pure")"));
    const auto autocast = estimate_of(llama_8b(R"("method":"lora","precision_recipe":"autocast")"));
    CHECK(number_at(autocast, "training.fine_tuning.base_bytes_per_param") == 6);
    CHECK(number_at(autocast, "training.fine_tuning.base_weights") >
          2.5 * number_at(lora, "training.fine_tuning.base_weights"));
}

TEST_CASE("a paged optimizer's states leave PyTorch's allocator", "[precision][optimizer]") {
    // bitsandbytes' paged optimizers allocate their states in CUDA unified memory.
    const auto paged = estimate_of(llama_8b(R"("paged_optimizer":true)"));
    const auto plain = estimate_of(llama_8b(""));
    CHECK(number_at(plain, "training.per_gpu.optimizer_states") > 0);
    CHECK(number_at(paged, "training.per_gpu.optimizer_states") == 0);
    CHECK(number_at(paged, "training.per_gpu.total") ==
          Approx(number_at(plain, "training.per_gpu.total") - number_at(plain, "training.per_gpu.optimizer_states")));
}

TEST_CASE("the optimizer step inside the backward holds one matrix's gradient", "[precision][optimizer]") {
    // torchtune's optimizer_in_bwd: Llama 3 8B's largest matrix is its 128,256 × 4,096 embedding,
    // 2 bytes per gradient value.
    const auto estimate = estimate_of(llama_8b(R"("optimizer_in_backward":true)"));
    CHECK(number_at(estimate, "training.per_gpu.gradients") == 128256.0 * 4096 * 2);
}

TEST_CASE("Megatron-Core's accounting stays the default: Korthikanti's 34·sbh for a GPT block", "[framework]") {
    // Korthikanti et al. 2022 Table 2, no parallelism, FlashAttention: s·b·h·34 per layer.
    const auto estimate = estimate_of(R"({"model":{"preset":"gpt3-175b"},"training":{"sequence":2048}})");
    CHECK(number_at(estimate, "training.activations_per_layer") == Approx(34.0 * 2048 * 12288));
}

TEST_CASE("LitGPT's LoRA on Llama 2 7B keeps about 45·h bytes per token and layer, as measured", "[framework]") {
    // LitGPT's resource tables (A100 40GB, 1,304 tokens): one more sequence costs 29.07 − 21.30 =
    // 7.77 GB, ≈ 45·h per token and layer. Eager rules: two RMSNorms' FP32 inputs (8h), the LoRA
    // dropout's output and mask (3h), SDPA's q, k, v and output (8h) with the fused qkv output kept
    // whole by the v view (4h), SwiGLU's three f-wide tensors (6f ≈ 16.1h): ≈ 39h; Megatron's ≈ 32h.
    const std::string lora = R"("method":"lora","precision_recipe":"pure","sequence":1304)";
    const auto litgpt =
        estimate_of(R"({"model":{"preset":"llama2-7b"},"training":{)" + lora + R"(,"framework":"litgpt"}})");
    const auto megatron = estimate_of(R"({"model":{"preset":"llama2-7b"},"training":{)" + lora + "}}");
    const double per_token_h = 1304.0 * 4096;
    CHECK(number_at(litgpt, "training.activations_per_layer") / per_token_h == Approx(39.1).epsilon(0.01));
    CHECK(number_at(megatron, "training.activations_per_layer") / per_token_h == Approx(32.1).epsilon(0.01));
}

TEST_CASE("a QLoRA layer keeps every 4-bit linear's input, which a frozen 16-bit linear does not", "[framework]") {
    // bitsandbytes' MatMul4Bit saves (A, B) whenever an input needs a gradient: under Hugging Face's
    // rules the MLP norm's output (2h), the output projection's input (2h) and the down projection's
    // input (2f) join the layer's activations (LoRA's A on q and v already keeps the attention norm's).
    const std::string base =
        R"({"model":{"preset":"llama2-7b"},"training":{"framework":"hugging_face","sequence":1000,)";
    const auto lora = estimate_of(base + R"("method":"lora"}})");
    const auto qlora = estimate_of(base + R"("method":"qlora"}})");
    const double added =
        number_at(qlora, "training.activations_per_layer") - number_at(lora, "training.activations_per_layer");
    CHECK(added == Approx(1000.0 * (2 * 4096 + 2 * 4096 + 2 * 11008)));
}

TEST_CASE("Hugging Face's default loss keeps 10 bytes per token and vocabulary entry, Megatron's fused one 4",
          "[framework]") {
    // SGD: with PyTorch's AdamW the step's temporary moment (docs/model.md §9) would make the
    // optimizer step this single-GPU run's peak, where no logits are held.
    const auto hugging_face = estimate_of(
        R"({"model":{"preset":"llama3-8b"},"training":{"framework":"hugging_face","sequence":1000,"optimizer":"sgd"}})");
    CHECK(number_at(hugging_face, "training.per_gpu.logits") == 10.0 * 1000 * 128256);
    const auto megatron = estimate_of(R"({"model":{"preset":"llama3-8b"},"training":{"sequence":1000}})");
    CHECK(number_at(megatron, "training.per_gpu.logits") == 4.0 * 1000 * 128256);
}
