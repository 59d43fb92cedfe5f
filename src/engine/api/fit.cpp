#include "engine/api/fit.hpp"

#include <cmath>

#include "engine/api/api.hpp"
#include "engine/api/estimate_json.hpp"

#include "engine/model/compute.hpp"
#include "engine/model/estimate.hpp"
#include "engine/model/fit.hpp"
#include "engine/model/scenario.hpp"
#include "engine/text/json.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {

namespace {

constexpr double default_max_layouts = 20;
constexpr double most_max_layouts = 1000;

std::string bytes_text(double value) { return quantity::format(value, quantity::Figure::bytes); }

// GPU-hours = G × time (docs/model.md §6); the cost only with the scenario's price (0 without one).
void write_check(json::Writer& w, const LayoutCheck& check, const Scenario& s) {
    w.field_bool("fits", check.fits).field("peak_bytes", check.peak_bytes);
    w.field("step_seconds", check.step_seconds).field("run_seconds", check.run_seconds);
    // The utilisation that run time means (MFU = model FLOPs / (time × GPUs × peak), docs/model.md §6):
    // the card says which utilisation its time is at (issue 33), as the time section does.
    const double model_flops = training_compute(s.model.architecture, scenario_parameters(s).active, s).model_flops;
    const double at_peak = check.run_seconds * s.parallel.gpus * s.hardware.gpu.peak_flops;
    w.field("predicted_mfu", at_peak > 0 ? model_flops / at_peak : 0.0);
    w.field("micro_batches", check.micro_batches);
    const double gpu_hours = check.run_seconds * s.parallel.gpus / 3600;
    w.field("gpu_hours", gpu_hours).field("cost", gpu_hours * s.hardware.price_per_gpu_hour);
}

// A layout's settings: how the model is split, sharded and recomputed, and its micro-batch.
void write_layout_settings(json::Writer& w, const Scenario& s) {
    const ParallelSettings& l = s.parallel;
    w.field("tensor", l.tensor).field("pipeline", l.pipeline).field("interleave", l.interleave);
    w.field("context", l.context).field("expert", l.expert).field("data", l.data_parallel());
    w.key("zero_stage").integer(l.zero_stage);
    w.field("recompute", recompute_name(s.training.recompute));
    w.field("micro_batch", s.training.micro_batch);
}

void write_layout(json::Writer& w, const FitLayout& layout) {
    w.begin_object();
    write_layout_settings(w, layout.scenario);
    write_check(w, layout.check, layout.scenario);
    w.key("scenario").raw(write_scenario(layout.scenario));
    w.end_object();
}

// The field a change sets, its new value, and a label for people.
void write_change_value(json::Writer& w, const FitChange& change) {
    const Scenario& s = change.scenario;
    auto count = [](double value) { return quantity::format_count(value); };
    switch (change.kind) {
        case FitChangeKind::more_gpus:
            w.field("field", "parallel.gpus").field("value", s.parallel.gpus);
            // The count with its noun in the language's singular or plural (quantity_units.cpp).
            w.field("label", message("fit.change.more_gpus_of", "{gpus} of this type (ZeRO stage {zero})",
                                     {{"gpus", quantity::format(s.parallel.gpus, quantity::Figure::gpus)},
                                      {"zero", count(s.parallel.zero_stage)}}));
            return;
        case FitChangeKind::larger_gpu:
            w.field("field", "hardware.gpu").field("value", s.hardware.gpu.id);
            w.field("label",
                    message("fit.change.larger_gpu", "A larger GPU: {gpu} ({memory})",
                            {{"gpu", s.hardware.gpu.model_name}, {"memory", bytes_text(s.hardware.gpu.memory_bytes)}}));
            return;
        case FitChangeKind::zero_stage:
            w.field("field", "parallel.zero_stage").field("value", s.parallel.zero_stage);
            w.field("label",
                    message("fit.change.zero_stage", "ZeRO stage {zero}", {{"zero", count(s.parallel.zero_stage)}}));
            return;
        case FitChangeKind::recompute:
            w.field("field", "training.recompute").field("value", recompute_name(s.training.recompute));
            w.field("label", s.training.recompute == Recompute::full
                                 ? message("fit.change.recompute_full", "Full activation checkpointing")
                                 : message("fit.change.recompute_selective", "Selective activation recomputation"));
            return;
        case FitChangeKind::micro_batch:
            w.field("field", "training.micro_batch").field("value", s.training.micro_batch);
            w.field("label", message("fit.change.micro_batch", "A micro-batch of {micro_batch}",
                                     {{"micro_batch", count(s.training.micro_batch)}}));
            return;
        case FitChangeKind::sequence:
            w.field("field", "training.sequence").field("value", s.training.sequence);
            w.field("label", message("fit.change.sequence", "Sequences of {sequence} tokens",
                                     {{"sequence", count(s.training.sequence)}}));
            return;
        case FitChangeKind::offload:
            w.field("field", "training.offload").field("value", offload_name(s.training.offload));
            w.field("label", s.training.offload == Offload::parameters
                                 ? message("fit.change.offload_parameters",
                                           "Weights and optimizer offloaded to CPU memory (ZeRO-3)")
                                 : message("fit.change.offload_optimizer", "The optimizer offloaded to CPU memory"));
            return;
        case FitChangeKind::method: {
            w.field("field", "training.method").field("value", fine_tuning_method_name(s.training.method));
            const std::string method = s.training.method == FineTuningMethod::qlora
                                           ? message("fit.change.qlora", "QLoRA: adapters on a 4-bit base")
                                           : message("fit.change.lora", "LoRA: adapters on a frozen 16-bit base");
            // Its time is a fine-tuning run's (docs/model.md §15): say so beside a pre-training run's.
            if (s.training.tokens_origin != TokensOrigin::fine_tuning_run) {
                w.field("label", method);
                return;
            }
            w.field("label", message("fit.change.fine_tuning_tokens", "{method}, fine-tuning on {tokens}",
                                     {{"method", method},
                                      {"tokens", quantity::format(s.training.tokens, quantity::Figure::tokens)}}));
            return;
        }
    }
}

void write_changes(json::Writer& w, const Scenario& s, const FitSearch& search) {
    w.key("changes").begin_array();
    for (const FitChange& change : search.changes) {
        w.begin_object().field("kind", fit_change_name(change.kind)).field("costs", fit_change_cost_name(change.cost));
        write_change_value(w, change);
        write_check(w, change.check, change.scenario);
        // Run times compare only over the same tokens: a method change leaving full training times
        // the fine-tuning run's instead (its label says so), and has no ratio.
        if (change.scenario.training.tokens == s.training.tokens && search.current.run_seconds > 0)
            w.field("time_ratio", change.check.run_seconds / search.current.run_seconds);
        // A change that fits only on another layout carries that layout, as a ranked one does.
        if (change.new_layout) {
            w.key("layout").begin_object();
            write_layout_settings(w, change.scenario);
            w.end_object();
        }
        w.key("scenario").raw(write_scenario(change.scenario));
        w.end_object();
    }
    w.end_array();
}

// docs/scenario.md, "What fits": each question without an answer, with the field it is about and why.
std::vector<FieldError> fit_reasons(const Scenario& s, const FitSearch& search) {
    std::vector<FieldError> reasons;
    const std::string memory = bytes_text(s.hardware.gpu.memory_bytes);
    if (search.largest_micro_batch <= 0) {
        Scenario one = s;
        one.training.micro_batch = 1;
        const LayoutCheck check = check_layout(one, scenario_parameters(one), false);
        reasons.push_back(
            {"training.micro_batch",
             message("fit.reason.micro_batch",
                     "even a micro-batch of one sequence needs {peak} per GPU at this layout, more than its {memory}",
                     {{"peak", bytes_text(check.peak_bytes)}, {"memory", memory}})});
    }
    if (search.largest_sequence <= 0)
        reasons.push_back({"training.sequence",
                           message("fit.reason.sequence", "no sequence length fits this layout in {memory} per GPU",
                                   {{"memory", memory}})});
    if (search.layouts_total <= 0)
        reasons.push_back({"parallel.gpus",
                           message("fit.reason.layouts",
                                   "no layout over the scenario's GPUs ({gpus}) fits in {memory} each; the least any "
                                   "layout keeps per GPU in model states alone is {states}",
                                   {{"gpus", quantity::format_count(s.parallel.gpus)},
                                    {"memory", memory},
                                    {"states", bytes_text(search.least_states)}})});
    if (!search.current.fits && search.changes.empty())
        reasons.push_back(
            {"scenario", message("fit.reason.changes", "no single change makes this setup fit; combine several")});
    return reasons;
}

void write_search(json::Writer& w, const Scenario& s, const FitSearch& search) {
    w.key("current").begin_object();
    w.field("memory_bytes", s.hardware.gpu.memory_bytes);
    write_check(w, search.current, s);
    w.end_object();
    w.key("largest_micro_batch").begin_object().field("value", search.largest_micro_batch);
    write_check(w, search.largest_micro_batch_check, s);
    w.end_object();
    w.key("largest_sequence").begin_object().field("value", search.largest_sequence);
    write_check(w, search.largest_sequence_check, s);
    w.end_object();
    w.key("layouts").begin_array();
    for (const FitLayout& layout : search.layouts) write_layout(w, layout);
    w.end_array();
    w.field("layouts_total", search.layouts_total).field("layouts_examined", search.layouts_examined);
    w.field_bool("complete", search.complete);
    write_changes(w, s, search);
    w.key("reasons").begin_array();
    for (const FieldError& reason : fit_reasons(s, search))
        w.begin_object().field("field", reason.field).field("message", reason.message).end_object();
    w.end_array();
}

// The scenario and max_layouts of the input: a bare scenario, or {"scenario", "max_layouts"}.
const json::Value* read_fit_input(const json::Value& document, double& max_layouts, std::vector<FieldError>& errors) {
    max_layouts = default_max_layouts;
    if (!document.is_object() || !document.find("scenario")) return &document;
    for (const auto& member : document.members)
        if (member.first != "scenario" && member.first != "max_layouts")
            errors.push_back(
                {member.first.substr(0, 60), message("scenario.unknown_field", "is not a scenario field")});
    if (const json::Value* given = document.find("max_layouts")) {
        const bool whole = given->kind == json::Kind::number && given->number == std::floor(given->number);
        if (!whole || given->number < 1 || given->number > most_max_layouts)
            errors.push_back({"max_layouts", message("fit.max_layouts", "must be a whole number from 1 to {most}",
                                                     {{"most", quantity::format_count(most_max_layouts)}})});
        else
            max_layouts = given->number;
    }
    return document.find("scenario");
}

}  // namespace

