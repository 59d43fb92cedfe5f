#include "cli/table.hpp"

#include <cstdio>
#include <string_view>

#include "engine/quantity.hpp"

namespace trainscope::cli {

namespace {

double number_at(const json::Value& root, std::string_view path) {
    const json::Value* value = root.find_path(path);
    return value && value->kind == json::Kind::number ? value->number : 0.0;
}

std::string text_at(const json::Value& root, std::string_view path) {
    const json::Value* value = root.find_path(path);
    return value && value->kind == json::Kind::string ? value->text : std::string();
}

// Every figure is written by the engine's one formatter, as on the page and in the quiz.
std::string figure(double value, quantity::Figure kind) { return quantity::format(value, kind); }

void line(std::string& out, const char* label, const std::string& value) {
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "  %-28s %s\n", label, value.c_str());
    out += buffer;
}

}  // namespace

std::string format_table(const json::Value& e) {
    using quantity::Figure;
    std::string out;
    out += "Model: " + figure(number_at(e, "params"), Figure::count) + " parameters";
    if (number_at(e, "active_params") != number_at(e, "params"))
        out += " (" + figure(number_at(e, "active_params"), Figure::count) + " active per token)";
    out += "\nGPU:   " + text_at(e, "gpu.name") + ", " + figure(number_at(e, "gpu.memory_bytes"), Figure::bytes) +
           "\n(GB = 10^9 bytes)\n\n";

    out += "Running (inference)\n";
    line(out, "weights", figure(number_at(e, "inference.weights"), Figure::bytes));
    line(out, "KV cache", figure(number_at(e, "inference.kv_cache"), Figure::bytes));
    line(out, "total", figure(number_at(e, "inference.total"), Figure::bytes));
    line(out, "bytes per parameter", figure(number_at(e, "inference.bytes_per_param"), Figure::plain));
    line(out, "GPUs needed", figure(number_at(e, "inference.min_gpus"), Figure::gpus));

    out += "\nTraining, per GPU (" + figure(number_at(e, "scenario.parallel.gpus"), Figure::gpus) + ", ZeRO stage " +
           figure(number_at(e, "scenario.parallel.zero_stage"), Figure::integer) + ")\n";
    // What one GPU holds at the step's peak (docs/model.md §9): these parts add up to the total.
    for (const char* part : {"weights", "gradients", "master_weights", "optimizer_states", "activations", "logits",
                             "gathered_weights", "temporary", "total"}) {
        line(out, part, figure(number_at(e, std::string("training.per_gpu.") + part), Figure::bytes));
    }
    line(out, "bytes per parameter", figure(number_at(e, "training.bytes_per_param.total"), Figure::plain));
    line(out, "fits on each GPU", e.find_path("training.fits") && e.find_path("training.fits")->boolean ? "yes" : "no");
    const double min_gpus = number_at(e, "training.min_gpus");
    line(out, "fewest GPUs (ZeRO-3)",
         min_gpus < 0 ? std::string("none: activations exceed one GPU") : figure(min_gpus, Figure::gpus));
    line(out, "train / run per parameter", figure(number_at(e, "ratio_training_to_inference"), Figure::ratio));

    out += "\nCompute\n";
    line(out, "training FLOPs", figure(number_at(e, "compute.flops"), Figure::flops));
    line(out, "hardware FLOPs", figure(number_at(e, "compute.hardware_flops"), Figure::flops));
    line(out, "time", figure(number_at(e, "compute.seconds"), Figure::duration));
    line(out, "time on one GPU", figure(number_at(e, "compute.seconds_on_one_gpu"), Figure::duration));
    line(out, "GPU-hours", figure(number_at(e, "compute.gpu_hours"), Figure::count));
    line(out, "MFU", figure(number_at(e, "compute.mfu"), Figure::percent));
    if (number_at(e, "compute.cost") > 0) line(out, "cost", figure(number_at(e, "compute.cost"), Figure::money));
    if (number_at(e, "compute.energy_joules") > 0)
        line(out, "GPU energy", figure(number_at(e, "compute.energy_joules"), Figure::energy));

    const json::Value* notes = e.find("notes");
    if (notes && !notes->items.empty()) {
        out += "\nNotes\n";
        for (const auto& note : notes->items) out += "  - " + note.text + "\n";
    }
    return out;
}

}  // namespace trainscope::cli
