#include "engine/model/hf_config.hpp"

#include <cmath>
#include <initializer_list>
#include <tuple>
#include <vector>

#include "engine/model/model.hpp"
#include "engine/model/scenario.hpp"
#include "engine/text/json.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/utf8.hpp"

namespace trainscope {

namespace {

using json::Kind;
using json::Value;

// Values echoed in a message are cut to this many bytes: a pasted 5 MB string stays out of the page.
constexpr std::size_t max_echoed_bytes = 40;

// Activations whose MLP is gated (SwiGLU/GeGLU: three matrices). Hugging Face names SwiGLU's
// activation "silu" (Llama, Mistral, Qwen2) or "swish"; the gate itself lives in the modelling code.
const char* const gated_activations[] = {"silu", "swish", "swiglu", "geglu"};
const char* const plain_activations[] = {"gelu", "gelu_new",   "gelu_fast",   "gelu_pytorch_tanh",
                                         "relu", "quick_gelu", "gelu_python", "tanh"};
// Families whose MLP is gated whatever the activation is called (Gemma: GeGLU with hidden_act
// "gelu_pytorch_tanh").
const char* const gated_model_types[] = {"llama",   "mistral",   "mixtral",   "qwen2",       "qwen2_moe",
                                         "qwen3",   "qwen3_moe", "gemma",     "gemma2",      "gemma3_text",
                                         "phi3",    "olmo",      "olmo2",     "deepseek_v2", "deepseek_v3",
                                         "granite", "cohere",    "internlm2", "yi"};

template <std::size_t N>
bool is_one_of(const std::string& text, const char* const (&names)[N]) {
    for (const char* name : names)
        if (text == name) return true;
    return false;
}

std::string lower(std::string text) {
    for (char& c : text)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return text;
}

bool present(const Value* value) { return value && value->kind != Kind::null; }

// True when `key` is given as false: Qwen2's configs carry a sliding_window they do not use.
bool is_true_or_absent_false(const Value& config, const char* key) {
    const Value* value = config.find(key);
    return value && value->kind == Kind::boolean && !value->boolean;
}

std::string echo(const Value& value) { return utf8::truncate(json::serialize(value), max_echoed_bytes); }

struct Problem {
    std::string field;
    std::string message;
};

// The config read so far: each architecture field with the config key it came from.
class ConfigReader {
public:
    ConfigReader(const Value& config, std::vector<Problem>& errors) : config_(config), errors_(errors) {}

    // The first present key as a positive whole number; records a key-named error otherwise.
    // Returns false when absent or unusable (`out` is then left alone).
    bool integer(std::initializer_list<const char*> keys, bool required, double& out, std::string* used_key = nullptr) {
        for (const char* key : keys) {
            const Value* value = config_.find(key);
            if (!present(value)) continue;
            if (used_key) *used_key = key;
            if (value->kind != Kind::number || std::floor(value->number) != value->number || value->number < 1) {
                errors_.push_back(
                    {key, message("hf_config.positive_whole", "must be a positive whole number, got {value}",
                                  {{"value", echo(*value)}})});
                return false;
            }
            out = value->number;
            return true;
        }
        if (required) {
            std::string others;  // config keys, listed as written
            for (const char* key : keys) {
                if (key == *keys.begin()) continue;
                if (!others.empty()) others += ", ";
                others += key;
            }
            errors_.push_back({*keys.begin(), others.empty()
                                                  ? message("hf_config.missing", "missing: the engine needs it")
                                                  : message("hf_config.missing_also",
                                                            "missing: the engine needs it (also looked for {keys})",
                                                            {{"keys", others}})});
        }
        return false;
    }

