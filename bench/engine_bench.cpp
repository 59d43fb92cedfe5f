// Prints how many estimates per second the engine computes: the page calls it on every
// slider movement. A benchmark, not a test: it prints figures and never fails on speed.
#include <chrono>
#include <cstdio>
#include <string>

#include "engine/api.hpp"
#include "engine/estimate.hpp"
#include "engine/scenario.hpp"

namespace {

using Clock = std::chrono::steady_clock;

template <typename Work>
double calls_per_second(Work work, int calls) {
    const auto start = Clock::now();
    for (int i = 0; i < calls; ++i) work(i);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return calls / seconds;
}

volatile double sink = 0;  // keeps the optimiser from dropping the work

}  // namespace

int main() {
    const trainscope::ScenarioReading reading = trainscope::read_scenario_text(R"({"model":{"preset":"llama3-405b"}})");
    trainscope::Scenario scenario = reading.scenario;

    // The computation alone, on plain structs, with the GPU count moving as a slider would.
    const double struct_rate = calls_per_second(
        [&](int i) {
            scenario.parallel.gpus = 1 + (i % 16384);
            sink = sink + trainscope::estimate(scenario).training.per_gpu_total();
        },
        2000000);

    // The page's path: scenario JSON in, estimate JSON out.
    std::string scenario_json;
    const double json_rate = calls_per_second(
        [&](int i) {
            scenario_json = R"({"model":{"preset":"llama3-405b"},"parallel":{"gpus":)" + std::to_string(1 + i % 16384) + "}}";
            sink = sink + static_cast<double>(trainscope::estimate_json(scenario_json).size());
        },
        50000);

    std::printf("estimate (structs):        %12.0f per second  (%.3f us each)\n", struct_rate, 1e6 / struct_rate);
    std::printf("estimate_json (JSON in/out): %10.0f per second  (%.3f us each)\n", json_rate, 1e6 / json_rate);
    return 0;
}
