#include "cli/table.hpp"

#include <cmath>
#include <cstdio>
#include <string_view>

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

std::string gigabytes(double bytes) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%12.1f GB", bytes / 1e9);
    return buffer;
}

std::string duration(double seconds) {
    char buffer[48];
    const double days = seconds / 86400;
    if (days >= 365.25 * 2) std::snprintf(buffer, sizeof buffer, "%.0f years", days / 365.25);
    else if (days >= 2) std::snprintf(buffer, sizeof buffer, "%.1f days", days);
    else if (seconds >= 7200) std::snprintf(buffer, sizeof buffer, "%.1f hours", seconds / 3600);
    else std::snprintf(buffer, sizeof buffer, "%.0f seconds", seconds);
    return buffer;
}

void line(std::string& out, const char* label, const std::string& value) {
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "  %-28s %s\n", label, value.c_str());
    out += buffer;
}

std::string plain(const char* format, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

}  // namespace

std::string format_table(const json::Value& e) {
    std::string out;
    out += "Model: " + plain("%.3g", number_at(e, "params")) + " parameters";
    if (number_at(e, "active_params") != number_at(e, "params"))
        out += " (" + plain("%.3g", number_at(e, "active_params")) + " active per token)";
    out += "\nGPU:   " + text_at(e, "gpu.name") + ", " + plain("%.0f", number_at(e, "gpu.memory_bytes") / 1e9) +
           " GB\n(GB = 10^9 bytes)\n\n";

    out += "Running (inference)\n";
    line(out, "weights", gigabytes(number_at(e, "inference.weights")));
    line(out, "KV cache", gigabytes(number_at(e, "inference.kv_cache")));
    line(out, "total", gigabytes(number_at(e, "inference.total")));
    line(out, "bytes per parameter", plain("%.3g", number_at(e, "inference.bytes_per_param")));
    line(out, "GPUs needed", plain("%.0f", number_at(e, "inference.min_gpus")));

    out += "\nTraining, per GPU (" + plain("%.0f", number_at(e, "scenario.parallel.gpus")) + " GPUs, ZeRO stage " +
           plain("%.0f", number_at(e, "scenario.parallel.zero_stage")) + ")\n";
    for (const char* part : {"weights", "gradients", "master_weights", "optimizer_states", "activations", "logits", "total"}) {
        line(out, part, gigabytes(number_at(e, std::string("training.per_gpu.") + part)));
    }
    line(out, "bytes per parameter", plain("%.3g", number_at(e, "training.bytes_per_param.total")));
    line(out, "fits on each GPU", e.find_path("training.fits") && e.find_path("training.fits")->boolean ? "yes" : "no");
    const double min_gpus = number_at(e, "training.min_gpus");
    line(out, "fewest GPUs (ZeRO-3)", min_gpus < 0 ? std::string("none: activations exceed one GPU") : plain("%.0f", min_gpus));
    line(out, "train / run per parameter", plain("%.3g x", number_at(e, "ratio_training_to_inference")));

    out += "\nCompute\n";
    line(out, "training FLOPs", plain("%.2e", number_at(e, "compute.flops")));
    line(out, "hardware FLOPs", plain("%.2e", number_at(e, "compute.hardware_flops")));
    line(out, "time", duration(number_at(e, "compute.seconds")));
    line(out, "time on one GPU", duration(number_at(e, "compute.seconds_on_one_gpu")));
    line(out, "GPU-hours", plain("%.3g", number_at(e, "compute.gpu_hours")));
    line(out, "MFU", plain("%.1f%%", 100 * number_at(e, "compute.mfu")));
    if (number_at(e, "compute.cost") > 0) line(out, "cost", plain("%.3g", number_at(e, "compute.cost")));

    const json::Value* notes = e.find("notes");
    if (notes && !notes->items.empty()) {
        out += "\nNotes\n";
        for (const auto& note : notes->items) out += "  - " + note.text + "\n";
    }
    return out;
}

}  // namespace trainscope::cli