    bool has_error_on(std::initializer_list<const char*> keys) const {
        for (const auto& e : errors_)
            for (const char* key : keys)
                if (e.field == key) return true;
        return false;
    }

private:
    const Value& config_;
    std::vector<Problem>& errors_;
};

std::string model_name(const Value& outer, const std::string& model_type) {
    const Value* path = outer.find("_name_or_path");
    if (path && path->kind == Kind::string) {
        std::string name = path->text;
        while (!name.empty() && (name.back() == ' ' || name.back() == '\n' || name.back() == '\t')) name.pop_back();
        const std::size_t start = name.find_first_not_of(" \n\t");
        if (start != std::string::npos) {
            name = name.substr(start);
            const std::size_t slash = name.rfind('/');
            return utf8::truncate(slash == std::string::npos ? name : name.substr(slash + 1), 80);
        }
    }
    const Value* architectures = outer.find("architectures");
    if (architectures && architectures->kind == Kind::array && !architectures->items.empty() &&
        architectures->items[0].kind == Kind::string) {
        std::string name = architectures->items[0].text;
        for (const char* suffix : {"ForCausalLM", "ForConditionalGeneration", "LMHeadModel"}) {
            const std::string s(suffix);
            if (name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
                name.erase(name.size() - s.size());
                break;
            }
        }
        return utf8::truncate(name, 80);
    }
    return model_type.empty() ? message("hf_config.default_name", "your model") : utf8::truncate(model_type, 80);
}

struct Reading {
    bool usable = false;
    Architecture architecture;
    std::string name;  // model_name() or, for a config that is not read, "your model"
    std::vector<Problem> errors;
    std::vector<std::string> notes;
};

// One config.json read into an architecture, part by part; remembers which config key gave each
// architecture field, so that the engine's own checks can name the key the author wrote.
class ConfigRead {
public:
    ConfigRead(const Value& config, const Value& outer, Reading& r)
        : config_(config), r_(r), a_(r.architecture), reader_(config, r.errors) {
        const Value* type_value = config.find("model_type");
        model_type_ = type_value && type_value->kind == Kind::string ? lower(type_value->text) : "";
        gpt2_style_ = config.find("n_layer") || config.find("n_embd");
        r.name = model_name(outer, model_type_);
    }

    void read() {
        read_shape();
        read_kv_heads();
        read_mlp();
        read_activation();
        read_embeddings();
        read_biases_and_dropout();
        read_experts();
        read_head_dim_and_latent_attention();
        read_sliding_window();
        if (r_.errors.empty()) check_with_engine();
    }

private:
    // Reads `field` from the first of `keys` present, remembering which key it was.
    bool integer(const char* field, std::initializer_list<const char*> keys, bool required, double& out) {
        std::string key;
        const bool found = reader_.integer(keys, required, out, &key);
        remember(field, key);
        return found;
    }

    void remember(const char* field, const std::string& key) {
        if (key.empty()) return;
        for (auto& entry : key_of_)
            if (entry.first == field) {
                entry.second = key;
                return;
            }
        key_of_.emplace_back(field, key);
    }

    bool is_true(const char* k) const {
        const Value* v = config_.find(k);
        return v && v->kind == Kind::boolean && v->boolean;
    }

    void read_shape() {
        has_layers_ = integer("layers", {"num_hidden_layers", "n_layer", "num_layers"}, true, a_.layers);
        has_hidden_ = integer("hidden", {"hidden_size", "n_embd", "d_model"}, true, a_.hidden);
        has_heads_ = integer("heads", {"num_attention_heads", "n_head", "num_heads"}, true, a_.heads);
        reader_.integer({"vocab_size"}, true, a_.vocab);
    }

    void read_kv_heads() {
        std::string key;
        bool has_kv_heads = reader_.integer({"num_key_value_heads", "num_kv_heads"}, false, a_.kv_heads, &key);
        remember("kv_heads", key);
        const Value* multi_query = config_.find("multi_query");
        if (!has_kv_heads && key.empty() && multi_query && multi_query->kind == Kind::boolean && multi_query->boolean) {
            a_.kv_heads = 1;
            has_kv_heads = true;
            r_.notes.push_back(message("hf_config.note.multi_query", "multi_query: one key/value head"));
        }
        if (!has_kv_heads && key.empty() && has_heads_) {
            a_.kv_heads = a_.heads;
            if (!gpt2_style_)
                r_.notes.push_back(message("hf_config.note.kv_heads_absent",
                                           "num_key_value_heads absent: one key/value head per attention head"));
        }
    }

