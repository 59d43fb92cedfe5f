// The page's view (src/engine/api/view.hpp, docs/scenario.md "The page's view"): one call per
// input returns what estimate_json, the one-copy reference and step_timeline_columns return on
// their own. The expected values are those functions' own answers: the view must not differ.
#include <string>
#include <vector>

#include "catch_include.hpp"
#include "engine/api/api.hpp"
#include "engine/api/view.hpp"
#include "engine/text/json.hpp"
#include "estimate_support.hpp"

using namespace trainscope;
using trainscope::testing::has_error_for;

namespace {

json::Value parse_view(const std::string& text) {
    const json::ParseResult parsed = json::parse(text);
    REQUIRE(parsed.ok);
    return parsed.value;
}

std::string normalised(const std::string& json_text) {
    const json::ParseResult parsed = json::parse(json_text);
    REQUIRE(parsed.ok);
    return json::serialize(parsed.value);
}

std::string member(const json::Value& value, std::string_view path) {
    const json::Value* found = value.find_path(path);
    INFO("path " << std::string(path));
    REQUIRE(found != nullptr);
    return json::serialize(*found);
}

// estimate_json's answer without the members only some sections ask the view for (EstimateParts).
const std::vector<std::string> curve_members = {"compute.time_over_gpus_communication", "communication.global_batch",
                                                "communication.stops_paying_gpus",
                                                "communication.stops_paying_dominant", "communication.summary"};
const std::vector<std::string> schedule_members = {"communication.schedule"};

void erase_path(json::Value& value, std::string_view dotted_path) {
    const std::size_t dot = dotted_path.find('.');
    const std::string_view head = dotted_path.substr(0, dot);
    auto& members = value.members;
    for (auto it = members.begin(); it != members.end(); ++it) {
        if (it->first != head) continue;
        if (dot == std::string_view::npos)
            members.erase(it);
        else
            erase_path(it->second, dotted_path.substr(dot + 1));
        return;
    }
    FAIL("no member " << std::string(dotted_path));
}

std::string without(const std::string& json_text, const std::vector<std::vector<std::string>>& groups) {
    json::Value value = parse_view(json_text);
    for (const auto& group : groups)
        for (const auto& path : group) erase_path(value, path);
    return json::serialize(value);
}

ViewRequest every_part() {
    ViewRequest request;
    request.communication_curve = true;
    request.communication_schedule = true;
    return request;
}

// Llama 3 70B on 64 GPUs with tensor, pipeline and ZeRO sharding: every parallel setting differs from one copy.
const std::string sharded =
    R"({"model":{"preset":"llama3-70b"},"parallel":{"gpus":64,"tensor":8,"pipeline":2,"zero_stage":3}})";

}  // namespace

TEST_CASE("the view's estimate is estimate_json's answer for the same scenario when every part is asked for",
          "[view]") {
    std::vector<double> numbers;
    const json::Value view = parse_view(view_json(sharded, every_part(), numbers));
    CHECK(member(view, "estimate") == normalised(estimate_json(sharded)));
}

TEST_CASE("the view's estimate leaves out the communication curve and schedule unless asked, and only them", "[view]") {
    std::vector<double> numbers;
    const json::Value view = parse_view(view_json(sharded, {}, numbers));
    CHECK(member(view, "estimate") == without(estimate_json(sharded), {curve_members, schedule_members}));
}

TEST_CASE("the view's communication curve, asked alone, is estimate_json's and brings no schedule", "[view]") {
    ViewRequest request;
    request.communication_curve = true;
    std::vector<double> numbers;
    const json::Value view = parse_view(view_json(sharded, request, numbers));
    CHECK(member(view, "estimate") == without(estimate_json(sharded), {schedule_members}));
    CHECK(view.find_path("estimate.compute.time_over_gpus_communication")->items.size() > 1);
}

TEST_CASE("the view's communication schedule, asked alone, is estimate_json's and brings no curve", "[view]") {
    ViewRequest request;
    request.communication_schedule = true;
    std::vector<double> numbers;
    const json::Value view = parse_view(view_json(sharded, request, numbers));
    CHECK(member(view, "estimate") == without(estimate_json(sharded), {curve_members}));
    CHECK(!view.find_path("estimate.communication.schedule")->items.empty());
}

TEST_CASE("the view's reference is the same scenario on one GPU with no tensor, pipeline or ZeRO sharding", "[view]") {
    // docs/page.md, section 1: "one whole copy" of the model, the same scenario unsharded on one GPU.
    const std::string one_copy =
        R"({"model":{"preset":"llama3-70b"},"parallel":{"gpus":1,"tensor":1,"pipeline":1,"zero_stage":0}})";
    std::vector<double> numbers;
    const json::Value view = parse_view(view_json(sharded, every_part(), numbers));
    // Section 1 draws its memory: the reference never carries the parts other sections draw.
    CHECK(member(view, "reference.estimate") == without(estimate_json(one_copy), {curve_members, schedule_members}));
    CHECK(view.find_path("reference.key")->text.size() == 16);
}

