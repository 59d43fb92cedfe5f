// The one limits table: the scenario reader validates with it and the page reads it
// (docs/scenario.md, "Limits"; docs/numbers.md).
#include "catch_include.hpp"

#include <cmath>
#include <string>

#include "engine/api/api.hpp"
#include "engine/model/field_limits.hpp"
#include "engine/model/scenario.hpp"
#include "engine/text/json.hpp"

using namespace trainscope;

namespace {

// Every numeric member of `object`, by dotted path.
void numeric_paths(const json::Value& object, const std::string& prefix, std::vector<std::string>& out) {
    for (const auto& member : object.members) {
        const std::string path = prefix + member.first;
        if (member.second.kind == json::Kind::number) out.push_back(path);
        if (member.second.is_object()) numeric_paths(member.second, path + ".", out);
    }
}

}  // namespace

TEST_CASE("every numeric field of a scenario has a limit in the table", "[limits]") {
    // A custom architecture and GPU spell out every numeric field the schema has.
    const ScenarioReading reading = read_scenario_text(
        R"({"model":{"architecture":{"layers":2,"hidden":64,"heads":4,"mlp":256,"vocab":1000}},
            "hardware":{"gpu":"custom","memory_bytes":80e9,"peak_flops":1e15,"watts":700}})");
    REQUIRE(reading.ok());
    std::vector<std::string> paths;
    numeric_paths(json::parse(write_scenario(reading.scenario)).value, "", paths);
    paths.push_back("model.params");
    REQUIRE(paths.size() > 20);
    for (const auto& path : paths) {
        INFO(path);
        CHECK(find_field_limit(path) != nullptr);
    }
}

TEST_CASE("a value outside its field's limits is refused with the limits written for people", "[limits]") {
    const std::string text = estimate_json(R"({"parallel":{"gpus":2e7}})");
    CHECK(text.find(R"("field":"parallel.gpus","message":"must be between 1 and 10 million GPUs")") !=
          std::string::npos);
    const FieldLimit* memory = find_field_limit("hardware.memory_bytes");
    REQUIRE(memory);
    CHECK(field_limit_error(*memory, 1e3) == "must be between 1 MB and 10 TB");
    const FieldLimit* utilization = find_field_limit("hardware.utilization");
    REQUIRE(utilization);
    CHECK(field_limit_error(*utilization, 2) == "must be between 0.1% and 100%");
}

TEST_CASE("a fraction in a whole-number field is refused as such", "[limits]") {
    const FieldLimit* gpus = find_field_limit("parallel.gpus");
    REQUIRE(gpus);
    CHECK(field_limit_error(*gpus, 2.5) == "must be a whole number");
    CHECK(field_limit_error(*gpus, 2048).empty());
}

TEST_CASE("the limits the page reads are the ones the reader checks", "[limits]") {
    const json::ParseResult parsed = json::parse(field_limits_json());
    REQUIRE(parsed.ok);
    const json::Value* gpus = parsed.value.find("parallel.gpus");
    REQUIRE(gpus);
    CHECK(gpus->find("max")->number == find_field_limit("parallel.gpus")->max);
    CHECK(gpus->find("kind")->text == "gpus");
    CHECK(gpus->find("integer")->boolean);
    for (const FieldLimit* limit = field_limits_begin(); limit != field_limits_end(); ++limit) {
        INFO(limit->field);
        CHECK(limit->min < limit->max);
    }
}

TEST_CASE("a typed field is read in its kind and checked against its limits", "[limits]") {
    const quantity::Reading memory = read_field("hardware.memory_bytes", "80 GB");
    REQUIRE(memory.ok);
    CHECK(memory.value == 80e9);
    CHECK(read_field("parallel.gpus", "20 million").error == "Must be between 1 and 10 million GPUs.");
    CHECK(read_field("model.params", "70B").value == 70e9);
    CHECK_FALSE(read_field("parallel.nothing", "5").ok);
}

namespace {

// A number as a program prints it ("1e+07", "10000000") rather than as people write it.
bool has_raw_number(const std::string& text) {
    if (text.find("e+") != std::string::npos || text.find("e-0") != std::string::npos) return true;
    int run = 0;
    for (const char c : text) {
        run = (c >= '0' && c <= '9') ? run + 1 : 0;
        if (run >= 4) return true;  // grouped ("10,000,000") or in words ("10 million") never runs to four
    }
    return false;
}

// {"parallel":{"gpus":V}} for "parallel.gpus".
std::string scenario_with(const std::string& path, double value) {
    std::string open, close;
    std::size_t start = 0;
    for (std::size_t dot = path.find('.'); dot != std::string::npos; start = dot + 1, dot = path.find('.', start)) {
        open += "{\"" + path.substr(start, dot - start) + "\":";
        close += "}";
    }
    return open + "{\"" + path.substr(start) + "\":" + json::format_number(value) + "}" + close;
}

}  // namespace