    void read_mlp() {
        std::string key;
        const bool has_mlp = reader_.integer({"intermediate_size", "n_inner", "ffn_dim"}, false, a_.mlp, &key);
        remember("mlp", key);
        if (has_mlp || !key.empty()) return;
        if (gpt2_style_ && has_hidden_) {
            // GPT-2's config leaves n_inner null, which its modelling code reads as the plain MLP's
            // width: the engine's own multiple (docs/model.md §1).
            a_.mlp = plain_mlp_multiple * a_.hidden;
            r_.notes.push_back(
                message("hf_config.note.n_inner_null", "n_inner is null: GPT-2\u2019s MLP is 4 \u00D7 n_embd"));
        } else if (!gpt2_style_) {
            r_.errors.push_back({"intermediate_size", message("hf_config.missing_mlp",
                                                              "missing: the engine needs the MLP size "
                                                              "(also looked for n_inner, ffn_dim)")});
        }
    }

    // Gated (SwiGLU) or plain MLP, from the activation name and the model family.
    void read_activation() {
        std::string activation_key, activation;
        for (const char* k : {"hidden_act", "hidden_activation", "activation_function"}) {
            const Value* v = config_.find(k);
            if (v && v->kind == Kind::string) {
                activation_key = k;
                activation = lower(v->text);
                break;
            }
        }
        if (!activation_key.empty() && !is_one_of(activation, gated_activations) &&
            !is_one_of(activation, plain_activations)) {
            r_.errors.push_back(
                {activation_key, message("hf_config.unknown_activation",
                                         "\u201C{activation}\u201D is not an activation this page knows (silu "
                                         "means a gated SwiGLU MLP; gelu a plain one)",
                                         {{"activation", utf8::truncate(activation, max_echoed_bytes)}})});
        } else if (is_one_of(model_type_, gated_model_types)) {
            a_.gated_mlp = true;
        } else if (!activation_key.empty()) {
            a_.gated_mlp = is_one_of(activation, gated_activations);
        } else if (gpt2_style_) {
            a_.gated_mlp = false;
        } else {
            r_.errors.push_back(
                {"hidden_act", message("hf_config.missing_activation",
                                       "missing: cannot tell a gated (silu) MLP from a plain (gelu) one")});
        }
    }

    void read_embeddings() {
        // Hugging Face's PretrainedConfig ties embeddings unless told otherwise.
        a_.tied_embeddings = true;
        if (const Value* tie = config_.find("tie_word_embeddings")) {
            if (tie->kind != Kind::boolean)
                r_.errors.push_back(
                    {"tie_word_embeddings", message("hf_config.must_be_boolean", "must be true or false, got {value}",
                                                    {{"value", echo(*tie)}})});
            else
                a_.tied_embeddings = tie->boolean;
        } else if (!gpt2_style_) {
            r_.notes.push_back(
                message("hf_config.note.tie_absent", "tie_word_embeddings absent: tied, as Hugging Face assumes"));
        }
        // Learned absolute positions: GPT-2's n_positions. RoPE models (max_position_embeddings) learn none.
        a_.learned_positions = 0;
        if (gpt2_style_) integer("learned_positions", {"n_positions", "n_ctx"}, true, a_.learned_positions);
    }

    void read_biases_and_dropout() {
        a_.biases = gpt2_style_ || is_true("attention_bias") || is_true("mlp_bias") || is_true("bias");
        a_.dropout = false;
        for (const char* k :
             {"resid_pdrop", "embd_pdrop", "attn_pdrop", "attention_dropout", "hidden_dropout", "dropout"}) {
            const Value* v = config_.find(k);
            if (v && v->kind == Kind::number && v->number > 0) a_.dropout = true;
        }
    }

