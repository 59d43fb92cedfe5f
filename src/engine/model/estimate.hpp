// One scenario in, one estimate out: the whole memory and time picture as plain data.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/model/communication.hpp"
#include "engine/model/compute.hpp"
#include "engine/model/finetune.hpp"
#include "engine/model/memory.hpp"
#include "engine/model/offload.hpp"
#include "engine/model/scenario.hpp"
#include "engine/model/timeline.hpp"

namespace trainscope {

struct TrainingMemory {
    BytesPerParam bytes_per_param;
    ModelStateBytes model_states;  // whole model, unsharded
    ModelStateBytes per_gpu_states;
    ActivationBytes activations;
    double activations_without_recompute = 0;  // layers' activations with recompute none: the "before" figure
    double data_parallel = 1;
    // What one GPU holds at the step timeline's peak (docs/model.md §9): the model states, plus
    // whatever activations, logits, gathered weights and gradient buffers are live at that moment.
    StepBytes per_gpu_peak;
    double per_gpu_total() const { return per_gpu_peak.total(); }
    // docs/model.md §9: what the process holds besides the peak's tensors, as stated allowances
    // (hardware.hpp): the CUDA context with its workspaces, and the blocks PyTorch's caching allocator
    // keeps reserved. The peak above is what torch.cuda.max_memory_allocated() counts.
    double cuda_context = 0;
    double allocator_reserve = 0;
    double memory_for_tensors = 0;  // the GPU's memory as the driver reports it, less cuda_context
    double reserved() const { return per_gpu_total() + allocator_reserve; }  // torch's max_memory_reserved()
    double in_use() const { return reserved() + cuda_context; }              // what nvidia-smi shows
    // The peak's tensors within what the GPU offers them: its memory less the CUDA context.
    bool fits = false;
    double min_gpus = -1;            // fewest GPUs with full sharding (ZeRO-3) at this t and p; -1 if none
    double min_gpus_for_states = 1;  // a floor: GPUs whose memory just holds the model states
};

// The parts of an estimate that only some figures draw, each computed and written only when
// asked: estimate_json and the CLI ask for all; the page's view for those its sections draw
// (api/view.hpp). The curve costs one communication model per GPU count it passes through.
struct EstimateParts {
    // compute.time_over_gpus_communication, and communication's global_batch, stops_paying_gpus,
    // stops_paying_dominant and summary (the sentence that names where the curve stops paying).
    bool communication_curve = true;
    // communication.schedule: the step as phases in time (the step section's bar).
    bool communication_schedule = true;
};

struct Estimate {
    EstimateParts parts;  // what was computed, and so what write_estimate (api/estimate_json.hpp) writes
    ParameterCount params;
    Architecture architecture;
    InferenceBytes inference;
    double inference_min_gpus = 0;
    // The model run as training holds it (a QLoRA base in 4 bits), else `inference` (estimate.cpp).
    InferenceBytes run_as_trained;
    double run_as_trained_min_gpus = 0;
    TrainingMemory training;
    FineTuningFigures fine_tuning;
    OffloadFigures offload;  // docs/model.md §16: what CPU memory holds, and the PCIe traffic per step  //
                             // docs/model.md §15: what is trained, what is frozen and how the base is stored
    TrainingCompute compute;
    StepTimeline step;  // one training step on one GPU; its peak is training.per_gpu_peak
    // docs/model.md §13: what a step spends besides arithmetic, and the curve it bends.
    CommunicationModel communication;
    CommunicationCurve communication_curve;  // empty unless parts.communication_curve
    std::vector<std::string> notes;
    // Which tokens the run counts, naming only the fine-tuning methods the reader can choose.
    std::string tokens_origin;
};

// One stored value per parameter in training, for prose that spells the sum out: Adam's two
// moments are two parts, so mixed-precision AdamW is 2 + 2 + 4 + 4 + 4.
struct BytesPerParamPart {
    const char* part;     // the bytes_per_param field it belongs to: "weights", "optimizer_states", …
    std::string label;    // "weights", "master copy", "first moment (m)", "momentum", … in the current language
    NumberFormat format;  // how each value is stored
    double bytes;
};
std::vector<BytesPerParamPart> bytes_per_param_parts(const TrainingSettings& training, const BytesPerParam& bytes);
// "2 + 2 + 4 + 4 + 4 = 16": the parts' bytes, as the engine writes numbers.
std::string bytes_per_param_sum(const std::vector<BytesPerParamPart>& parts);

// "ZeRO paper", "FP32 gradients": a convention's short name; and one sentence on what it counts,
// with its sum for this optimizer and precision ("… 2 + 4 + 4 + 4 + 4 = 18 bytes per parameter.").
std::string accounting_label(AccountingConvention accounting);
std::string accounting_explanation(AccountingConvention accounting, const TrainingSettings& training,
                                   const Architecture& architecture, double parameters);

// "BF16", "FP32", …: how the lesson names a format.
std::string_view format_label(NumberFormat format);

// The scenario fields a reader can change where the notes are read, as field paths separated by
// spaces ("training.recompute parallel.zero_stage"), or "*" for every field (the CLI). A note's
// advice names only these: a page showing some sections names no control it hides.
inline constexpr std::string_view every_control = "*";

// Assumes a scenario that read_scenario accepted. The step's events are kept only when asked
// for (the chart); its peak, which the estimate's per-GPU total is, is computed either way.
// `parts` leaves out what no caller draws (EstimateParts); every other figure is the same.
Estimate estimate(const Scenario& scenario, StepDetail detail = StepDetail::peak, EstimateParts parts = {},
                  std::string_view shown_controls = every_control);

}  // namespace trainscope
