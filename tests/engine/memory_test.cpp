#include <string>

#include "catch_include.hpp"
#include "engine/model/estimate.hpp"
#include "engine/model/memory.hpp"
#include "engine/model/model.hpp"
#include "engine/model/scenario.hpp"
#include "estimate_support.hpp"
#include "fit_support.hpp"

using namespace trainscope;
using trainscope::testing::estimate_of;
using trainscope::testing::number_at;

namespace {

double per_gpu_model_states_bytes(const json::Value& estimate) {
    return number_at(estimate, "training.per_gpu.weights") + number_at(estimate, "training.per_gpu.gradients") +
           number_at(estimate, "training.per_gpu.master_weights") +
           number_at(estimate, "training.per_gpu.optimizer_states");
}

std::string zero_scenario(int stage) {
    return R"({"model":{"params":7.5e9},"parallel":{"gpus":64,"zero_stage":)" + std::to_string(stage) + "}}";
}

}  // namespace

TEST_CASE("ZeRO's 7.5B model on 64 GPUs needs 120, 31.4, 16.6 and 1.9 GB per GPU by stage", "[memory][published]") {
    // Rajbhandari et al. 2019 (ZeRO), Figure 1: Ψ = 7.5B, K = 12, N_d = 64.
    CHECK(per_gpu_model_states_bytes(estimate_of(zero_scenario(0))) == Approx(120e9).epsilon(0.01));
    CHECK(per_gpu_model_states_bytes(estimate_of(zero_scenario(1))) == Approx(31.4e9).epsilon(0.01));
    CHECK(per_gpu_model_states_bytes(estimate_of(zero_scenario(2))) == Approx(16.6e9).epsilon(0.01));
    CHECK(per_gpu_model_states_bytes(estimate_of(zero_scenario(3))) == Approx(1.88e9).epsilon(0.01));
}

TEST_CASE("the estimate gives the model states per GPU as one figure, the sum of its four parts", "[memory]") {
    // The page's sharding section and quiz question 10 read this one field (1.88 GB at ZeRO-3).
    for (int stage = 0; stage <= 3; ++stage) {
        const json::Value estimate = estimate_of(zero_scenario(stage));
        CHECK(number_at(estimate, "training.per_gpu.model_states") ==
              Approx(per_gpu_model_states_bytes(estimate)).epsilon(1e-12));
    }
    CHECK(number_at(estimate_of(zero_scenario(3)), "training.per_gpu.model_states") == Approx(1.875e9).epsilon(1e-9));
}

TEST_CASE("mixed-precision Adam costs 2 + 2 + 4 + 8 = 16 bytes per parameter", "[memory][published]") {
    // ZeRO §3.1 and the lesson's "go deeper": BF16 weights and gradients, FP32 master, two FP32 moments.
    const json::Value estimate = estimate_of(R"({"model":{"preset":"llama3-70b"}})");
    CHECK(number_at(estimate, "training.bytes_per_param.weights") == 2);
    CHECK(number_at(estimate, "training.bytes_per_param.gradients") == 2);
    CHECK(number_at(estimate, "training.bytes_per_param.master_weights") == 4);
    CHECK(number_at(estimate, "training.bytes_per_param.optimizer_states") == 8);
    CHECK(number_at(estimate, "training.bytes_per_param.total") == 16);
    CHECK(number_at(estimate, "inference.bytes_per_param") == 2);
    CHECK(number_at(estimate, "ratio_training_to_inference") == 8);
}

TEST_CASE("bytes per parameter follow docs/model.md's table for every optimizer and precision", "[memory][published]") {
    // docs/model.md §2 (ZeRO §3.1; Dettmers et al. 2021; Shazeer & Stern 2018).
    struct Row {
        const char* precision;
        const char* optimizer;
        double total;
        double tolerance;
    };
    const Row rows[] = {
        {"bf16", "adamw", 16, 0},        {"fp16", "adam", 16, 0}, {"fp32", "adam", 16, 0},
        {"bf16", "sgd_momentum", 12, 0}, {"bf16", "sgd", 8, 0},   {"bf16", "adam_8bit", 10, 0.01},
        {"bf16", "adafactor", 8, 0.01},
    };
    for (const Row& row : rows) {
        INFO(row.precision << " " << row.optimizer);
        const json::Value estimate =
            estimate_of(std::string(R"({"model":{"preset":"llama3-8b"},"training":{"precision":")") + row.precision +
                        R"(","optimizer":")" + row.optimizer + R"("}})");
        CHECK(number_at(estimate, "training.bytes_per_param.total") == Approx(row.total).epsilon(row.tolerance));
    }
    const json::Value fp32 = estimate_of(R"({"training":{"precision":"fp32"}})");
    CHECK(number_at(fp32, "training.bytes_per_param.master_weights") == 0);
    CHECK(number_at(fp32, "training.bytes_per_param.weights") == 4);
}