std::string fit_json(std::string_view input_json) {
    const json::ParseResult parsed = json::parse(input_json);
    if (!parsed.ok) return estimate_json(input_json);  // the estimate's own message for bad JSON
    std::vector<FieldError> errors;
    double max_layouts = default_max_layouts;
    const json::Value* scenario_value = read_fit_input(parsed.value, max_layouts, errors);
    ScenarioReading reading = read_scenario(*scenario_value);
    errors.insert(errors.end(), reading.errors.begin(), reading.errors.end());
    if (!errors.empty()) return write_errors(errors);
    const Scenario& s = reading.scenario;
    const FitSearch search = search_fits(s, max_layouts);
    json::Writer w;
    w.begin_object();
    w.key("errors").begin_array().end_array();
    w.key("notes").begin_array();
    if (!search.complete)
        w.string(message("fit.note.budget",
                         "There were more layouts than the search checks ({checks} memory checks): "
                         "the list ranks those it reached.",
                         {{"checks", quantity::format_count(fit_check_budget)}}));
    w.end_array();
    w.key("scenario").raw(write_scenario(s));
    write_search(w, s, search);
    w.end_object();
    // Validation keeps every product finite; this guard makes sure no NaN can ever reach a page.
    if (!w.all_numbers_finite()) return too_large_errors();
    return w.take();
}

}  // namespace trainscope
