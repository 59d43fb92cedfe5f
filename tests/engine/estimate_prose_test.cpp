// The estimate's fields that prose is written from (docs/scenario.md, "Estimate"): the
// bytes-per-parameter sum for the optimizer and precision on screen, and the one answer to
// "how few GPUs can train this".
#include <string>

#include "engine/api/estimate_json.hpp"
#include "engine/model/estimate.hpp"
#include "estimate_support.hpp"

using namespace trainscope;
using trainscope::testing::estimate_of;
using trainscope::testing::number_at;

namespace {

std::string text_at(const json::Value& estimate, std::string_view path) {
    const json::Value* value = estimate.find_path(path);
    REQUIRE(value != nullptr);
    return value->text;
}

}  // namespace

TEST_CASE("mixed-precision AdamW's bytes per parameter are written 2 + 2 + 4 + 4 + 4 = 16", "[estimate][published]") {
    // ZeRO §3.1: 2Ψ + 2Ψ + KΨ with K = 12 (FP32 master, momentum, variance).
    const json::Value e = estimate_of(R"({"training":{"optimizer":"adamw","precision":"bf16"}})");
    CHECK(text_at(e, "training.bytes_per_param_sum") == "2 + 2 + 4 + 4 + 4 = 16");
    const auto& parts = e.find_path("training.bytes_per_param_parts")->items;
    REQUIRE(parts.size() == 5);
    CHECK(parts[2].find("label")->text == "master copy");
    CHECK(parts[2].find("format")->text == "fp32");
    CHECK(parts[0].find("format")->text == "bf16");
}

TEST_CASE("SGD with momentum in mixed precision is 2 + 2 + 4 + 4 = 12 bytes per parameter", "[estimate]") {
    const json::Value e = estimate_of(R"({"training":{"optimizer":"sgd_momentum"}})");
    CHECK(text_at(e, "training.bytes_per_param_sum") == "2 + 2 + 4 + 4 = 12");
}

TEST_CASE("FP32 training has no master copy in its sum", "[estimate]") {
    const json::Value e = estimate_of(R"({"training":{"precision":"fp32"}})");
    CHECK(text_at(e, "training.bytes_per_param_sum") == "4 + 4 + 4 + 4 = 16");
    for (const auto& part : e.find_path("training.bytes_per_param_parts")->items)
        CHECK(part.find("part")->text != "master_weights");
}

TEST_CASE("the parts of the sum add up to the bytes per parameter the memory uses", "[estimate]") {
    for (const char* optimizer : {"adamw", "adam", "sgd_momentum", "sgd", "adam_8bit", "adafactor"}) {
        for (const char* precision : {"bf16", "fp16", "fp32"}) {
            const json::Value e = estimate_of(std::string(R"({"training":{"optimizer":")") + optimizer +
                                              R"(","precision":")" + precision + R"("}})");
            double sum = 0;
            for (const auto& part : e.find_path("training.bytes_per_param_parts")->items)
                sum += part.find("bytes")->number;
            INFO(optimizer << " " << precision);
            CHECK(sum == Approx(number_at(e, "training.bytes_per_param.total")));
        }
    }
}

TEST_CASE("every number format is labelled with the bytes one value takes", "[estimate]") {
    const json::ParseResult formats = json::parse(number_formats_json());
    REQUIRE(formats.ok);
    REQUIRE(formats.value.items.size() == 6);
    CHECK(formats.value.items[0].find("label")->text == "FP32 (4 bytes)");
    CHECK(formats.value.items[1].find("label")->text == "BF16 (2 bytes)");
    CHECK(formats.value.items[3].find("label")->text == "FP8 (1 byte)");
    CHECK(formats.value.items[5].find("label")->text == "INT4 (0.5 bytes)");
    CHECK(formats.value.items[5].find("bytes")->number == bytes_per_value(NumberFormat::int4));
}

TEST_CASE("the fewest GPUs to train fit, and one data-parallel group fewer does not", "[estimate]") {
    // Llama 3 70B with tensor 8, pipeline 4 and sequence parallelism: the layout the sharding
    // section shows. The page's memory section must quote this same field.
    const std::string layout =
        R"("training":{"sequence_parallel":true},"parallel":{"tensor":8,"pipeline":4,"zero_stage":3,"gpus":)";
    const json::Value e = estimate_of("{" + layout + "32}}");
    const double fewest = number_at(e, "training.min_gpus");
    REQUIRE(fewest >= 32);
    const json::Value at_fewest = estimate_of("{" + layout + std::to_string(static_cast<long>(fewest)) + "}}");
    CHECK(at_fewest.find_path("training.fits")->boolean);
    if (fewest > 32) {
        const json::Value fewer = estimate_of("{" + layout + std::to_string(static_cast<long>(fewest - 32)) + "}}");
        CHECK_FALSE(fewer.find_path("training.fits")->boolean);
    }
    // The floor from the model states alone answers another question and is never larger.
    CHECK(number_at(e, "training.min_gpus_for_states") <= fewest);
}
