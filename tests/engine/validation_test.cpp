// The engine against measured runs (docs/validation.md, issue 32): every run of
// tests/engine/validation/runs.json that the engine models becomes the scenario the file gives it,
// and the engine's peak is compared with what the run measured — allocated, reserved or
// nvidia-smi, each with the matching quantity of the estimate — and its fits / out-of-memory
// verdict with the run's outcome. Prints each run's error and the medians.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "catch_include.hpp"
#include "engine/api/validation.hpp"
#include "engine/model/estimate.hpp"
#include "engine/model/scenario.hpp"
#include "quiz_support.hpp"

namespace {

using trainscope::json::Value;

// Issue 32's targets: median error ≤ 10%, every run ≤ 25%, every fits/out-of-memory verdict right.
// The thresholds below are what the engine meets today, a ratchet toward those targets: lower them
// as the engine improves. History (docs/validation.md): 44 runs from 3 projects; before issue 32
// median 22.2%, worst 64.0%, 4 verdicts wrong; with the GPUs' memory as nvidia-smi reports it and
// the CUDA context and allocator reserve stated: median 14.8%, worst 91.3%, 5 wrong (a QLoRA run
// that was right only because the card was counted 7% small now shows the QLoRA underestimate);
// with each run's precision as its framework runs it (pure BF16, autocast, paged AdamW): median
// 11.7%, worst 40.1%, 3 wrong; with each framework's rules for what a layer keeps and its loss
// (LitGPT, Hugging Face): median 9.4%, worst 40.1% (a 2-GPU FSDP run), 2 wrong; with QLoRA's
// dequantized matrix in flight: median 8.9%; with torchtune's five runs (49 runs from 4 projects):
// median 9.1%, worst 40.1%, 2 wrong; with torchtitan's six (55 runs from 5 projects): median 8.7%;
// with PyTorch AdamW's temporary moment at the step: torchtune's 4-GPU run −24.2% → −13.5%, the
// summary unchanged (median 8.7%, worst 40.1%: LitGPT's FSDP runs, which docs/validation.md shows
// hold the whole unsharded model beside the shards, 2 wrong).
constexpr double target_median_error = 0.10;
constexpr double target_worst_error = 0.25;
constexpr double ratchet_median_error = 0.088;
constexpr double ratchet_worst_error = 0.41;
constexpr int ratchet_wrong_verdicts = 2;
constexpr std::size_t target_projects = 5;
constexpr std::size_t ratchet_projects = 5;

struct RunResult {
    std::string id;
    std::string project;
    std::string quantity;
    bool ran = true;
    double measured = 0;
    double engine = 0;
    bool fits = false;
    double error() const { return measured > 0 ? (engine - measured) / measured : 0.0; }
    bool verdict_right() const { return fits == ran; }
};

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

std::string text_of(const Value& value, const char* key) {
    const Value* found = value.find(key);
    return found && found->kind == trainscope::json::Kind::string ? found->text : std::string();
}

// The engine's figure for the quantity a run measured (docs/validation.md, "What was measured").
double engine_figure(const trainscope::Estimate& estimate, const std::string& quantity) {
    if (quantity == "reserved") return estimate.training.reserved();
    if (quantity == "nvidia-smi") return estimate.training.in_use();
    return estimate.training.per_gpu_total();
}

std::vector<RunResult> run_validation() {
    const Value document = trainscope::quiz_testing::parse_json(
        trainscope::quiz_testing::source_file("tests/engine/validation/runs.json"));
    std::vector<RunResult> results;
    for (const Value& run : document.find("runs")->items) {
        if (run.find("not_modelled")) continue;
        const trainscope::ScenarioReading reading = trainscope::read_scenario(*run.find("scenario"));
        std::string errors;
        for (const auto& error : reading.errors) errors += error.field + ": " + error.message + "\n";
        INFO("run " << text_of(run, "id") << "\n" << errors);
        REQUIRE(reading.ok());
        const trainscope::Estimate estimate = trainscope::estimate(reading.scenario);
        const Value& measured = *run.find("measured");
        RunResult result;
        result.id = text_of(run, "id");
        result.project = text_of(run, "project");
        result.quantity = text_of(measured, "quantity");
        result.ran = text_of(measured, "outcome") == "ran";
        if (const Value* bytes = measured.find("bytes")) result.measured = bytes->number;
        result.engine = engine_figure(estimate, result.quantity);
        result.fits = estimate.training.fits;
        results.push_back(result);
    }
    return results;
}

void print(const std::vector<RunResult>& results) {
    std::printf("%-58s %-11s %9s %9s %8s %s\n", "run", "measured", "GB", "engine GB", "error", "verdict");
    std::map<std::string, std::vector<double>> by_project;
    for (const RunResult& r : results) {
        if (r.ran) {
            by_project[r.project].push_back(std::fabs(r.error()));
            std::printf("%-58s %-11s %9.2f %9.2f %+7.1f%% %s\n", r.id.c_str(), r.quantity.c_str(), r.measured / 1e9,
                        r.engine / 1e9, 100 * r.error(), r.verdict_right() ? "right" : "WRONG (says out of memory)");
        } else {
            std::printf("%-58s %-11s %9s %9.2f %8s %s\n", r.id.c_str(), "OOM", "-", r.engine / 1e9, "",
                        r.verdict_right() ? "right" : "WRONG (says fits)");
        }
    }
    for (const auto& [project, errors] : by_project)
        std::printf("%s: %zu runs, median |error| %.1f%%\n", project.c_str(), errors.size(), 100 * median(errors));
}

// The summary line: runs, runs with a peak, projects, median and worst |error|, wrong verdicts.
struct Summary {
    std::size_t runs = 0, with_peak = 0, projects = 0;
    double median_error = 0, worst = 0;
    int wrong = 0;
};

Summary summarize(const std::vector<RunResult>& results) {
    Summary summary;
    std::vector<double> errors;
    std::vector<std::string> projects;
    for (const RunResult& r : results) {
        if (r.ran) {
            errors.push_back(std::fabs(r.error()));
            summary.worst = std::fmax(summary.worst, std::fabs(r.error()));
        }
        if (!r.verdict_right()) ++summary.wrong;
        if (std::find(projects.begin(), projects.end(), r.project) == projects.end()) projects.push_back(r.project);
    }
    summary.runs = results.size();
    summary.with_peak = errors.size();
    summary.projects = projects.size();
    summary.median_error = median(errors);
    return summary;
}

}  // namespace

