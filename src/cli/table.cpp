#include "cli/table.hpp"

#include <string_view>
#include <utility>

#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

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

// The label padded to 28 characters (not bytes: German and Spanish labels have accents).
void line(std::string& out, const std::string& label, const std::string& value) {
    std::size_t characters = 0;
    for (const unsigned char c : label) characters += (c & 0xC0) != 0x80;
    out += "  " + label;
    out.append(characters < 28 ? 28 - characters : 0, ' ');
    out += " " + value + "\n";
}

// The compute rows: FLOPs, time, GPU-hours, utilisation (achieved and predicted), cost, energy.
void write_compute_rows(std::string& out, const json::Value& e) {
    using quantity::Figure;
    out += "\n" + message("cli.table.compute", "Compute") + "\n";
    line(out, message("cli.table.training_flops", "training FLOPs"),
         figure(number_at(e, "compute.flops"), Figure::flops));
    line(out, message("cli.table.hardware_flops", "hardware FLOPs"),
         figure(number_at(e, "compute.hardware_flops"), Figure::flops));
    line(out, message("cli.table.time", "time"), figure(number_at(e, "compute.seconds"), Figure::duration));
    line(out, message("cli.table.time_one_gpu", "time on one GPU"),
         figure(number_at(e, "compute.seconds_on_one_gpu"), Figure::duration));
    line(out, message("cli.table.gpu_hours", "GPU-hours"), figure(number_at(e, "compute.gpu_hours"), Figure::count));
    line(out, message("cli.table.mfu", "MFU"), figure(number_at(e, "compute.mfu"), Figure::percent));
    // docs/model.md §13: what the layout's communication and bubble leave of the arithmetic's efficiency.
    line(out, message("cli.table.predicted_mfu", "predicted MFU"),
         figure(number_at(e, "communication.predicted_mfu"), Figure::percent));
    if (number_at(e, "compute.cost") > 0)
        line(out, message("cli.table.cost", "cost"), figure(number_at(e, "compute.cost"), Figure::money));
    if (number_at(e, "compute.energy_joules") > 0)
        line(out, message("cli.table.energy", "GPU energy"),
             figure(number_at(e, "compute.energy_joules"), Figure::energy));
}

}  // namespace

std::string format_table(const json::Value& e) {
    using quantity::Figure;
    std::string out;
    // The count and its noun joined by the engine: Spanish needs "de" after "millones".
    const std::string params =
        quantity::count_of(number_at(e, "params"), message("cli.table.parameters", "parameters"));
    out += number_at(e, "active_params") != number_at(e, "params")
               ? message("cli.table.model_with_active", "Model: {params} ({active} active per token)",
                         {{"params", params}, {"active", figure(number_at(e, "active_params"), Figure::count)}})
               : message("cli.table.model_of", "Model: {params}", {{"params", params}});
    out += "\n" + message("cli.table.gpu", "GPU:   {name}, {memory}",
                          {{"name", text_at(e, "gpu.name")},
                           {"memory", figure(number_at(e, "gpu.memory_bytes"), Figure::bytes)}});
    out += "\n" + message("cli.table.gigabyte", "(GB = 10^9 bytes)") + "\n\n";

    const std::string weights = message("cli.table.weights", "weights");
    const std::string total = message("cli.table.total", "total");
    const std::string bytes_per_parameter = message("cli.table.bytes_per_parameter", "bytes per parameter");
    out += message("cli.table.inference", "Running (inference)") + "\n";
    line(out, weights, figure(number_at(e, "inference.weights"), Figure::bytes));
    line(out, message("cli.table.kv_cache", "KV cache"), figure(number_at(e, "inference.kv_cache"), Figure::bytes));
    line(out, total, figure(number_at(e, "inference.total"), Figure::bytes));
    line(out, bytes_per_parameter, figure(number_at(e, "inference.bytes_per_param"), Figure::plain));
    line(out, message("cli.table.gpus_needed", "GPUs needed"),
         figure(number_at(e, "inference.min_gpus"), Figure::gpus));

    out += "\n" +
           message("cli.table.training", "Training, per GPU ({gpus}, ZeRO stage {stage})",
                   {{"gpus", figure(number_at(e, "scenario.parallel.gpus"), Figure::gpus)},
                    {"stage", figure(number_at(e, "scenario.parallel.zero_stage"), Figure::integer)}}) +
           "\n";
    // What one GPU holds at the step's peak (docs/model.md §9): these parts add up to the total. Each
    // row is labelled in words, as the page's legend names it, never by its estimate key.
    const std::pair<const char*, std::string> parts[] = {
        {"weights", weights},
        {"gradients", message("cli.table.gradients", "gradients")},
        {"master_weights", message("cli.table.master_weights", "FP32 master copy")},
        {"optimizer_states", message("cli.table.optimizer_states", "optimizer states")},
        {"activations", message("cli.table.activations", "activations")},
        {"logits", message("cli.table.logits", "logits")},
        {"gathered_weights", message("cli.table.gathered_weights", "gathered layers (ZeRO-3)")},
        {"temporary", message("cli.table.temporary", "temporary buffers")},
        {"total", total}};
    for (const auto& [part, label] : parts) {
        line(out, label, figure(number_at(e, std::string("training.per_gpu.") + part), Figure::bytes));
    }
    line(out, bytes_per_parameter, figure(number_at(e, "training.bytes_per_param.total"), Figure::plain));
    line(out, message("cli.table.fits", "fits on each GPU"),
         e.find_path("training.fits") && e.find_path("training.fits")->boolean ? message("cli.table.yes", "yes")
                                                                               : message("cli.table.no", "no"));
    const double min_gpus = number_at(e, "training.min_gpus");
    line(out, message("cli.table.fewest_gpus", "fewest GPUs (ZeRO-3)"),
         min_gpus < 0 ? message("cli.table.fewest_gpus_none", "none: activations exceed one GPU")
                      : figure(min_gpus, Figure::gpus));
    line(out, message("cli.table.train_over_run", "train / run per parameter"),
         figure(number_at(e, "ratio_training_to_inference"), Figure::ratio));

    write_compute_rows(out, e);

    const json::Value* notes = e.find("notes");
    if (notes && !notes->items.empty()) {
        out += "\n" + message("cli.table.notes", "Notes") + "\n";
        for (const auto& note : notes->items) out += "  - " + note.text + "\n";
    }
    return out;
}