    void read_experts() {
        a_.experts = 1;
        a_.experts_per_token = 1;
        integer("experts", {"num_local_experts", "num_experts", "n_routed_experts"}, false, a_.experts);
        integer("experts_per_token", {"num_experts_per_tok", "moe_top_k"}, false, a_.experts_per_token);
        if (a_.experts > 1) read_expert_shape();
    }

    // DeepSeek-V2/V3 and Qwen-MoE (docs/model.md §11): the experts' own width, shared experts (a
    // Qwen shared expert of width w counts as w / moe_intermediate_size experts: the same weights and
    // activations), dense layers before the first mixture-of-experts layer, node-limited routing.
    void read_expert_shape() {
        integer("expert_mlp", {"moe_intermediate_size"}, false, a_.expert_mlp);
        std::string key;
        reader_.integer({"n_shared_experts"}, false, a_.shared_experts, &key);
        remember("shared_experts", key);
        double shared_width = 0;
        if (key.empty() && a_.expert_mlp > 0 &&
            reader_.integer({"shared_expert_intermediate_size"}, false, shared_width)) {
            a_.shared_experts = shared_width / a_.expert_mlp;
            remember("shared_experts", "shared_expert_intermediate_size");
        }
        const Value* first_dense = config_.find("first_k_dense_replace");
        if (present(first_dense) && !(first_dense->kind == Kind::number && first_dense->number == 0))
            integer("dense_layers", {"first_k_dense_replace"}, false, a_.dense_layers);
        const Value* node_limit = config_.find("topk_group");
        if (present(node_limit) && config_.find("n_group"))
            integer("expert_node_limit", {"topk_group"}, false, a_.expert_node_limit);
    }

    void read_head_dim_and_latent_attention() {
        // Heads of their own size (Gemma 2: 128 in 4608 / 32 = 144), when it differs from hidden / heads.
        if (const Value* head_dim = config_.find("head_dim"); present(head_dim) && has_hidden_ && has_heads_) {
            double d = 0;
            std::string key;
            if (reader_.integer({"head_dim"}, false, d, &key) && d * a_.heads != a_.hidden) {
                a_.head_dim = d;
                remember("head_dim", key);
            }
        }
        // Multi-head latent attention (DeepSeek-V2 §2.1).
        if (const Value* latent = config_.find("kv_lora_rank"); present(latent)) {
            for (const auto& [config_key, field, target] :
                 {std::tuple<const char*, const char*, double*>{"kv_lora_rank", "kv_lora_rank", &a_.kv_lora_rank},
                  {"qk_nope_head_dim", "nope_head_dim", &a_.nope_head_dim},
                  {"qk_rope_head_dim", "rope_head_dim", &a_.rope_head_dim},
                  {"v_head_dim", "v_head_dim", &a_.v_head_dim}}) {
                reader_.integer({config_key}, true, *target);
                remember(field, config_key);
            }
            if (present(config_.find("q_lora_rank"))) reader_.integer({"q_lora_rank"}, false, a_.q_lora_rank);
            remember("q_lora_rank", "q_lora_rank");
        }
    }

    // Sliding-window layers (docs/model.md §12): Gemma 2 alternates local and global layers; Gemma 3
    // has sliding_window_pattern − 1 local layers to each global one; Mistral 7B slides in every layer.
    void read_sliding_window() {
        const Value* window = config_.find("sliding_window");
        if (!present(window) || window->kind != Kind::number || !has_layers_ ||
            is_true_or_absent_false(config_, "use_sliding_window"))
            return;
        double w = 0;
        if (!reader_.integer({"sliding_window"}, false, w)) return;
        double local = 0;
        if (model_type_ == "gemma2")
            local = std::floor(a_.layers / 2);
        else if (model_type_ == "gemma3_text" || model_type_ == "gemma3") {
            double pattern = 6;
            if (present(config_.find("sliding_window_pattern")))
                reader_.integer({"sliding_window_pattern"}, false, pattern);
            local = a_.layers - std::floor(a_.layers / pattern);
        } else if (model_type_ == "mistral" || model_type_ == "mixtral") {
            local = a_.layers;
        }
        if (local > 0) {
            a_.sliding_window = w;
            a_.sliding_window_layers = local;
            remember("sliding_window", "sliding_window");
        }
    }