TEST_CASE("The engine's peak is close to measured runs, and its fits verdicts are right (issue 32)", "[validation]") {
    const std::vector<RunResult> results = run_validation();
    print(results);
    const Summary summary = summarize(results);
    std::printf(
        "%zu runs (%zu with a measured peak): median |error| %.1f%% (target %.0f%%), worst %.1f%% (target %.0f%%), "
        "%d verdicts wrong (target 0)\n",
        summary.runs, summary.with_peak, 100 * summary.median_error, 100 * target_median_error, 100 * summary.worst,
        100 * target_worst_error, summary.wrong);
    CHECK(summary.runs >= 40);
    std::printf("%zu projects (target %zu)\n", summary.projects, target_projects);
    CHECK(summary.projects >= ratchet_projects);
    CHECK(summary.median_error <= ratchet_median_error);
    CHECK(summary.worst <= ratchet_worst_error);
    CHECK(summary.wrong <= ratchet_wrong_verdicts);
}

// The page's line on how close the engine is (validation_summary_json) states constants; they must
// be what the table gives today, to the tenth of a percent the page can show.
TEST_CASE("The engine's validation summary is the table's, recomputed", "[validation]") {
    const Summary summary = summarize(run_validation());
    const trainscope::ValidationSummary stated = trainscope::validation_summary();
    CHECK(stated.runs_compared == static_cast<int>(summary.runs));
    CHECK(stated.runs_with_peak == static_cast<int>(summary.with_peak));
    CHECK(stated.projects == static_cast<int>(summary.projects));
    CHECK(std::fabs(stated.median_error - summary.median_error) < 0.0005);
    CHECK(std::fabs(stated.worst_error - summary.worst) < 0.0005);
    CHECK(stated.verdicts_wrong == summary.wrong);
    const Value written = trainscope::quiz_testing::parse_json(trainscope::validation_summary_json());
    CHECK(written.find("runs_compared")->number == stated.runs_compared);
    CHECK(written.find("runs_with_peak")->number == stated.runs_with_peak);
    CHECK(written.find("projects")->number == stated.projects);
    CHECK(written.find("median_error")->number == Approx(stated.median_error));
    CHECK(written.find("worst_error")->number == Approx(stated.worst_error));
    CHECK(written.find("verdicts_wrong")->number == stated.verdicts_wrong);
}