namespace {

// "t 8 · p 16 × 4 · c 1 · e 1 · d 128 · ZeRO 1 · recompute none · micro-batch 2"
std::string layout_text(const json::Value& l) {
    const auto count = [&](const char* path) { return figure(number_at(l, path), quantity::Figure::count); };
    return message(
        "cli.fit.layout",
        "t {t} · p {p} × {m} · c {c} · e {e} · d {d} · ZeRO {zero} · recompute {recompute} · micro-batch {b}",
        {{"t", count("tensor")},
         {"p", count("pipeline")},
         {"m", count("interleave")},
         {"c", count("context")},
         {"e", count("expert")},
         {"d", count("data")},
         {"zero", count("zero_stage")},
         {"recompute", text_at(l, "recompute")},
         {"b", count("micro_batch")}});
}

void fit_answers(std::string& out, const json::Value& r) {
    using quantity::Figure;
    line(out, message("cli.fit.current", "this setup"),
         message("cli.fit.peak_of", "{peak} of {memory} per GPU, {time}",
                 {{"peak", figure(number_at(r, "current.peak_bytes"), Figure::bytes)},
                  {"memory", figure(number_at(r, "current.memory_bytes"), Figure::bytes)},
                  {"time", figure(number_at(r, "current.run_seconds"), Figure::duration)}}));
    line(out, message("cli.fit.largest_micro_batch", "largest micro-batch"),
         figure(number_at(r, "largest_micro_batch.value"), Figure::count));
    line(out, message("cli.fit.largest_sequence", "longest sequence"),
         figure(number_at(r, "largest_sequence.value"), Figure::count));
}

}  // namespace

std::string format_fit_table(const json::Value& r) {
    using quantity::Figure;
    std::string out = message("cli.fit.heading", "What fits on {gpus} × {gpu}",
                              {{"gpus", figure(number_at(r, "scenario.parallel.gpus"), Figure::count)},
                               {"gpu", text_at(r, "scenario.hardware.gpu")}}) +
                      "\n";
    fit_answers(out, r);
    out += "\n" +
           message("cli.fit.layouts", "Layouts that fit, fastest first ({shown} of {total})",
                   {{"shown", figure(static_cast<double>(r.find("layouts")->items.size()), Figure::count)},
                    {"total", figure(number_at(r, "layouts_total"), Figure::count)}}) +
           "\n";
    for (const json::Value& layout : r.find("layouts")->items)
        out += "  " + figure(number_at(layout, "run_seconds"), Figure::duration) + "  " +
               figure(number_at(layout, "peak_bytes"), Figure::bytes) + "  " + layout_text(layout) + "\n";
    const json::Value* changes = r.find("changes");
    if (changes && !changes->items.empty()) {
        out += "\n" + message("cli.fit.changes", "Changes that make it fit") + "\n";
        for (const json::Value& change : changes->items) {
            const std::string peak = figure(number_at(change, "peak_bytes"), Figure::bytes);
            const std::string time = figure(number_at(change, "run_seconds"), Figure::duration);
            line(out, text_at(change, "label"),
                 change.find("time_ratio") == nullptr
                     ? message("cli.fit.change_cost_other_run", "{peak} per GPU, {time}",
                               {{"peak", peak}, {"time", time}})
                     : message("cli.fit.change_cost", "{peak} per GPU, {time} (× {ratio} the time)",
                               {{"peak", peak},
                                {"time", time},
                                {"ratio", figure(number_at(change, "time_ratio"), Figure::plain)}}));
            if (const json::Value* layout = change.find("layout"))
                out += "    " +
                       message("cli.fit.change_layout", "on another layout: {layout}",
                               {{"layout", layout_text(*layout)}}) +
                       "\n";
        }
    }
    for (const json::Value& reason : r.find("reasons")->items)
        out += "  - " + text_at(reason, "field") + ": " + text_at(reason, "message") + "\n";
    for (const json::Value& note : r.find("notes")->items) out += "  - " + note.text + "\n";
    return out;
}

}  // namespace trainscope::cli