TEST_CASE("every field's out-of-range message from a scenario (a link's hash) writes its limits for people",
          "[limits][scenario]") {
    // Issue 11: a bad link said "must be between 1 and 1e+07".
    CHECK(has_raw_number("must be between 1 and 1e+07"));
    CHECK(has_raw_number("must be between 1 and 10000000"));
    CHECK_FALSE(has_raw_number("must be between 1 and 10 million GPUs"));
    CHECK_FALSE(has_raw_number("must be between 100,000 and 10¹⁵"));
    for (const FieldLimit* limit = field_limits_begin(); limit != field_limits_end(); ++limit) {
        for (const double value : {limit->min > 0 ? limit->min / 10 : -1.0, limit->max * 10}) {
            const std::string scenario = scenario_with(limit->field, limit->integer ? std::floor(value) : value);
            const json::ParseResult estimate = json::parse(estimate_json(scenario));
            REQUIRE(estimate.ok);
            bool found = false;
            for (const auto& error : estimate.value.find("errors")->items) {
                if (error.find("field")->text != limit->field) continue;
                found = true;
                const std::string message = error.find("message")->text;
                INFO(scenario << " → " << message);
                CHECK(message.rfind("must be between ", 0) == 0);
                CHECK_FALSE(has_raw_number(message));
            }
            INFO(scenario);
            CHECK(found);
        }
    }
}

TEST_CASE("every slider moves within its field's limits, through stops the field accepts", "[limits][sliders]") {
    REQUIRE(slider_ranges_end() - slider_ranges_begin() > 0);
    for (const SliderRange* slider = slider_ranges_begin(); slider != slider_ranges_end(); ++slider) {
        INFO(slider->field);
        const FieldLimit* limit = find_field_limit(slider->field);
        REQUIRE(limit != nullptr);
        CHECK(slider->min < slider->max);
        CHECK(field_limit_error(*limit, slider->min).empty());
        CHECK(field_limit_error(*limit, slider->max).empty());
        switch (slider->scale) {
            case SliderScale::log:
                CHECK(slider->min > 0);
                CHECK(slider->stops >= 1);
                break;
            case SliderScale::linear: {
                REQUIRE(slider->stops > 0);
                // A whole number of steps from one end to the other.
                const double steps = (slider->max - slider->min) / slider->stops;
                CHECK(std::fabs(steps - std::round(steps)) < 1e-9);
                break;
            }
            case SliderScale::powers_of_two: {
                CHECK(limit->integer);
                CHECK(std::exp2(std::round(std::log2(slider->min))) == slider->min);
                break;
            }
        }
    }
}

TEST_CASE("the page reads each slider's range with the field's limits", "[limits][sliders]") {
    const json::ParseResult parsed = json::parse(field_limits_json());
    REQUIRE(parsed.ok);
    const json::Value* gpus = parsed.value.find("parallel.gpus");
    REQUIRE(gpus != nullptr);
    const json::Value* slider = gpus->find("slider");
    REQUIRE(slider != nullptr);
    CHECK(slider->find("scale")->text == "powers_of_two");
    CHECK(slider->find("max")->number == 1e5);
    // A field with no slider (typed only) has no slider member.
    const json::Value* layers = parsed.value.find("model.architecture.layers");
    REQUIRE(layers != nullptr);
    CHECK(layers->find("slider") == nullptr);
}

TEST_CASE("the global batch's slider starts at the fewest sequences that change the step", "[limits][global_batch]") {
    // Issue 33, item 11: on 8 GPUs "the fewest" is 8 sequences, and 2 or 4 are rounded up to it.
    const auto estimate_of = [](const std::string& text) {
        const auto result = json::parse(estimate_json(text));
        REQUIRE(result.ok);
        return result.value;
    };
    const std::string base = R"({"model":{"preset":"llama3-8b"},"parallel":{"gpus":8},"training":{"micro_batch":1)";
    const json::Value fewest = estimate_of(base + "}}");
    const double least = fewest.find_path("training.fewest_global_batch")->number;
    CHECK(least == 8);
    // Below it nothing changes: the step runs the same micro-batches; at twice it, it does.
    const double micro_batches = fewest.find_path("communication.micro_batches")->number;
    for (const double below : {1.0, 2.0, 4.0}) {
        const json::Value smaller =
            estimate_of(base + R"(,"global_batch":)" + std::to_string(static_cast<int>(below)) + "}}");
        CHECK(smaller.find_path("communication.micro_batches")->number == micro_batches);
    }
    const json::Value twice = estimate_of(base + R"(,"global_batch":16}})");
    CHECK(twice.find_path("communication.micro_batches")->number == 2 * micro_batches);
    // A pipeline's fewest is one micro-batch per stage, of micro_batch sequences on each replica.
    const json::Value piped = estimate_of(
        R"({"model":{"preset":"llama3-70b"},"parallel":{"gpus":64,"pipeline":4},"training":{"micro_batch":2}})");
    CHECK(piped.find_path("training.fewest_global_batch")->number == 4 * 2 * 16);
}