TEST_CASE("a reference the caller already holds is not computed again", "[view]") {
    std::vector<double> numbers;
    const json::Value first = parse_view(view_json(sharded, {}, numbers));
    ViewRequest request;
    request.known_reference = first.find_path("reference.key")->text;
    // Another ZeRO stage and GPU count: one whole copy is unchanged.
    const std::string other =
        R"({"model":{"preset":"llama3-70b"},"parallel":{"gpus":128,"tensor":8,"pipeline":2,"zero_stage":1}})";
    const json::Value second = parse_view(view_json(other, request, numbers));
    CHECK(second.find_path("reference.unchanged") != nullptr);
    CHECK(second.find_path("reference.estimate") == nullptr);
    CHECK(second.find_path("reference.key")->text == request.known_reference);
}

TEST_CASE("a reference whose model changed is computed again, with another key", "[view]") {
    std::vector<double> numbers;
    const json::Value first = parse_view(view_json(sharded, {}, numbers));
    ViewRequest request;
    request.known_reference = first.find_path("reference.key")->text;
    const std::string other_model =
        R"({"model":{"preset":"llama3-8b"},"parallel":{"gpus":64,"tensor":8,"pipeline":2,"zero_stage":3}})";
    const json::Value second = parse_view(view_json(other_model, request, numbers));
    CHECK(second.find_path("reference.key")->text != request.known_reference);
    CHECK(second.find_path("reference.estimate") != nullptr);
}

TEST_CASE("a scenario that already is one whole copy is its own reference", "[view]") {
    std::vector<double> numbers;
    const json::Value view =
        parse_view(view_json(R"({"model":{"preset":"llama3-8b"},"parallel":{"gpus":1}})", {}, numbers));
    CHECK(view.find_path("reference.same") != nullptr);
    CHECK(view.find_path("reference.estimate") == nullptr);
}

TEST_CASE("the view's step is step_timeline_columns' answer, numbers included", "[view]") {
    ViewRequest request;
    request.step = true;
    std::vector<double> numbers;
    const json::Value view = parse_view(view_json(sharded, request, numbers));
    std::vector<double> expected_numbers;
    const std::string expected = step_timeline_columns(sharded, expected_numbers);
    CHECK(member(view, "step") == normalised(expected));
    CHECK(numbers == expected_numbers);
}

TEST_CASE("a view asked without the step carries no step and no numbers", "[view]") {
    std::vector<double> numbers = {1, 2, 3};  // left from a previous call: must be cleared
    const json::Value view = parse_view(view_json(sharded, {}, numbers));
    CHECK(view.find("step") == nullptr);
    CHECK(numbers.empty());
}

TEST_CASE("a refused scenario gives estimate_json's errors and nothing else", "[view]") {
    ViewRequest request;
    request.step = true;
    std::vector<double> numbers = {1, 2, 3};
    const std::string refused = R"({"parallel":{"gpus":-1}})";
    const std::string text = view_json(refused, request, numbers);
    CHECK(normalised(text) == normalised(estimate_json(refused)));
    CHECK(has_error_for(parse_view(text), "parallel.gpus"));
    CHECK(numbers.empty());
}

TEST_CASE("the reference scenario is the scenario with its parallel settings at one GPU", "[view]") {
    const json::Value reference = parse_view(reference_scenario_json(sharded));
    CHECK(trainscope::testing::number_at(reference, "parallel.gpus") == 1);
    CHECK(trainscope::testing::number_at(reference, "parallel.tensor") == 1);
    CHECK(trainscope::testing::number_at(reference, "parallel.pipeline") == 1);
    CHECK(trainscope::testing::number_at(reference, "parallel.zero_stage") == 0);
    CHECK(reference.find_path("model.preset")->text == "llama3-70b");
}

TEST_CASE("the view's text carries the ZeRO formula for the scenario's bytes per parameter", "[view]") {
    // The default scenario trains with mixed-precision AdamW: the ZeRO paper's 16Ψ (Rajbhandari et al. 2019, §5).
    std::vector<double> numbers;
    const json::Value view = parse_view(view_json("{}", {}, numbers));
    CHECK(view.find_path("text.zero_formula")->text.find("stage 0 16Ψ; stage 1 4Ψ + 12Ψ/d") != std::string::npos);
}

TEST_CASE("the view says why a ZeRO stage shards nothing on one data-parallel GPU, and nothing when it shards",
          "[view]") {
    // ZeRO partitions states over the data-parallel group only (Rajbhandari et al. 2019, §5): d = 1 keeps them all.
    std::vector<double> numbers;
    const json::Value alone = parse_view(view_json(R"({"parallel":{"gpus":1,"zero_stage":3}})", {}, numbers));
    CHECK(alone.find_path("text.zero_unsharded")->text.find("ZeRO stage 3") != std::string::npos);
    const json::Value sharded_over_eight =
        parse_view(view_json(R"({"parallel":{"gpus":8,"zero_stage":3}})", {}, numbers));
    CHECK(sharded_over_eight.find_path("text.zero_unsharded")->text.empty());
    const json::Value stage_zero = parse_view(view_json(R"({"parallel":{"gpus":1,"zero_stage":0}})", {}, numbers));
    CHECK(stage_zero.find_path("text.zero_unsharded")->text.empty());
}
