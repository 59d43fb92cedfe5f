#include "engine/model/scenario.hpp"

#include "engine/model/field_limits.hpp"
#include "engine/model/finetune.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

#include <cmath>
#include <initializer_list>

#include "engine/text/utf8.hpp"

namespace trainscope {

std::string_view optimizer_name(Optimizer optimizer) {
    switch (optimizer) {
        case Optimizer::adamw:
            return "adamw";
        case Optimizer::adam:
            return "adam";
        case Optimizer::sgd_momentum:
            return "sgd_momentum";
        case Optimizer::sgd:
            return "sgd";
        case Optimizer::adam_8bit:
            return "adam_8bit";
        case Optimizer::adafactor:
            return "adafactor";
    }
    return "adamw";
}

std::string_view recompute_name(Recompute recompute) {
    switch (recompute) {
        case Recompute::none:
            return "none";
        case Recompute::selective:
            return "selective";
        case Recompute::full:
            return "full";
    }
    return "none";
}

std::string_view accounting_name(AccountingConvention accounting) {
    switch (accounting) {
        case AccountingConvention::zero:
            return "zero";
        case AccountingConvention::fp32_gradients:
            return "fp32_gradients";
    }
    return "zero";
}

std::string_view fine_tuning_method_name(FineTuningMethod method) {
    switch (method) {
        case FineTuningMethod::full:
            return "full";
        case FineTuningMethod::lora:
            return "lora";
        case FineTuningMethod::qlora:
            return "qlora";
    }
    return "full";
}

std::string_view base_storage_name(BaseStorage storage) {
    switch (storage) {
        case BaseStorage::bf16:
            return "bf16";
        case BaseStorage::int8:
            return "int8";
        case BaseStorage::nf4:
            return "nf4";
        case BaseStorage::nf4_double_quant:
            return "nf4_double_quant";
    }
    return "bf16";
}

std::string_view offload_name(Offload offload) {
    switch (offload) {
        case Offload::none:
            return "none";
        case Offload::optimizer:
            return "optimizer";
        case Offload::parameters:
            return "parameters";
    }
    return "none";
}

std::string_view precision_recipe_name(PrecisionRecipe recipe) {
    switch (recipe) {
        case PrecisionRecipe::master_copy:
            return "master_copy";
        case PrecisionRecipe::pure:
            return "pure";
        case PrecisionRecipe::autocast:
            return "autocast";
    }
    return "master_copy";
}

std::string_view framework_name(Framework framework) {
    switch (framework) {
        case Framework::megatron:
            return "megatron";
        case Framework::hugging_face:
            return "hugging_face";
        case Framework::litgpt:
            return "litgpt";
        case Framework::torchtune:
            return "torchtune";
    }
    return "megatron";
}

std::string_view lora_target_name(int index) {
    static constexpr std::string_view names[lora_target_count] = {"q", "k", "v", "o", "gate", "up", "down"};
    return index >= 0 && index < lora_target_count ? names[index] : std::string_view();
}

namespace {

// Sizes in messages, written for people: "8,192", "10 million".
std::string format_limit(double value) { return quantity::format_count(value); }

// As long as the names the engine reads from a Hugging Face config (hf_config.cpp), with room to spare.
constexpr std::size_t max_model_name_bytes = 200;

// Reads the members of one JSON object, records errors under its dotted prefix, and at the end
// reports members nobody asked for: in a hand-written scenario those are nearly always typos.
class ObjectReader {
public:
    ObjectReader(const json::Value* object, std::string prefix, std::vector<FieldError>& errors)
        : object_(object), prefix_(std::move(prefix)), errors_(errors) {
        if (object_ && !object_->is_object()) {
            error_at(prefix_.empty() ? "scenario" : prefix_.substr(0, prefix_.size() - 1),
                     message("scenario.must_be_object", "must be a JSON object"));
            object_ = nullptr;
        }
    }

    std::string path(std::string_view name) const { return prefix_ + std::string(name); }
    void error(std::string_view name, std::string message) { error_at(path(name), std::move(message)); }

    const json::Value* get(std::string_view name) {
        known_.emplace_back(name);
        return object_ ? object_->find(name) : nullptr;
    }

    bool has(std::string_view name) const { return object_ && object_->find(name) != nullptr; }

    // Returns true when the field was given and valid; its range is in the one limits table
    // (field_limits.cpp), which the page reads too.
    bool number(std::string_view name, double& out) {
        const json::Value* value = get(name);
        if (!value) return false;
        if (value->kind != json::Kind::number) {
            error(name, message("scenario.must_be_number", "must be a number"));
            return false;
        }
        const FieldLimit* limit = find_field_limit(path(name));
        const std::string problem =
            limit ? field_limit_error(*limit, value->number)
                  : (std::isfinite(value->number) ? std::string()
                                                  : message("limits.must_be_finite", "must be a finite number"));
        if (!problem.empty()) {
            error(name, problem);
            return false;
        }
        out = value->number;
        return true;
    }