    // The engine's own checks (limits, heads dividing the hidden size, …), named by config key.
    void check_with_engine() {
        json::Writer scenario;
        scenario.begin_object().key("model").begin_object().key("architecture").begin_object();
        write_architecture_fields(scenario, a_);
        scenario.end_object().end_object().end_object();
        const ScenarioReading reading = read_scenario_text(scenario.text());
        const std::string prefix = "model.architecture.";
        for (const auto& e : reading.errors) {
            std::string field = "config.json";
            if (e.field.compare(0, prefix.size(), prefix) == 0) {
                const std::string name = e.field.substr(prefix.size());
                for (const auto& entry : key_of_)
                    if (entry.first == name) field = entry.second;
            }
            r_.errors.push_back({field, e.message});
        }
        r_.usable = r_.errors.empty();
    }

    const Value& config_;
    Reading& r_;
    Architecture& a_;
    ConfigReader reader_;
    std::string model_type_;
    bool gpt2_style_ = false;
    bool has_layers_ = false, has_hidden_ = false, has_heads_ = false;
    std::vector<std::pair<std::string, std::string>> key_of_ = {{"layers", "num_hidden_layers"},
                                                                {"hidden", "hidden_size"},
                                                                {"heads", "num_attention_heads"},
                                                                {"kv_heads", "num_key_value_heads"},
                                                                {"mlp", "intermediate_size"},
                                                                {"vocab", "vocab_size"},
                                                                {"learned_positions", "n_positions"},
                                                                {"experts", "num_local_experts"},
                                                                {"experts_per_token", "num_experts_per_tok"}};
};

void read_config(const Value& config, const Value& outer, Reading& r) { ConfigRead(config, outer, r).read(); }

}  // namespace

std::string model_from_hf_config_json(std::string_view config_json) {
    Reading r;
    r.name = message("hf_config.default_name", "your model");
    const std::size_t start = config_json.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) {
        r.errors.push_back({"config.json", message("hf_config.empty", "paste the contents of a config.json file")});
    } else {
        const json::ParseResult parsed = json::parse(config_json);
        if (!parsed.ok) {
            // A key given twice or nested too deep is named by its path; syntax errors by line and column.
            r.errors.push_back(
                {parsed.path.empty() ? "config.json" : parsed.path,
                 message("hf_config.invalid_json", "not valid JSON: {error}", {{"error", parsed.error}})});
        } else if (!parsed.value.is_object()) {
            r.errors.push_back(
                {"config.json", message("hf_config.not_object",
                                        "expected a JSON object ({ \u2026 }) with the model\u2019s settings")});
        } else {
            const Value& outer = parsed.value;
            const Value* text_config = outer.find("text_config");
            if (text_config && text_config->is_object() && !outer.find("num_hidden_layers") && !outer.find("n_layer")) {
                // Multimodal configs (Llama 4, Gemma 3, LLaVA) keep the language model in text_config.
                Value config = *text_config;
                if (!config.find("model_type")) {
                    if (const Value* type = outer.find("model_type")) config.members.emplace_back("model_type", *type);
                }
                r.notes.push_back(message("hf_config.note.text_config", "read the language model from text_config"));
                read_config(config, outer, r);
            } else {
                read_config(outer, outer, r);
            }
        }
    }
    json::Writer w;
    w.begin_object();
    w.key("architecture");
    if (r.usable) {
        w.begin_object();
        write_architecture_fields(w, r.architecture);
        w.end_object();
    } else {
        w.null();
    }
    w.field("name", r.name);
    w.key("errors").begin_array();
    for (const auto& e : r.errors) w.begin_object().field("field", e.field).field("message", e.message).end_object();
    w.end_array();
    w.key("notes").begin_array();
    for (const auto& note : r.notes) w.string(note);
    w.end_array();
    w.end_object();
    return w.take();
}

}  // namespace trainscope
