// The accounting conventions for the model states (docs/model.md §2): the ZeRO paper's 16 bytes
// per parameter for mixed-precision Adam, or 18 with FP32 gradients as Hugging Face's memory guide
// and DeepSpeed's ZeRO-3 estimator count them.
#include <string>

#include "estimate_support.hpp"

using trainscope::testing::estimate_of;
using trainscope::testing::has_error_for;
using trainscope::testing::number_at;
using namespace trainscope;

namespace {

std::string text_at(const json::Value& value, std::string_view path) {
    const json::Value* found = value.find_path(path);
    REQUIRE(found != nullptr);
    return found->text;
}

std::string with(const std::string& training) {
    return R"({"model":{"preset":"llama3-8b"},"training":{)" + training + R"(},"parallel":{"gpus":8,"zero_stage":3}})";
}

}  // namespace

TEST_CASE("the ZeRO paper's 16 is the default; FP32 gradients make mixed-precision AdamW 18", "[accounting]") {
    const json::Value zero = estimate_of(with(""));
    CHECK(text_at(zero, "scenario.training.accounting") == "zero");
    CHECK(number_at(zero, "training.bytes_per_param.total") == 16);
    CHECK(text_at(zero, "training.bytes_per_param_sum") == "2 + 2 + 4 + 4 + 4 = 16");

    const json::Value hf = estimate_of(with(R"("accounting":"fp32_gradients")"));
    CHECK(number_at(hf, "training.bytes_per_param.gradients") == 4);
    CHECK(number_at(hf, "training.bytes_per_param.total") == 18);
    CHECK(text_at(hf, "training.bytes_per_param_sum") == "2 + 4 + 4 + 4 + 4 = 18");
    CHECK(hf.find_path("training.bytes_per_param_parts")->items[1].find("format")->text == "fp32");
    // DeepSpeed's estimate_zero3_model_states_mem_needs: 18 × params / GPUs of model states per GPU.
    CHECK(number_at(hf, "training.per_gpu.model_states") == Approx(18 * number_at(hf, "params") / 8).epsilon(1e-12));
    CHECK(number_at(zero, "training.per_gpu.model_states") ==
          Approx(16 * number_at(zero, "params") / 8).epsilon(1e-12));
}

TEST_CASE("FP32 gradients change nothing in FP32 training and add 2 bytes to any mixed-precision optimizer",
          "[accounting]") {
    CHECK(number_at(estimate_of(with(R"("precision":"fp32","accounting":"fp32_gradients")")),
                    "training.bytes_per_param.total") == 16);
    CHECK(number_at(estimate_of(with(R"("optimizer":"sgd_momentum")")), "training.bytes_per_param.total") == 12);
    CHECK(number_at(estimate_of(with(R"("optimizer":"sgd_momentum","accounting":"fp32_gradients")")),
                    "training.bytes_per_param.total") == 14);
}

TEST_CASE("the estimate explains each convention with its sum for the optimizer and precision on screen",
          "[accounting]") {
    const json::Value estimate = estimate_of(with(R"("accounting":"fp32_gradients")"));
    CHECK(text_at(estimate, "training.accounting.id") == "fp32_gradients");
    CHECK(text_at(estimate, "training.accounting.label") == "FP32 gradients");
    CHECK(text_at(estimate, "training.accounting.explanation").find("2 + 4 + 4 + 4 + 4 = 18") != std::string::npos);
    const auto& choices = estimate.find_path("training.accounting_choices")->items;
    REQUIRE(choices.size() == 2);
    CHECK(choices[0].find("id")->text == "zero");
    CHECK(choices[0].find("bytes_per_param")->number == 16);
    CHECK(choices[0].find("explanation")->text.find("2 + 2 + 4 + 4 + 4 = 16") != std::string::npos);
    CHECK(choices[1].find("id")->text == "fp32_gradients");
    CHECK(choices[1].find("bytes_per_param")->number == 18);
    // With SGD and momentum the sentences quote that optimizer's sums, never Adam's.
    const json::Value sgd = estimate_of(with(R"("optimizer":"sgd_momentum")"));
    CHECK(sgd.find_path("training.accounting_choices")->items[1].find("explanation")->text.find("= 14") !=
          std::string::npos);
}

TEST_CASE("an unknown convention is an error naming the field", "[accounting]") {
    const json::Value estimate = estimate_of(with(R"("accounting":"huggingface")"));
    CHECK(has_error_for(estimate, "training.accounting"));
    CHECK(estimate.find("training") == nullptr);
}