    bool boolean(std::string_view name, bool& out) {
        const json::Value* value = get(name);
        if (!value) return false;
        if (value->kind != json::Kind::boolean) {
            error(name, message("scenario.must_be_boolean", "must be true or false"));
            return false;
        }
        out = value->boolean;
        return true;
    }

    bool text(std::string_view name, std::string& out) {
        const json::Value* value = get(name);
        if (!value) return false;
        if (value->kind != json::Kind::string) {
            error(name, message("scenario.must_be_string", "must be a string"));
            return false;
        }
        out = value->text;
        return true;
    }

    // A string that must be one of `choices`; `parse` maps it to the enum.
    template <typename Enum, typename NameOf>
    void choice(std::string_view name, Enum& out, std::initializer_list<Enum> choices, NameOf name_of) {
        std::string given;
        if (!text(name, given)) return;
        std::string allowed;
        for (const Enum option : choices) {
            if (name_of(option) == given) {
                out = option;
                return;
            }
            if (!allowed.empty()) allowed += ", ";
            allowed += std::string(name_of(option));
        }
        error(name, message("scenario.not_one_of", "'{given}' is not one of: {allowed}",
                            {{"given", utf8::truncate(given, 40)}, {"allowed", allowed}}));
    }

    void finish() {
        if (!object_) return;
        for (const auto& member : object_->members) {
            bool is_known = false;
            for (const auto& known : known_) is_known = is_known || member.first == known;
            if (!is_known)
                error_at(path(utf8::truncate(member.first, 60)),
                         message("scenario.unknown_field", "is not a scenario field"));
        }
    }

private:
    void error_at(std::string field, std::string message) { errors_.push_back({std::move(field), std::move(message)}); }