TEST_CASE("running a 70B model takes about 141 GB: two 80 GB GPUs", "[memory][published]") {
    // docs/model.md §5 and the lesson's opening: 70.6e9 × 2 B ≈ 141 GB.
    const json::Value estimate = estimate_of(R"({"model":{"preset":"llama3-70b"},"hardware":{"gpu":"h100-sxm"}})");
    CHECK(number_at(estimate, "inference.weights") == Approx(141e9).epsilon(0.005));
    CHECK(number_at(estimate, "inference.min_gpus") == 2);
}

TEST_CASE("training a 70B model needs over a terabyte before activations", "[memory][published]") {
    // The lesson: "For a 70B model that's over a terabyte" (16 B × 70.55e9 = 1.13 TB).
    const json::Value estimate = estimate_of(R"({"model":{"preset":"llama3-70b"}})");
    CHECK(number_at(estimate, "training.model_states.total") == Approx(16 * 70.55e9).epsilon(0.001));
    CHECK(number_at(estimate, "training.model_states.total") > 1e12);
    // ceil(1.129 TB / 84.1 GB): an H100 reports 81,559 MiB (85.5 GB), less the CUDA context's 1,343 MiB.
    CHECK(number_at(estimate, "training.min_gpus_for_states") == 14);
}

TEST_CASE("the KV cache follows 2·L·b·s·a_kv·(h/a)·bytes", "[memory]") {
    // docs/model.md §5 for Llama 3 70B: L 80, a_kv 8, head size 128, batch 4, 8192 tokens, bf16.
    const json::Value estimate =
        estimate_of(R"({"model":{"preset":"llama3-70b"},"inference":{"batch":4,"context":8192}})");
    CHECK(number_at(estimate, "inference.kv_cache") == Approx(2.0 * 80 * 4 * 8192 * 8 * 128 * 2));
}

namespace {

TrainingSettings gpt_training(double sequence, double micro_batch, Recompute recompute, bool sequence_parallel) {
    TrainingSettings training;
    training.sequence = sequence;
    training.micro_batch = micro_batch;
    training.recompute = recompute;
    training.flash_attention = false;
    training.sequence_parallel = sequence_parallel;
    return training;
}

ParallelSettings tensor_parallel(double t) {
    ParallelSettings parallel;
    parallel.tensor = t;
    parallel.gpus = t;
    return parallel;
}

}  // namespace

TEST_CASE("a GPT block keeps 34·sbh + 5·a·s²·b bytes of activations", "[activations][published]") {
    // Korthikanti et al. 2022, §4.1 and Table 2 (no parallelism, no recompute).
    const Architecture gpt3 = find_model_preset("gpt3-175b")->architecture;
    const double s = 2048, b = 1, h = gpt3.hidden, a = gpt3.heads;
    const ActivationBytes bytes =
        training_activations(gpt3, gpt_training(s, b, Recompute::none, false), tensor_parallel(1));
    CHECK(bytes.per_layer == Approx(s * b * h * (34 + 5 * a * s / h)));
    CHECK(bytes.layers == Approx(gpt3.layers * bytes.per_layer));
}

TEST_CASE("tensor parallelism splits all but 10·sbh of a GPT block's activations", "[activations][published]") {
    // Korthikanti et al. 2022, Table 2: sbh·(10 + 24/t + 5·a·s/(h·t)).
    const Architecture gpt3 = find_model_preset("gpt3-175b")->architecture;
    const double s = 2048, b = 2, h = gpt3.hidden, a = gpt3.heads, t = 8;
    const ActivationBytes bytes =
        training_activations(gpt3, gpt_training(s, b, Recompute::none, false), tensor_parallel(t));
    CHECK(bytes.per_layer == Approx(s * b * h * (10 + 24 / t + 5 * a * s / (h * t))));
}

