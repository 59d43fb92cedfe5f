// What a training step spends besides arithmetic: the pipeline bubble and the communication
// that compute does not hide, per GPU (docs/model.md §13). It explains the achieved utilisation
// the time figures use rather than adding to it: from a stated efficiency of the arithmetic alone
// it predicts the utilisation a layout reaches, shown beside the one used.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engine/model/compute.hpp"
#include "engine/model/memory.hpp"
#include "engine/model/model.hpp"
#include "engine/model/scenario.hpp"

namespace trainscope {

// The fraction of peak a GPU's arithmetic reaches when nothing waits (docs/model.md §13).
constexpr double arithmetic_efficiency = 0.52;
// Tokens per optimizer step the curve over GPUs holds when the scenario gives no global batch:
// Llama 2's 4 million (Touvron et al. 2023 §2.2).
constexpr double default_batch_tokens = 4e6;

enum class CommTerm {
    pipeline_bubble,
    pipeline_transfers,
    tensor_parallel,
    context_parallel,
    expert_parallel,
    data_parallel,
    zero3_gathers,
    offload_transfers
};
constexpr int comm_term_count = 8;
const char* comm_term_name(CommTerm term);
// "the pipeline bubble", "tensor-parallel all-reduces", … in the current language.
std::string comm_term_label(CommTerm term);

struct CommTermSeconds {
    CommTerm term = CommTerm::pipeline_bubble;
    double seconds = 0;          // per step, per GPU: the whole transfer (or the idle time of the bubble)
    double exposed_seconds = 0;  // what compute does not hide
    double group = 1;            // GPUs in the collective (stages for the pipeline)
    double bandwidth = 0;        // bytes/s per GPU and direction it was timed with; 0 for the bubble
    bool within_node = true;     // the group fits in one node (NVLink), else the network
};

// One stretch of the modelled step on one GPU (docs/model.md §13, "The step as modelled"): a
// micro-batch's arithmetic (`is_compute`) or one exposed term, for micro-batches first … last.
struct CommPhase {
    bool is_compute = false;
    CommTerm term = CommTerm::pipeline_bubble;
    double micro_batch = 0, micro_batch_last = 0;  // 0: the step's own (the bubble, the gradient reduction)
    double start = 0, seconds = 0;
};

struct CommunicationModel {
    double arithmetic_efficiency = 0;
    double micro_batches = 1;
    double compute_seconds = 0;  // per step, per GPU, at the arithmetic efficiency
    double step_seconds = 0;     // compute + every exposed term
    double predicted_mfu = 0;    // model FLOPs per step per GPU / (step × peak)
    double run_seconds = 0;      // the run's tokens at this step time (run_seconds_at_step)
    // Every term, in CommTerm order: an array, so the inverse search's step times allocate nothing.
    std::array<CommTermSeconds, comm_term_count> terms{};
    bool has_dominant = false;  // false when nothing is exposed (one GPU)
    CommTerm dominant = CommTerm::pipeline_bubble;
    bool interconnect_assumed = false;  // the GPU gave no interconnect: the H100 SXM's was used
    // The step in time: half the bubble (the warm-up's wait), each micro-batch's arithmetic and the
    // exposed part of its own collectives, the other half of the bubble (the cool-down's), the
    // gradient reduction; the first and last micro-batches alone, the others as one run. The
    // durations add up to step_seconds.
    std::vector<CommPhase> schedule;
    double exposed_seconds() const { return step_seconds - compute_seconds; }
};

// The run's tokens in steps of μ·b·d sequences, each `step_seconds` long (docs/model.md §17): the
// run time "What fits" ranks layouts by and the estimate's predicted time, one function for both.
double run_seconds_at_step(const Scenario& scenario, double micro_batches, double step_seconds);

// One step of the scenario's layout (docs/model.md §13). `global_batch` overrides the scenario's
// (0: the scenario's own); `gpus` likewise (0: the scenario's).
CommunicationModel communication_model(const Scenario& scenario, const ParameterCount& params,
                                       const BytesPerParam& bytes_per_param, const TrainingCompute& compute,
                                       double gpus = 0, double global_batch = 0);

// communication_model(...).step_seconds, the same arithmetic, without the schedule or a copy of
// the scenario: what the inverse search times thousands of layouts with (docs/model.md §17).
double communication_step_seconds(const Scenario& scenario, const ParameterCount& params,
                                  const BytesPerParam& bytes_per_param, const TrainingCompute& compute);

// A floor under communication_step_seconds that ignores the expert split and the ZeRO stage: the
// arithmetic plus the terms fixed by t, p, v and c (bubble, pipeline transfers, tensor and context
// parallelism), summed as the full step sums them, so floor ≤ step holds bit for bit
// (docs/model.md §17: the inverse search rules out whole families of layouts with it).
double communication_step_floor(const Scenario& scenario, const ParameterCount& params,
                                const BytesPerParam& bytes_per_param, const TrainingCompute& compute);

// communication_step_floor for each recompute choice (none, selective, full) of the scenario's
// layout, with the training compute of each, bit for bit, from one shape.
void communication_step_floors(const Scenario& scenario, const ParameterCount& params,
                               const BytesPerParam& bytes_per_param, const TrainingCompute (&by_recompute)[3],
                               double (&floors)[3]);

// One point of the time-over-GPUs curve with communication: the same tokens, the same global batch,
// on `gpus` GPUs of the scenario's t, p, c and e.
struct CommunicatedTimeOnGpus {
    double gpus = 0;
    double seconds = 0;
    double predicted_mfu = 0;
    bool has_dominant = false;
    CommTerm dominant = CommTerm::pipeline_bubble;
    bool idle = false;  // more data-parallel ranks than the global batch has micro-batches for
};

struct CommunicationCurve {
    std::vector<CommunicatedTimeOnGpus> points;  // only GPU counts the layout divides
    double global_batch = 0;                     // the sequences per step held along the curve
    double stops_paying_gpus = 0;  // first point from which doubling the GPUs saves less than a tenth; 0: none
    bool has_dominant = false;
    CommTerm dominant = CommTerm::pipeline_bubble;  // what dominates there
    bool idle = false;                              // … or GPUs idle for want of sequences
};

CommunicationCurve communication_curve(const Scenario& scenario, const ParameterCount& params,
                                       const BytesPerParam& bytes_per_param, const TrainingCompute& compute,
                                       const std::vector<TimeOnGpus>& stops);

// One sentence: what dominates at the scenario's layout and where the curve stops paying.
std::string communication_summary(const CommunicationModel& model, const CommunicationCurve& curve,
                                  double achieved_mfu);

}  // namespace trainscope