    const json::Value* object_;
    std::string prefix_;
    std::vector<FieldError>& errors_;
    std::vector<std::string> known_;
};

// training.lora (docs/scenario.md): the adapters' rank, the matrices they adapt and the base's storage.
void read_lora(const json::Value* object, TrainingSettings& training, std::vector<FieldError>& errors) {
    // QLoRA's base is 4-bit NF4 with double quantisation (Dettmers et al. 2023 §3) unless told otherwise.
    if (training.method == FineTuningMethod::qlora) training.base_storage = BaseStorage::nf4_double_quant;
    ObjectReader reader(object, "training.lora.", errors);
    reader.number("rank", training.lora_rank);
    reader.choice("base", training.base_storage,
                  {BaseStorage::bf16, BaseStorage::int8, BaseStorage::nf4, BaseStorage::nf4_double_quant},
                  base_storage_name);
    if (const json::Value* targets = reader.get("targets")) {
        unsigned chosen = 0;
        bool valid = targets->kind == json::Kind::array;
        for (const json::Value& item : targets->items) {
            int found = -1;
            for (int index = 0; index < lora_target_count; ++index)
                if (item.kind == json::Kind::string && item.text == lora_target_name(index)) found = index;
            if (found < 0)
                valid = false;
            else
                chosen |= 1u << found;
        }
        if (!valid)
            reader.error("targets", message("scenario.lora.targets",
                                            "must be a list of matrices among q, k, v, o, gate, up, down"));
        else if (chosen == 0)
            reader.error("targets", message("scenario.lora.no_targets", "must name at least one matrix to adapt"));
        else
            training.lora_targets = chosen;
    }
    reader.finish();
    const bool four_bit =
        training.base_storage == BaseStorage::nf4 || training.base_storage == BaseStorage::nf4_double_quant;
    if (training.method == FineTuningMethod::qlora && !four_bit)
        errors.push_back(
            {"training.lora.base",
             message("scenario.lora.qlora_base", "QLoRA stores the base in 4-bit NF4: nf4 or nf4_double_quant")});
}

void read_architecture_fields(ObjectReader& reader, Architecture& a) {
    reader.number("layers", a.layers);
    reader.number("hidden", a.hidden);
    reader.number("heads", a.heads);
    reader.number("kv_heads", a.kv_heads);
    reader.number("mlp", a.mlp);
    reader.number("vocab", a.vocab);
    reader.boolean("gated_mlp", a.gated_mlp);
    reader.boolean("tied_embeddings", a.tied_embeddings);
    reader.number("learned_positions", a.learned_positions);
    reader.boolean("biases", a.biases);
    reader.boolean("dropout", a.dropout);
    reader.number("experts", a.experts);
    reader.number("experts_per_token", a.experts_per_token);
    reader.number("shared_experts", a.shared_experts);
    reader.number("expert_mlp", a.expert_mlp);
    reader.number("dense_layers", a.dense_layers);
    reader.number("expert_node_limit", a.expert_node_limit);
    reader.number("head_dim", a.head_dim);
    reader.number("q_lora_rank", a.q_lora_rank);
    reader.number("kv_lora_rank", a.kv_lora_rank);
    reader.number("nope_head_dim", a.nope_head_dim);
    reader.number("rope_head_dim", a.rope_head_dim);
    reader.number("v_head_dim", a.v_head_dim);
    reader.number("sliding_window", a.sliding_window);
    reader.number("sliding_window_layers", a.sliding_window_layers);
}

void check_architecture(const Architecture& a, std::vector<FieldError>& errors) {
    const std::string prefix = "model.architecture.";
    auto error = [&](const char* field, std::string message) {
        errors.push_back({prefix + field, std::move(message)});
    };
    for (const auto& [field, value] : {std::pair<const char*, double>{"layers", a.layers},
                                       {"hidden", a.hidden},
                                       {"heads", a.heads},
                                       {"mlp", a.mlp},
                                       {"vocab", a.vocab}}) {
        if (!(value >= 1))
            error(field, message("scenario.architecture.required", "is required for a custom architecture"));
    }
    if (a.heads > a.hidden) {
        error("heads", message("scenario.heads.exceed_hidden", "cannot exceed the hidden size ({hidden})",
                               {{"hidden", format_limit(a.hidden)}}));
    } else if (a.heads >= 1 && std::fmod(a.hidden, a.heads) != 0) {
        error("heads", message("scenario.heads.divide_hidden", "must divide the hidden size ({hidden}) evenly",
                               {{"hidden", format_limit(a.hidden)}}));
    }
    if (a.kv_heads > a.heads) {
        error("kv_heads", message("scenario.kv_heads.exceed_heads", "cannot exceed the attention heads ({heads})",
                                  {{"heads", format_limit(a.heads)}}));
    } else if (a.kv_heads >= 1 && std::fmod(a.heads, a.kv_heads) != 0) {
        error("kv_heads", message("scenario.divide_heads", "must divide the attention heads ({heads}) evenly",
                                  {{"heads", format_limit(a.heads)}}));
    }
    if (a.experts_per_token > a.experts)
        error("experts_per_token",
              message("scenario.experts_per_token.exceed_experts", "cannot exceed the number of experts ({experts})",
                      {{"experts", format_limit(a.experts)}}));
    if (a.dense_layers >= a.layers && a.dense_layers > 0)
        error("dense_layers",
              message("scenario.dense_layers.exceed_layers",
                      "must be fewer than the layers ({layers}): the rest are mixture-of-experts layers",
                      {{"layers", format_limit(a.layers)}}));
    if (a.experts <= 1 && (a.shared_experts > 0 || a.expert_mlp > 0 || a.dense_layers > 0)) {
        const char* field = a.shared_experts > 0 ? "shared_experts" : a.expert_mlp > 0 ? "expert_mlp" : "dense_layers";
        error(field, message("scenario.moe.needs_experts", "describes a mixture of experts: set experts above 1"));
    }
    if (a.latent_attention()) {
        // DeepSeek-V2 §2.1: every head's key has a part without positions and a rotary part.
        for (const auto& [field, value] : {std::pair<const char*, double>{"nope_head_dim", a.nope_head_dim},
                                           {"rope_head_dim", a.rope_head_dim},
                                           {"v_head_dim", a.v_head_dim}})
            if (!(value >= 1))
                error(field, message("scenario.latent_attention.required",
                                     "is required for multi-head latent attention (kv_lora_rank above 0)"));
    } else if (a.q_lora_rank > 0) {
        error("q_lora_rank", message("scenario.q_lora_rank.needs_latent",
                                     "compresses queries for multi-head latent attention: set kv_lora_rank too"));
    }
    if (a.sliding_window_layers > a.layers)
        error("sliding_window_layers",
              message("scenario.sliding_window_layers.exceed_layers", "cannot exceed the layers ({layers})",
                      {{"layers", format_limit(a.layers)}}));
    else if (a.sliding_window_layers > 0 && a.sliding_window < 1)
        error("sliding_window",
              message("scenario.sliding_window.required", "is required when sliding_window_layers is above 0"));
}

void read_model(const json::Value* model_json, Scenario& scenario, std::vector<FieldError>& errors) {
    ObjectReader reader(model_json, "model.", errors);
    ModelChoice& model = scenario.model;

    std::string preset_id;
    const bool preset_given = reader.text("preset", preset_id);
    double params = 0;
    const bool params_given = reader.number("params", params);
    const bool params_present = reader.has("params");
    const json::Value* architecture_json = reader.get("architecture");
    std::string name;
    if (reader.text("name", name)) {
        // The name travels in shared links: short plain text, shown with textContent.
        bool plain = !name.empty();
        for (const unsigned char c : name) plain = plain && c >= 0x20 && c != 0x7f;
        if (!plain)
            reader.error("name", message("scenario.name.plain", "must be plain text of one line, not empty"));
        else if (name.size() > max_model_name_bytes)
            reader.error("name", message("scenario.name.too_long", "must be at most {max} bytes long",
                                         {{"max", format_limit(max_model_name_bytes)}}));
        else
            model.name = name;
    }
    reader.finish();

    if (params_present && (preset_given || architecture_json)) {
        reader.error("params", message("scenario.params.not_both",
                                       "give a parameter count, or a preset or architecture, not both"));
        return;
    }

    if (params_given) {
        model.given_params = params;
        model.architecture = assumed_architecture(params);
        model.architecture_assumed = true;
        return;
    }
    if (params_present) return;  // its error is already recorded

    const ModelPreset* preset = nullptr;
    if (preset_given) {
        preset = find_model_preset(preset_id);
        if (!preset) {
            std::string known;
            for (const auto& candidate : model_presets())
                known += (known.empty() ? "" : ", ") + std::string(candidate.id);
            reader.error("preset",
                         message("scenario.preset.unknown", "unknown preset '{preset}'; known presets: {known}",
                                 {{"preset", utf8::truncate(preset_id, 40)}, {"known", known}}));
            return;
        }
    } else if (!architecture_json) {
        preset = find_model_preset("llama3-70b");  // the lesson's opening example
    }

    if (preset) {
        model.preset_id = std::string(preset->id);
        model.architecture = preset->architecture;
    } else {
        model.architecture = Architecture{};
        model.architecture.gated_mlp = true;
    }

    if (architecture_json) {
        ObjectReader architecture_reader(architecture_json, "model.architecture.", errors);
        const std::size_t errors_before = errors.size();
        const double kv_heads_before = model.architecture.kv_heads;
        read_architecture_fields(architecture_reader, model.architecture);
        architecture_reader.finish();
        model.architecture_overridden = true;
        if (errors.size() != errors_before) return;
        // Multi-head attention unless told otherwise: K and V have as many heads as Q.
        if (!architecture_reader.has("kv_heads") &&
            (!preset || kv_heads_before == 0 || kv_heads_before > model.architecture.heads))
            model.architecture.kv_heads = model.architecture.heads;
    }
    check_architecture(model.architecture, errors);
}

}  // namespace

namespace {

void read_inference(ObjectReader& root, Scenario& scenario, std::vector<FieldError>& errors) {
    ObjectReader inference(root.get("inference"), "inference.", errors);
    inference.choice("precision", scenario.inference.weights,
                     {NumberFormat::fp32, NumberFormat::bf16, NumberFormat::fp16, NumberFormat::fp8, NumberFormat::int8,
                      NumberFormat::int4},
                     format_name);
    inference.choice(
        "kv_precision", scenario.inference.kv_cache,
        {NumberFormat::fp32, NumberFormat::bf16, NumberFormat::fp16, NumberFormat::fp8, NumberFormat::int8},
        format_name);
    inference.number("batch", scenario.inference.batch);
    inference.number("context", scenario.inference.context);
    inference.finish();
}

// Returns whether the tokens were given (else they default from the model).
bool read_training(ObjectReader& root, Scenario& scenario, std::vector<FieldError>& errors) {
    TrainingSettings& training = scenario.training;
    ObjectReader training_reader(root.get("training"), "training.", errors);
    training_reader.choice("precision", training.precision,
                           {NumberFormat::bf16, NumberFormat::fp16, NumberFormat::fp32}, format_name);
    training_reader.choice("optimizer", training.optimizer,
                           {Optimizer::adamw, Optimizer::adam, Optimizer::sgd_momentum, Optimizer::sgd,
                            Optimizer::adam_8bit, Optimizer::adafactor},
                           optimizer_name);
    training_reader.number("micro_batch", training.micro_batch);
    training_reader.number("sequence", training.sequence);
    training_reader.choice("recompute", training.recompute, {Recompute::none, Recompute::selective, Recompute::full},
                           recompute_name);
    training_reader.boolean("flash_attention", training.flash_attention);
    training_reader.boolean("sequence_parallel", training.sequence_parallel);
    const bool tokens_given = training_reader.number("tokens", training.tokens);
    training_reader.boolean("attention_flops", training.attention_flops);
    training_reader.number("global_batch", training.global_batch);
    training_reader.choice("accounting", training.accounting,
                           {AccountingConvention::zero, AccountingConvention::fp32_gradients}, accounting_name);
    training_reader.choice("method", training.method,
                           {FineTuningMethod::full, FineTuningMethod::lora, FineTuningMethod::qlora},
                           fine_tuning_method_name);
    read_lora(training_reader.get("lora"), training, errors);
    training_reader.choice("offload", training.offload, {Offload::none, Offload::optimizer, Offload::parameters},
                           offload_name);
    training_reader.choice("precision_recipe", training.precision_recipe,
                           {PrecisionRecipe::master_copy, PrecisionRecipe::pure, PrecisionRecipe::autocast},
                           precision_recipe_name);
    training_reader.boolean("paged_optimizer", training.paged_optimizer);
    training_reader.boolean("optimizer_in_backward", training.optimizer_in_backward);
    training_reader.choice("framework", training.framework,
                           {Framework::megatron, Framework::hugging_face, Framework::litgpt, Framework::torchtune},
                           framework_name);
    training_reader.finish();
    return tokens_given;
}

// Returns whether the GPU count was given (else a preset's run sets it).
bool read_parallel(ObjectReader& root, Scenario& scenario, std::vector<FieldError>& errors) {
    ParallelSettings& parallel = scenario.parallel;
    ObjectReader parallel_reader(root.get("parallel"), "parallel.", errors);
    const bool gpus_given = parallel_reader.number("gpus", parallel.gpus);
    parallel_reader.number("tensor", parallel.tensor);
    parallel_reader.number("pipeline", parallel.pipeline);
    parallel_reader.number("interleave", parallel.interleave);
    parallel_reader.number("context", parallel.context);
    parallel_reader.number("expert", parallel.expert);
    parallel_reader.number("first_stage_layers", parallel.first_stage_layers);
    parallel_reader.number("last_stage_layers", parallel.last_stage_layers);
    double zero_stage = 0;
    if (parallel_reader.number("zero_stage", zero_stage)) parallel.zero_stage = static_cast<int>(zero_stage);
    parallel_reader.finish();
    return gpus_given;
}

void read_hardware(ObjectReader& root, const ModelPreset* preset, Scenario& scenario, std::vector<FieldError>& errors) {
    HardwareSettings& hardware = scenario.hardware;
    ObjectReader hardware_reader(root.get("hardware"), "hardware.", errors);
    std::string gpu_id = preset && !preset->training_gpu.empty() ? std::string(preset->training_gpu) : "h100-sxm";
    const bool gpu_given = hardware_reader.text("gpu", gpu_id);
    if (gpu_id == "custom") {
        const std::string custom_name = message("hardware.custom.name", "Custom GPU");
        hardware.gpu =
            Gpu{"custom",    custom_name, 0, 0, 0, 0, message("hardware.custom.source", "entered by the user"),
                custom_name, custom_name, 0, 0, 0, 0, std::string()};
        if (!hardware_reader.has("memory_bytes"))
            hardware_reader.error("memory_bytes",
                                  message("scenario.custom_gpu.required", "is required for a custom GPU"));
        if (!hardware_reader.has("peak_flops"))
            hardware_reader.error("peak_flops",
                                  message("scenario.custom_gpu.required", "is required for a custom GPU"));
    } else if (const Gpu* gpu = find_gpu(gpu_id)) {
        hardware.gpu = *gpu;
    } else {
        std::string known;
        for (const auto& candidate : gpu_catalogue()) known += (known.empty() ? "" : ", ") + candidate.id;
        hardware_reader.error("gpu", message("scenario.gpu.unknown", "unknown GPU '{gpu}'; known: {known}, custom",
                                             {{"gpu", utf8::truncate(gpu_id, 40)}, {"known", known}}));
        hardware.gpu = *find_gpu("h100-sxm");
    }
    (void)gpu_given;
    hardware_reader.number("memory_bytes", hardware.gpu.memory_bytes);
    hardware_reader.number("peak_flops", hardware.gpu.peak_flops);
    hardware_reader.number("watts", hardware.gpu.watts);
    hardware_reader.number("utilization", hardware.utilization);
    hardware_reader.number("price_per_gpu_hour", hardware.price_per_gpu_hour);
    hardware_reader.finish();
}

void apply_model_defaults(const ModelPreset* preset, bool gpus_given, bool tokens_given, Scenario& scenario,
                          std::vector<FieldError>& errors) {
    ParallelSettings& parallel = scenario.parallel;
    // Defaults that depend on the model.
    const double total_params = scenario.model.architecture_assumed
                                    ? scenario.model.given_params
                                    : count_parameters(scenario.model.architecture).total;
    if (!gpus_given && preset && preset->training_gpus > 0) parallel.gpus = preset->training_gpus;
    // The method's default tokens (finetune.hpp): a pre-training run's for full, a fine-tuning run's for LoRA.
    if (tokens_given)
        name_given_tokens(scenario);
    else
        apply_default_tokens(scenario);
    const double max_parameters = find_field_limit("model.params")->max;
    if (total_params > max_parameters)
        errors.push_back(
            {"model.architecture",
             message("scenario.architecture.too_many_params", "describes {params} parameters; the limit is {max}",
                     {{"params", format_limit(total_params)}, {"max", format_limit(max_parameters)}})});
}

void check_layout(const Scenario& scenario, std::vector<FieldError>& errors) {
    const TrainingSettings& training = scenario.training;
    const ParallelSettings& parallel = scenario.parallel;
    // Parallel layout: G = data × tensor × pipeline × context (Narayanan et al. 2021, §2;
    // Megatron-Core's parallel_state: world size = TP × PP × CP × DP; docs/scenario.md, "Layout rules").
    const Architecture& a = scenario.model.architecture;
    const double model_parallel = parallel.tensor * parallel.pipeline;
    const double layout_product = model_parallel * parallel.context;
    const bool layout_divides = std::fmod(parallel.gpus, layout_product) == 0;
    if (!layout_divides && parallel.context == 1) {
        errors.push_back({"parallel.gpus", message("scenario.gpus.multiple",
                                                   "must be a multiple of tensor × pipeline ({model_parallel})",
                                                   {{"model_parallel", format_limit(model_parallel)}})});
    } else if (!layout_divides) {
        errors.push_back({"parallel.gpus",
                          message("scenario.gpus.layout_product",
                                  "tensor × pipeline × context = {product} does not divide {gpus} GPUs",
                                  {{"product", format_limit(layout_product)}, {"gpus", format_limit(parallel.gpus)}})});
    }
    if (parallel.context > 1 && std::fmod(training.sequence, 2 * parallel.context) != 0) {
        // Megatron-Core splits each sequence into 2·CP chunks, two per rank, so that causal
        // attention's work is balanced (docs/model.md §11).
        errors.push_back(
            {"parallel.context",
             message("scenario.context.divide_sequence",
                     "2 × context = {chunks} does not divide the sequence of {sequence} "
                     "tokens: each context-parallel rank takes two equal chunks",
                     {{"chunks", format_limit(2 * parallel.context)}, {"sequence", format_limit(training.sequence)}})});
    }
    if (parallel.expert > 1) {
        // Megatron-Core and DeepSpeed-MoE carve expert-parallel groups out of the data- and
        // context-parallel ranks; each holds experts / EP routed experts (docs/model.md §11).
        const double data_context = layout_divides ? parallel.gpus / layout_product * parallel.context : 0;
        if (a.experts <= 1)
            errors.push_back({"parallel.expert", message("scenario.expert.needs_experts",
                                                         "splits a mixture of experts' experts; this model has none")});
        else if (std::fmod(a.experts, parallel.expert) != 0)
            errors.push_back({"parallel.expert", message("scenario.expert.divide_experts",
                                                         "must divide the routed experts ({experts}) evenly",
                                                         {{"experts", format_limit(a.experts)}})});
        if (layout_divides && std::fmod(data_context, parallel.expert) != 0)
            errors.push_back(
                {"parallel.expert",
                 message("scenario.expert.divide_data_context",
                         "expert = {expert} does not divide data × context = {data_context}: "
                         "expert-parallel groups are carved out of those ranks",
                         {{"expert", format_limit(parallel.expert)}, {"data_context", format_limit(data_context)}})});
    }
}

void check_offload(const Scenario& scenario, std::vector<FieldError>& errors) {
    const TrainingSettings& training = scenario.training;
    const ParallelSettings& parallel = scenario.parallel;
    // DeepSpeed's offload_optimizer is a ZeRO option (stages 1–3), offload_param one of stage 3
    // (DeepSpeed configuration docs, "zero_optimization"; docs/model.md §16).
    if (training.offload == Offload::optimizer && parallel.zero_stage < 1)
        errors.push_back({"training.offload",
                          message("scenario.offload.needs_zero",
                                  "moves ZeRO's optimizer shard to the CPU: set parallel.zero_stage to 1, 2 or 3")});
    if (training.offload == Offload::parameters && parallel.zero_stage < 3)
        errors.push_back(
            {"training.offload",
             message("scenario.offload.needs_zero3",
                     "moves the weights to the CPU, which ZeRO-3 alone gathers back: set parallel.zero_stage to 3")});
}

void check_pipeline_stages(const Scenario& scenario, std::vector<FieldError>& errors) {
    const Architecture& a = scenario.model.architecture;
    const ParallelSettings& parallel = scenario.parallel;
    if (parallel.pipeline > a.layers)
        errors.push_back({"parallel.pipeline",
                          message("scenario.pipeline.exceed_layers", "cannot exceed the number of layers ({layers})",
                                  {{"layers", format_limit(a.layers)}})});
    else if (parallel.pipeline * parallel.interleave > a.layers &&
             !(parallel.first_stage_layers > 0 || parallel.last_stage_layers > 0))
        errors.push_back({"parallel.interleave", message("scenario.interleave.exceed_layers",
                                                         "needs at least one layer per virtual stage: pipeline × "
                                                         "interleave cannot exceed the layers ({layers})",
                                                         {{"layers", format_limit(a.layers)}})});
    const double uneven_first = parallel.first_stage_layers, uneven_last = parallel.last_stage_layers;
    if ((uneven_first > 0 || uneven_last > 0) &&
        parallel.pipeline <= 1 + (uneven_first > 0 && uneven_last > 0 ? 1 : 0)) {
        errors.push_back({uneven_first > 0 ? "parallel.first_stage_layers" : "parallel.last_stage_layers",
                          message("scenario.stage_layers.needs_pipeline",
                                  "needs a pipeline with more stages than the ones it sets")});
    } else if (uneven_first > 0 || uneven_last > 0) {
        // Megatron-Core: the other stages split the remaining layers evenly.
        const double middle_stages = parallel.pipeline - (uneven_first > 0 ? 1 : 0) - (uneven_last > 0 ? 1 : 0);
        const double middle_layers = a.layers - uneven_first - uneven_last;
        if (!(middle_layers >= middle_stages) || std::fmod(middle_layers, middle_stages) != 0)
            errors.push_back(
                {uneven_first > 0 ? "parallel.first_stage_layers" : "parallel.last_stage_layers",
                 message("scenario.stage_layers.even_rest",
                         "leaves {layers} layers for the other {stages} stages, which must share them evenly",
                         {{"layers", format_limit(middle_layers)}, {"stages", format_limit(middle_stages)}})});
        else if (parallel.interleave > middle_layers / middle_stages)
            // Llama 3 §3.3.2: with uneven ends a chunk may hold only the embedding or the output,
            // but every chunk of the other stages needs a layer.
            errors.push_back(
                {"parallel.interleave", message("scenario.interleave.exceed_stage_layers",
                                                "needs at least one layer per virtual stage: interleave "
                                                "cannot exceed the {layers} layers of a middle stage",
                                                {{"layers", format_limit(middle_layers / middle_stages)}})});
    }
    if (std::fmod(a.heads, parallel.tensor) != 0)
        errors.push_back(
            {"parallel.tensor", message("scenario.divide_heads", "must divide the attention heads ({heads}) evenly",
                                        {{"heads", format_limit(a.heads)}})});
}

}  // namespace

ScenarioReading read_scenario(const json::Value& document) {
    ScenarioReading reading;
    Scenario& scenario = reading.scenario;
    auto& errors = reading.errors;

    ObjectReader root(&document, "", errors);
    if (!document.is_object()) return reading;

    read_model(root.get("model"), scenario, errors);
    const ModelPreset* preset = find_model_preset(scenario.model.preset_id);
    read_inference(root, scenario, errors);
    const bool tokens_given = read_training(root, scenario, errors);
    const bool gpus_given = read_parallel(root, scenario, errors);
    read_hardware(root, preset, scenario, errors);
    root.get("$schema");  // allowed, ignored: editors use it
    root.finish();

    if (!reading.ok()) return reading;
    apply_model_defaults(preset, gpus_given, tokens_given, scenario, errors);
    check_layout(scenario, errors);
    check_offload(scenario, errors);
    check_pipeline_stages(scenario, errors);
    return reading;
}

ScenarioReading read_scenario_text(std::string_view json_text) {
    const json::ParseResult parsed = json::parse(json_text);
    if (!parsed.ok) {
        ScenarioReading reading;
        // A member given twice or nested too deep is named by its path, like any other field error.
        reading.errors.push_back(
            {parsed.path.empty() ? "scenario" : parsed.path,
             message("scenario.invalid_json", "is not valid JSON: {error}", {{"error", parsed.error}})});
        return reading;
    }
    return read_scenario(parsed.value);
}

void write_architecture_fields(json::Writer& w, const Architecture& a) {
    w.field("layers", a.layers).field("hidden", a.hidden).field("heads", a.heads);
    w.field("kv_heads", a.kv_heads).field("mlp", a.mlp).field("vocab", a.vocab);
    w.field_bool("gated_mlp", a.gated_mlp).field_bool("tied_embeddings", a.tied_embeddings);
    w.field("learned_positions", a.learned_positions).field_bool("biases", a.biases);
    w.field_bool("dropout", a.dropout).field("experts", a.experts).field("experts_per_token", a.experts_per_token);
    // The fields of real mixtures of experts and attention variants (docs/model.md §11–12) are written
    // only when in use: 0 is each one's default, and a model without them reads as before.
    for (const auto& [name, value] : {std::pair<const char*, double>{"shared_experts", a.shared_experts},
                                      {"expert_mlp", a.expert_mlp},
                                      {"dense_layers", a.dense_layers},
                                      {"expert_node_limit", a.expert_node_limit},
                                      {"head_dim", a.head_dim},
                                      {"q_lora_rank", a.q_lora_rank},
                                      {"kv_lora_rank", a.kv_lora_rank},
                                      {"nope_head_dim", a.nope_head_dim},
                                      {"rope_head_dim", a.rope_head_dim},
                                      {"v_head_dim", a.v_head_dim},
                                      {"sliding_window", a.sliding_window},
                                      {"sliding_window_layers", a.sliding_window_layers}})
        if (value != 0) w.field(name, value);
}

std::string run_scenario_json(const ModelPreset& preset, const TrainingRun& run) {
    json::Writer w;
    w.begin_object();
    w.key("model").begin_object().field("preset", preset.id).end_object();
    w.key("training").begin_object();
    w.field("sequence", run.sequence).field("micro_batch", run.micro_batch);
    w.field("global_batch", run.global_batch).field("tokens", run.tokens);
    w.field("recompute", run.recompute.empty() ? std::string_view("none") : run.recompute);
    w.field_bool("sequence_parallel", run.sequence_parallel);
    w.field_bool("attention_flops", run.attention_flops);
    w.end_object();
    w.key("parallel").begin_object();
    w.field("gpus", run.gpus).field("tensor", run.tensor).field("pipeline", run.pipeline);
    w.field("interleave", run.interleave).field("context", run.context).field("expert", run.expert);
    w.field("first_stage_layers", run.first_stage_layers).field("last_stage_layers", run.last_stage_layers);
    w.key("zero_stage").integer(run.zero_stage);
    w.end_object();
    w.key("hardware").begin_object();
    w.field("gpu", run.gpu);
    // The run's own achieved utilisation where the paper states it (the middle of a range); else, with
    // published GPU-hours, the utilisation they imply: the hardware FLOPs (6 × active parameters ×
    // tokens, × 8/6 with full recompute, docs/model.md §6) over GPU-hours × peak (docs/model.md §14).
    if (run.published_mfu_high > 0) {
        w.field("utilization", (run.published_mfu_low + run.published_mfu_high) / 2);
    } else if (run.published_gpu_hours > 0) {
        const Gpu* gpu = find_gpu(run.gpu);
        const double recompute = run.recompute == "full" ? 8.0 / 6.0 : 1.0;
        const double flops = 6 * count_parameters(preset.architecture).active * run.tokens * recompute;
        if (gpu) w.field("utilization", flops / (run.published_gpu_hours * 3600 * gpu->peak_flops));
    }
    w.end_object();
    w.end_object();
    return w.take();
}

void write_gpu_interconnect(json::Writer& w, const Gpu& gpu) {
    w.field("short_name", gpu.short_name).field("model_name", gpu.model_name);
    w.field("gpus_per_node", gpu.gpus_per_node).field("intra_node_bandwidth", gpu.intra_node_bandwidth);
    w.field("inter_node_bandwidth", gpu.inter_node_bandwidth).field("pcie_bandwidth", gpu.pcie_bandwidth);
    w.field("interconnect_source", gpu.interconnect_source);
}

std::string write_scenario(const Scenario& scenario) {
    json::Writer w;
    w.begin_object();

    w.key("model").begin_object();
    const ModelChoice& model = scenario.model;
    if (!model.name.empty()) w.field("name", model.name);
    if (model.architecture_assumed) {
        w.field("params", model.given_params);
    } else {
        if (!model.preset_id.empty()) w.field("preset", model.preset_id);
        if (model.preset_id.empty() || model.architecture_overridden) {
            w.key("architecture").begin_object();
            write_architecture_fields(w, model.architecture);
            w.end_object();
        }
    }
    w.end_object();

    const InferenceSettings& inference = scenario.inference;
    w.key("inference").begin_object();
    w.field("precision", format_name(inference.weights)).field("kv_precision", format_name(inference.kv_cache));
    w.field("batch", inference.batch).field("context", inference.context);
    w.end_object();

    const TrainingSettings& training = scenario.training;
    w.key("training").begin_object();
    w.field("precision", format_name(training.precision)).field("optimizer", optimizer_name(training.optimizer));
    w.field("micro_batch", training.micro_batch).field("sequence", training.sequence);
    w.field("recompute", recompute_name(training.recompute));
    w.field_bool("flash_attention", training.flash_attention);
    w.field_bool("sequence_parallel", training.sequence_parallel);
    w.field("tokens", training.tokens).field_bool("attention_flops", training.attention_flops);
    w.field("global_batch", training.global_batch).field("accounting", accounting_name(training.accounting));
    w.field("offload", offload_name(training.offload));
    w.field("method", fine_tuning_method_name(training.method));
    // Written only when not the default, so scenarios written before them read back the same.
    if (training.precision_recipe != PrecisionRecipe::master_copy)
        w.field("precision_recipe", precision_recipe_name(training.precision_recipe));
    if (training.paged_optimizer) w.field_bool("paged_optimizer", true);
    if (training.optimizer_in_backward) w.field_bool("optimizer_in_backward", true);
    if (training.framework != Framework::megatron) w.field("framework", framework_name(training.framework));
    if (training.method != FineTuningMethod::full) {
        w.key("lora").begin_object().field("rank", training.lora_rank).key("targets").begin_array();
        for (int index = 0; index < lora_target_count; ++index)
            if (training.lora_targets & (1u << index)) w.string(lora_target_name(index));
        w.end_array().field("base", base_storage_name(training.base_storage)).end_object();
    }
    w.end_object();

    const ParallelSettings& parallel = scenario.parallel;
    w.key("parallel").begin_object();
    w.field("gpus", parallel.gpus).field("tensor", parallel.tensor).field("pipeline", parallel.pipeline);
    w.field("interleave", parallel.interleave);
    w.field("context", parallel.context).field("expert", parallel.expert);
    w.field("first_stage_layers", parallel.first_stage_layers).field("last_stage_layers", parallel.last_stage_layers);
    w.key("zero_stage").integer(parallel.zero_stage);
    w.end_object();

    const HardwareSettings& hardware = scenario.hardware;
    w.key("hardware").begin_object();
    w.field("gpu", hardware.gpu.id);
    // Catalogue values stay implicit; custom values and overrides are written out.
    const Gpu* catalogue_gpu = find_gpu(hardware.gpu.id);
    if (!catalogue_gpu || catalogue_gpu->memory_bytes != hardware.gpu.memory_bytes)
        w.field("memory_bytes", hardware.gpu.memory_bytes);
    if (!catalogue_gpu || catalogue_gpu->peak_flops != hardware.gpu.peak_flops)
        w.field("peak_flops", hardware.gpu.peak_flops);
    if (!catalogue_gpu || catalogue_gpu->watts != hardware.gpu.watts) w.field("watts", hardware.gpu.watts);
    w.field("utilization", hardware.utilization).field("price_per_gpu_hour", hardware.price_per_gpu_hour);
    w.end_object();

    w.end_object();
    return w.take();
}

}  // namespace trainscope