TEST_CASE("sequence parallelism splits the rest, and selective recompute drops the scores",
          "[activations][published]") {
    // Korthikanti et al. 2022, Table 2: sbh·(34 + 5·a·s/h)/t, and 34·sbh/t with selective recompute.
    const Architecture gpt3 = find_model_preset("gpt3-175b")->architecture;
    const double s = 2048, b = 1, h = gpt3.hidden, a = gpt3.heads, t = 8;
    CHECK(training_activations(gpt3, gpt_training(s, b, Recompute::none, true), tensor_parallel(t)).per_layer ==
          Approx(s * b * h * (34 + 5 * a * s / h) / t));
    CHECK(training_activations(gpt3, gpt_training(s, b, Recompute::selective, true), tensor_parallel(t)).per_layer ==
          Approx(34 * s * b * h / t));
    CHECK(training_activations(gpt3, gpt_training(s, b, Recompute::selective, false), tensor_parallel(t)).per_layer ==
          Approx(s * b * h * (10 + 24 / t)));
}

TEST_CASE("full recompute keeps only each layer's 16-bit input", "[activations][published]") {
    // Korthikanti et al. 2022, Table 2: 2·sbh per layer (÷ t with sequence parallelism).
    const Architecture gpt3 = find_model_preset("gpt3-175b")->architecture;
    const double s = 2048, b = 4, h = gpt3.hidden;
    CHECK(training_activations(gpt3, gpt_training(s, b, Recompute::full, false), tensor_parallel(8)).per_layer ==
          Approx(2 * s * b * h));
    CHECK(training_activations(gpt3, gpt_training(s, b, Recompute::full, true), tensor_parallel(8)).per_layer ==
          Approx(2 * s * b * h / 8));
}

TEST_CASE("a Llama block without dropout keeps (12 + 4·a_kv/a)·sbh + 6·sbf + 2·a·s²·b", "[activations]") {
    // Derived as Korthikanti §4.1 does, for RMSNorm, SwiGLU of size f, grouped-query attention, no dropout.
    const Architecture llama = find_model_preset("llama3-70b")->architecture;
    TrainingSettings training = gpt_training(4096, 1, Recompute::none, false);
    const double s = 4096, h = llama.hidden, f = llama.mlp, a = llama.heads, r = llama.kv_heads / llama.heads;
    CHECK(training_activations(llama, training, tensor_parallel(1)).per_layer ==
          Approx(s * h * (12 + 4 * r) + 6 * s * f + 2 * a * s * s));
    training.flash_attention = true;  // Dao et al. 2022: the s×s scores are never stored
    CHECK(training_activations(llama, training, tensor_parallel(1)).per_layer ==
          Approx(s * h * (12 + 4 * r) + 6 * s * f));
}

TEST_CASE("logits for the loss are kept in FP32: 4·s·b·V bytes", "[activations]") {
    // docs/model.md §4 (output layer).
    const json::Value estimate =
        estimate_of(R"({"model":{"preset":"llama3-8b"},"training":{"sequence":8192,"micro_batch":2}})");
    CHECK(number_at(estimate, "training.per_gpu.logits") == Approx(4.0 * 8192 * 2 * 128256));
}

TEST_CASE("the first pipeline stage keeps L layers' worth of activations whatever p", "[activations][published]") {
    // Korthikanti et al. 2022, §4.2.3 (1F1B schedule).
    const json::Value one_stage =
        estimate_of(R"({"model":{"preset":"llama3-70b"},"parallel":{"gpus":1,"pipeline":1}})");
    const json::Value four_stages =
        estimate_of(R"({"model":{"preset":"llama3-70b"},"parallel":{"gpus":4,"pipeline":4}})");
    CHECK(number_at(four_stages, "training.per_gpu.activations") ==
          Approx(number_at(one_stage, "training.per_gpu.activations")));
}

TEST_CASE("when activations overflow a GPU, the note suggests only remedies not yet used", "[activations]") {
    const json::Value flash_on =
        estimate_of(R"({"model":{"preset":"llama3-70b"},"training":{"flash_attention":true}})");
    REQUIRE(number_at(flash_on, "training.min_gpus") == -1);
    const std::string note = flash_on.find("notes")->items.at(0).text;
    CHECK(note.find("checkpointing") != std::string::npos);
    CHECK(note.find("FlashAttention") == std::string::npos);

    const json::Value flash_off =
        estimate_of(R"({"model":{"preset":"llama3-70b"},"training":{"flash_attention":false,"micro_batch":4}})");
    const std::string advice = flash_off.find("notes")->items.at(0).text;
    CHECK(advice.find("FlashAttention") != std::string::npos);
    CHECK(advice.find("micro-batch") != std::string::npos);

    const json::Value full = estimate_of(R"({"model":{"preset":"llama3-70b"},"training":{"recompute":"full"}})");
    CHECK(number_at(full, "training.min_gpus") > 0);
    CHECK(full.find("notes")->items.empty());
}

