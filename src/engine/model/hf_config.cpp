#include "engine/model/hf_config.hpp"

#include <cmath>
#include <initializer_list>
#include <tuple>
#include <vector>

#include "engine/text/json.hpp"
#include "engine/text/messages.hpp"
#include "engine/model/model.hpp"
#include "engine/model/scenario.hpp"
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
const char* const plain_activations[] = {"gelu", "gelu_new", "gelu_fast", "gelu_pytorch_tanh", "relu", "quick_gelu",
                                         "gelu_python", "tanh"};
// Families whose MLP is gated whatever the activation is called (Gemma: GeGLU with hidden_act
// "gelu_pytorch_tanh").
const char* const gated_model_types[] = {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe",
                                         "gemma", "gemma2", "gemma3_text", "phi3", "olmo", "olmo2", "deepseek_v2",
                                         "deepseek_v3", "granite", "cohere", "internlm2", "yi"};

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
                errors_.push_back({key, message("hf_config.positive_whole", "must be a positive whole number, got {value}",
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

void read_config(const Value& config, const Value& outer, Reading& r) {
    std::vector<Problem>& errors = r.errors;
    ConfigReader reader(config, errors);
    const Value* type_value = config.find("model_type");
    const std::string model_type = type_value && type_value->kind == Kind::string ? lower(type_value->text) : "";
    const bool gpt2_style = config.find("n_layer") || config.find("n_embd");
    r.name = model_name(outer, model_type);

    Architecture& a = r.architecture;
    // Which config key gave each architecture field, so the engine's own checks can name it.
    std::vector<std::pair<std::string, std::string>> key_of = {
        {"layers", "num_hidden_layers"}, {"hidden", "hidden_size"}, {"heads", "num_attention_heads"},
        {"kv_heads", "num_key_value_heads"}, {"mlp", "intermediate_size"}, {"vocab", "vocab_size"},
        {"learned_positions", "n_positions"}, {"experts", "num_local_experts"},
        {"experts_per_token", "num_experts_per_tok"}};
    auto remember = [&](const char* field, const std::string& key) {
        if (key.empty()) return;
        for (auto& entry : key_of)
            if (entry.first == field) {
                entry.second = key;
                return;
            }
        key_of.emplace_back(field, key);
    };
    std::string key;
    const bool has_layers = reader.integer({"num_hidden_layers", "n_layer", "num_layers"}, true, a.layers, &key);
    remember("layers", key);
    key.clear();
    const bool has_hidden = reader.integer({"hidden_size", "n_embd", "d_model"}, true, a.hidden, &key);
    remember("hidden", key);
    key.clear();
    const bool has_heads = reader.integer({"num_attention_heads", "n_head", "num_heads"}, true, a.heads, &key);
    remember("heads", key);
    reader.integer({"vocab_size"}, true, a.vocab);
    key.clear();
    bool has_kv_heads = reader.integer({"num_key_value_heads", "num_kv_heads"}, false, a.kv_heads, &key);
    remember("kv_heads", key);
    const Value* multi_query = config.find("multi_query");
    if (!has_kv_heads && key.empty() && multi_query && multi_query->kind == Kind::boolean && multi_query->boolean) {
        a.kv_heads = 1;
        has_kv_heads = true;
        r.notes.push_back(message("hf_config.note.multi_query", "multi_query: one key/value head"));
    }
    if (!has_kv_heads && key.empty() && has_heads) {
        a.kv_heads = a.heads;
        if (!gpt2_style) r.notes.push_back(message("hf_config.note.kv_heads_absent",
                                                  "num_key_value_heads absent: one key/value head per attention head"));
    }

    key.clear();
    const bool has_mlp = reader.integer({"intermediate_size", "n_inner", "ffn_dim"}, false, a.mlp, &key);
    remember("mlp", key);
    if (!has_mlp && key.empty()) {
        if (gpt2_style && has_hidden) {
            // GPT-2's config leaves n_inner null, which its modelling code reads as the plain MLP's
            // width: the engine's own multiple (docs/model.md §1).
            a.mlp = plain_mlp_multiple * a.hidden;
            r.notes.push_back(message("hf_config.note.n_inner_null", "n_inner is null: GPT-2\u2019s MLP is 4 \u00D7 n_embd"));
        } else if (!gpt2_style) {
            errors.push_back({"intermediate_size", message("hf_config.missing_mlp", "missing: the engine needs the MLP size "
                                                                                  "(also looked for n_inner, ffn_dim)")});
        }
    }

    // Gated (SwiGLU) or plain MLP, from the activation name and the model family.
    std::string activation_key, activation;
    for (const char* k : {"hidden_act", "hidden_activation", "activation_function"}) {
        const Value* v = config.find(k);
        if (v && v->kind == Kind::string) {
            activation_key = k;
            activation = lower(v->text);
            break;
        }
    }
    if (!activation_key.empty() && !is_one_of(activation, gated_activations) && !is_one_of(activation, plain_activations)) {
        errors.push_back({activation_key, message("hf_config.unknown_activation",
                                                  "\u201C{activation}\u201D is not an activation this page knows (silu "
                                                  "means a gated SwiGLU MLP; gelu a plain one)",
                                                  {{"activation", utf8::truncate(activation, max_echoed_bytes)}})});
    } else if (is_one_of(model_type, gated_model_types)) {
        a.gated_mlp = true;
    } else if (!activation_key.empty()) {
        a.gated_mlp = is_one_of(activation, gated_activations);
    } else if (gpt2_style) {
        a.gated_mlp = false;
    } else {
        errors.push_back({"hidden_act", message("hf_config.missing_activation",
                                                "missing: cannot tell a gated (silu) MLP from a plain (gelu) one")});
    }

    // Hugging Face's PretrainedConfig ties embeddings unless told otherwise.
    a.tied_embeddings = true;
    if (const Value* tie = config.find("tie_word_embeddings")) {
        if (tie->kind != Kind::boolean) errors.push_back({"tie_word_embeddings", message("hf_config.must_be_boolean", "must be true or false, got {value}",
                                                                                   {{"value", echo(*tie)}})});
        else a.tied_embeddings = tie->boolean;
    } else if (!gpt2_style) {
        r.notes.push_back(message("hf_config.note.tie_absent", "tie_word_embeddings absent: tied, as Hugging Face assumes"));
    }

    // Learned absolute positions: GPT-2's n_positions. RoPE models (max_position_embeddings) learn none.
    a.learned_positions = 0;
    if (gpt2_style) {
        key.clear();
        reader.integer({"n_positions", "n_ctx"}, true, a.learned_positions, &key);
        remember("learned_positions", key);
    }

    auto is_true = [&](const char* k) {
        const Value* v = config.find(k);
        return v && v->kind == Kind::boolean && v->boolean;
    };
    a.biases = gpt2_style || is_true("attention_bias") || is_true("mlp_bias") || is_true("bias");
    a.dropout = false;
    for (const char* k : {"resid_pdrop", "embd_pdrop", "attn_pdrop", "attention_dropout", "hidden_dropout", "dropout"}) {
        const Value* v = config.find(k);
        if (v && v->kind == Kind::number && v->number > 0) a.dropout = true;
    }

    a.experts = 1;
    a.experts_per_token = 1;
    key.clear();
    reader.integer({"num_local_experts", "num_experts", "n_routed_experts"}, false, a.experts, &key);
    remember("experts", key);
    key.clear();
    reader.integer({"num_experts_per_tok", "moe_top_k"}, false, a.experts_per_token, &key);
    remember("experts_per_token", key);
    // DeepSeek-V2/V3 and Qwen-MoE (docs/model.md §11): the experts' own width, shared experts (a
    // Qwen shared expert of width w counts as w / moe_intermediate_size experts: the same weights and
    // activations), dense layers before the first mixture-of-experts layer, node-limited routing.
    if (a.experts > 1) {
        key.clear();
        reader.integer({"moe_intermediate_size"}, false, a.expert_mlp, &key);
        remember("expert_mlp", key);
        key.clear();
        reader.integer({"n_shared_experts"}, false, a.shared_experts, &key);
        remember("shared_experts", key);
        double shared_width = 0;
        if (key.empty() && a.expert_mlp > 0 && reader.integer({"shared_expert_intermediate_size"}, false, shared_width)) {
            a.shared_experts = shared_width / a.expert_mlp;
            remember("shared_experts", "shared_expert_intermediate_size");
        }
        key.clear();
        const Value* first_dense = config.find("first_k_dense_replace");
        if (present(first_dense) && !(first_dense->kind == Kind::number && first_dense->number == 0))
            reader.integer({"first_k_dense_replace"}, false, a.dense_layers, &key);
        remember("dense_layers", key);
        key.clear();
        const Value* node_limit = config.find("topk_group");
        if (present(node_limit) && config.find("n_group")) reader.integer({"topk_group"}, false, a.expert_node_limit, &key);
        remember("expert_node_limit", key);
    }
    // Heads of their own size (Gemma 2: 128 in 4608 / 32 = 144), when it differs from hidden / heads.
    if (const Value* head_dim = config.find("head_dim"); present(head_dim) && has_hidden && has_heads) {
        double d = 0;
        key.clear();
        if (reader.integer({"head_dim"}, false, d, &key) && d * a.heads != a.hidden) {
            a.head_dim = d;
            remember("head_dim", key);
        }
    }
    // Multi-head latent attention (DeepSeek-V2 §2.1).
    if (const Value* latent = config.find("kv_lora_rank"); present(latent)) {
        for (const auto& [config_key, field, target] :
             {std::tuple<const char*, const char*, double*>{"kv_lora_rank", "kv_lora_rank", &a.kv_lora_rank},
              {"qk_nope_head_dim", "nope_head_dim", &a.nope_head_dim},
              {"qk_rope_head_dim", "rope_head_dim", &a.rope_head_dim},
              {"v_head_dim", "v_head_dim", &a.v_head_dim}}) {
            reader.integer({config_key}, true, *target);
            remember(field, config_key);
        }
        if (present(config.find("q_lora_rank"))) reader.integer({"q_lora_rank"}, false, a.q_lora_rank);
        remember("q_lora_rank", "q_lora_rank");
    }
    // Sliding-window layers (docs/model.md §12): Gemma 2 alternates local and global layers; Gemma 3
    // has sliding_window_pattern − 1 local layers to each global one; Mistral 7B slides in every layer.
    if (const Value* window = config.find("sliding_window");
        present(window) && window->kind == Kind::number && has_layers && !is_true_or_absent_false(config, "use_sliding_window")) {
        double w = 0;
        if (reader.integer({"sliding_window"}, false, w)) {
            double local = 0;
            if (model_type == "gemma2") local = std::floor(a.layers / 2);
            else if (model_type == "gemma3_text" || model_type == "gemma3") {
                double pattern = 6;
                if (present(config.find("sliding_window_pattern"))) reader.integer({"sliding_window_pattern"}, false, pattern);
                local = a.layers - std::floor(a.layers / pattern);
            } else if (model_type == "mistral" || model_type == "mixtral") {
                local = a.layers;
            }
            if (local > 0) {
                a.sliding_window = w;
                a.sliding_window_layers = local;
                remember("sliding_window", "sliding_window");
            }
        }
    }
    (void)has_layers;
    if (!errors.empty()) return;

    // The engine's own checks (limits, heads dividing the hidden size, …), named by config key.
    json::Writer scenario;
    scenario.begin_object().key("model").begin_object().key("architecture").begin_object();
    write_architecture_fields(scenario, a);
    scenario.end_object().end_object().end_object();
    const ScenarioReading reading = read_scenario_text(scenario.text());
    const std::string prefix = "model.architecture.";
    for (const auto& e : reading.errors) {
        std::string field = "config.json";
        if (e.field.compare(0, prefix.size(), prefix) == 0) {
            const std::string name = e.field.substr(prefix.size());
            for (const auto& entry : key_of)
                if (entry.first == name) field = entry.second;
        }
        errors.push_back({field, e.message});
    }
    r.usable = errors.empty();
}

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
            r.errors.push_back({parsed.path.empty() ? "config.json" : parsed.path, message("hf_config.invalid_json", "not valid JSON: {error}",
                                                                                           {{"error", parsed.error}})});
        } else if (!parsed.value.is_object()) {
            r.errors.push_back({"config.json", message("hf_config.not_object",
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
