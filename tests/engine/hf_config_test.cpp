// Hugging Face config.json read by the engine (src/engine/model/hf_config.hpp). The real configs and
// their mapping are tested under node in tests/web/hf-config.test.mjs; these are the hostile cases.
#include <string>

#include "catch_include.hpp"
#include "engine/model/hf_config.hpp"
#include "engine/model/model.hpp"
#include "engine/text/json.hpp"

using trainscope::model_from_hf_config_json;
namespace json = trainscope::json;

namespace {
json::Value read(const std::string& config) {
    const json::ParseResult parsed = json::parse(model_from_hf_config_json(config));
    REQUIRE(parsed.ok);
    return parsed.value;
}

// Meta-Llama-3-8B's config.json (huggingface.co/meta-llama/Meta-Llama-3-8B), model fields only.
const char* const llama3_8b = R"({"_name_or_path":"meta-llama/Meta-Llama-3-8B","architectures":["LlamaForCausalLM"],
  "hidden_act":"silu","hidden_size":4096,"intermediate_size":14336,"model_type":"llama","num_attention_heads":32,
  "num_hidden_layers":32,"num_key_value_heads":8,"tie_word_embeddings":false,"vocab_size":128256})";
}  // namespace

TEST_CASE("a Llama 3 config gives its architecture and name", "[hf_config]") {
    const json::Value result = read(llama3_8b);
    CHECK(result.find("errors")->items.empty());
    CHECK(result.find_path("architecture.mlp")->number == 14336);
    CHECK(result.find_path("architecture.gated_mlp")->boolean);
    CHECK(result.find("name")->text == "Meta-Llama-3-8B");
}

TEST_CASE("a config nested 20,000 levels deep is an error, not a crash", "[hf_config][hostile]") {
    const std::string deep = "{\"a\":" + std::string(20000, '[') + std::string(20000, ']') + "}";
    const json::Value result = read(deep);
    REQUIRE(result.find("errors")->items.size() == 1);
    CHECK(result.find("architecture")->is_null());
    const std::string& message = result.find("errors")->items[0].find("message")->text;
    CHECK(message.find("nested more than 64 levels deep") != std::string::npos);
    CHECK(message.size() < 200);
}

TEST_CASE("a 5 MB field value is not echoed whole", "[hf_config][hostile]") {
    std::string config = llama3_8b;
    config.replace(config.find("4096"), 4, "\"" + std::string(5 * 1024 * 1024, 'x') + "\"");
    const json::Value result = read(config);
    REQUIRE(result.find("errors")->items.size() == 1);
    const json::Value& error = result.find("errors")->items[0];
    CHECK(error.find("field")->text == "hidden_size");
    CHECK(error.find("message")->text.size() < 200);
}

TEST_CASE("a config key given twice is an error naming the key", "[hf_config][hostile]") {
    const json::Value result = read(R"({"hidden_size":4096,"hidden_size":8192})");
    REQUIRE(result.find("errors")->items.size() == 1);
    CHECK(result.find("errors")->items[0].find("field")->text == "hidden_size");
}

TEST_CASE("GPT-2's null n_inner is the engine's plain MLP multiple of the hidden size", "[hf_config]") {
    const json::Value result = read(R"({"model_type":"gpt2","n_ctx":1024,"n_embd":768,"n_head":12,"n_layer":12,
      "n_positions":1024,"vocab_size":50257,"n_inner":null,"activation_function":"gelu_new"})");
    CHECK(result.find("errors")->items.empty());
    CHECK(result.find_path("architecture.mlp")->number == trainscope::plain_mlp_multiple * 768);
}

TEST_CASE("the engine's architecture checks are named by the config's key", "[hf_config]") {
    std::string config = llama3_8b;
    config.replace(config.find("\"num_key_value_heads\":8"), 23, "\"num_key_value_heads\":5");
    const json::Value result = read(config);
    REQUIRE(result.find("errors")->items.size() == 1);
    CHECK(result.find("errors")->items[0].find("field")->text == "num_key_value_heads");
}

TEST_CASE("a config that is not UTF-8 is refused", "[hf_config][hostile]") {
    const json::Value result = read("{\"model_type\":\"caf\xE9\"}");
    CHECK(result.find("errors")->items[0].find("message")->text.find("UTF-8") != std::string::npos);
}