TEST_CASE("GPT-2 1.5B needs 3 GB for 16-bit weights but 24 GB of model states to train", "[memory][published]") {
    // Rajbhandari et al. 2019 (ZeRO), §3.1: "a GPT-2 model with 1.5B parameters ... 3GB" of
    // 16-bit weights, yet at least 24 GB of model states with mixed-precision Adam.
    const json::Value estimate = estimate_of(R"({"model":{"params":1.5e9}})");
    CHECK(number_at(estimate, "inference.weights") == Approx(3e9));
    CHECK(number_at(estimate, "training.model_states.total") == Approx(24e9));
}

TEST_CASE("a mixture of experts keeps MLP activations for each of the k experts a token visits", "[activations]") {
    // Jiang et al. 2024 (Mixtral), §2.1: every token is processed by k = 2 of the 8 experts.
    const Architecture mixtral = find_model_preset("mixtral-8x7b")->architecture;
    Architecture one_expert = mixtral;
    one_expert.experts_per_token = 1;
    const TrainingSettings training = gpt_training(4096, 1, Recompute::selective, false);
    const double s = 4096, f = mixtral.mlp;
    CHECK(training_activations(mixtral, training, tensor_parallel(1)).per_layer -
              training_activations(one_expert, training, tensor_parallel(1)).per_layer ==
          Approx(6 * s * f));
}

TEST_CASE("a trillion parameters fully sharded over 1024 GPUs leave about 16 GB of states on each",
          "[memory][published]") {
    // Rajbhandari et al. 2019 (ZeRO), §1: 16 TB of model states for 1T parameters, ~16 GB per GPU on 1024.
    const json::Value estimate = estimate_of(R"({"model":{"params":1e12},"parallel":{"gpus":1024,"zero_stage":3}})");
    CHECK(number_at(estimate, "training.model_states.total") == Approx(16e12));
    CHECK(per_gpu_model_states_bytes(estimate) == Approx(16e9).epsilon(0.025));
}

TEST_CASE("an interleaved pipeline keeps L·(1 + (p−1)/(p·m)) layers on its first stage", "[activations][published]") {
    // Korthikanti et al. 2022, §4.2.3: interleaving with m virtual stages per GPU raises the first
    // stage's in-flight activations by (p−1)/(p·m) over the plain 1F1B schedule's L layers.
    const json::Value plain = estimate_of(R"({"model":{"preset":"gpt3-175b"},"parallel":{"gpus":8,"pipeline":8}})");
    const json::Value interleaved =
        estimate_of(R"({"model":{"preset":"gpt3-175b"},"parallel":{"gpus":8,"pipeline":8,"interleave":3}})");
    CHECK(number_at(interleaved, "training.per_gpu.activations") ==
          Approx(number_at(plain, "training.per_gpu.activations") * (1 + 7.0 / (8 * 3))));
    const json::Value too_many =
        estimate_of(R"({"model":{"preset":"gpt2-124m"},"parallel":{"gpus":4,"pipeline":4,"interleave":4}})");
    CHECK(trainscope::testing::has_error_for(too_many, "parallel.interleave"));
}

TEST_CASE("the overflow note says what the step's fullest moment holds, not always 'activations alone'",
          "[activations]") {
    // Llama 3 70B on H100s without recompute: the FP32 logits and ZeRO-3's gathered output matrix
    // sit on top of the activations where the backward pass begins (docs/model.md §9).
    const json::Value mixed = estimate_of(R"({"model":{"preset":"llama3-70b"}})");
    REQUIRE(number_at(mixed, "training.min_gpus") == -1);
    const std::string note = mixed.find("notes")->items.at(0).text;
    CHECK(note.find("activations alone") == std::string::npos);
    CHECK(note.find("activations") != std::string::npos);
    CHECK(note.find("logits") != std::string::npos);
    CHECK(note.find("full weights of the layers at work") != std::string::npos);
    CHECK(note.find("85.5 GB") != std::string::npos);  // the H100's 81,559 MiB as the engine writes bytes

    // Two enormous layers on a 24 GB GPU: gathered weights and full-layer gradients overflow, not
    // activations, so the note names them and does not offer shorter sequences.
    const json::Value wide =
        estimate_of(R"({"model":{"architecture":{"layers":2,"hidden":65536,"heads":64,"mlp":1000000,"vocab":1000000}},)"
                    R"("training":{"recompute":"full","sequence":128},"hardware":{"gpu":"rtx-4090"}})");
    REQUIRE(number_at(wide, "training.min_gpus") == -1);
    const std::string wide_note = wide.find("notes")->items.at(0).text;
    CHECK(wide_note.find("full weights of the layers at work") != std::string::npos);
    CHECK(wide_note.find("whole gradients before they are split up") != std::string::npos);
    CHECK(wide_note.find("activations alone") == std::string::npos);
    CHECK(wide_note.find("shorter sequences") == std::string::npos);
    CHECK(wide_note.find("tensor parallelism") != std::string::npos);
}

namespace {

std::string overflow_note_at(int zero_stage, std::string_view shown_controls = trainscope::every_control) {
    const ScenarioReading reading = read_scenario_text(R"({"model":{"preset":"llama3-70b"},"parallel":{"zero_stage":)" +
                                                       std::to_string(zero_stage) + "}}");
    REQUIRE(reading.ok());
    const Estimate result = estimate(reading.scenario, StepDetail::peak, EstimateParts{}, shown_controls);
    REQUIRE(result.training.min_gpus == -1);
    REQUIRE(result.notes.size() == 1);
    return result.notes[0];
}

bool says(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("at ZeRO stage 0 the overflow note says more GPUs split no states and a ZeRO stage would", "[activations]") {
    // docs/model.md §11: at stage 0 every data-parallel GPU keeps whole model states.
    const std::string note = overflow_note_at(0);
    INFO(note);
    CHECK(note.rfind("At ZeRO stage 0 every GPU keeps all the weights, gradients and optimizer states", 0) == 0);
    CHECK(says(note, "a higher ZeRO stage splits them"));
    CHECK(says(note, "Even with them split over any number of GPUs"));
    CHECK_FALSE(says(note, "data-parallel"));
    CHECK_FALSE(says(note, "shard"));
}

TEST_CASE("at ZeRO stages 1, 2 and 3 the overflow note says what that stage splits", "[activations]") {
    CHECK(overflow_note_at(1).rfind("At ZeRO stage 1 more GPUs split only the optimizer states; ZeRO stage 3", 0) == 0);
    CHECK(overflow_note_at(2).rfind("At ZeRO stage 2 more GPUs split the gradients and optimizer states;", 0) == 0);
    const std::string three = overflow_note_at(3);
    CHECK(three.rfind("At ZeRO stage 3 more GPUs split the weights, gradients and optimizer states.", 0) == 0);
    CHECK(says(three, "that no split reaches (activations "));
}

TEST_CASE("the overflow note names only the controls shown, and no ZeRO stage when that control is hidden",
          "[activations]") {
    // A sections="time" widget: the model picker, GPUs, tokens and hardware, no memory controls.
    const std::string time_only = "model.preset parallel.gpus training.tokens hardware.gpu hardware.utilization";
    for (int stage = 0; stage <= 3; ++stage) {
        const std::string note = overflow_note_at(stage, time_only);
        INFO(note);
        CHECK_FALSE(says(note, "ZeRO"));
        CHECK_FALSE(says(note, "checkpointing"));
        CHECK_FALSE(says(note, "tensor parallelism"));
        CHECK_FALSE(says(note, "Shrink it"));
        CHECK(says(note, "no number of GPUs makes training fit."));
    }
    const std::string some = overflow_note_at(0, "training.sequence parallel.zero_stage");
    CHECK(says(some, "Shrink it with shorter sequences."));
    CHECK(says(some, "At ZeRO stage 0"));
}

// docs/model.md §17: the inverse search asks for a shape's three recompute choices at once.
TEST_CASE("the three recompute choices' activations at once are training_activations' for each, bit for bit",
          "[memory][fit]") {
    int compared = 0;
    for (const ModelPreset& preset : model_presets())
        for (const char* training : {R"({})", R"({"flash_attention":false,"global_batch":64})",
                                     R"({"sequence_parallel":false,"precision":"fp32"})"})
            testing::for_each_grid_layout(preset.id, training, [&](const Scenario& s) {
                if (s.training.recompute != Recompute::none || s.parallel.zero_stage != 0) return;
                ActivationBytes at_once[3];
                training_activations_by_recompute(s.model.architecture, s.training, s.parallel, at_once);
                for (const Recompute r : {Recompute::none, Recompute::selective, Recompute::full}) {
                    TrainingSettings training_r = s.training;
                    training_r.recompute = r;
                    const ActivationBytes one = training_activations(s.model.architecture, training_r, s.parallel);
                    const ActivationBytes& both = at_once[static_cast<int>(r)];
                    CHECK(both.per_layer == one.per_layer);
                    CHECK(both.layers == one.layers);
                    CHECK(both.logits == one.logits);
                    CHECK(both.micro_batches == one.micro_batches);
                    CHECK(both.in_flight == one.in_flight);
                    ++compared;
                }
            });
    CHECK(compared > 1000);
}
