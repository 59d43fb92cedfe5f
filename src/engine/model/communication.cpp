#include "engine/model/communication.hpp"

#include <algorithm>
#include <cmath>

#include "engine/model/finetune.hpp"
#include "engine/model/hardware.hpp"
#include "engine/model/offload.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {

const char* comm_term_name(CommTerm term) {
    switch (term) {
        case CommTerm::pipeline_bubble:
            return "pipeline_bubble";
        case CommTerm::pipeline_transfers:
            return "pipeline_transfers";
        case CommTerm::tensor_parallel:
            return "tensor_parallel";
        case CommTerm::context_parallel:
            return "context_parallel";
        case CommTerm::expert_parallel:
            return "expert_parallel";
        case CommTerm::data_parallel:
            return "data_parallel";
        case CommTerm::zero3_gathers:
            return "zero3_gathers";
        case CommTerm::offload_transfers:
            return "offload_transfers";
    }
    return "pipeline_bubble";
}

std::string comm_term_label(CommTerm term) {
    switch (term) {
        case CommTerm::pipeline_bubble:
            return message("communication.term.pipeline_bubble", "the pipeline bubble");
        case CommTerm::pipeline_transfers:
            return message("communication.term.pipeline_transfers", "sending activations between pipeline stages");
        case CommTerm::tensor_parallel:
            return message("communication.term.tensor_parallel", "tensor-parallel all-reduces");
        case CommTerm::context_parallel:
            return message("communication.term.context_parallel",
                           "passing keys and values between context-parallel GPUs");
        case CommTerm::expert_parallel:
            return message("communication.term.expert_parallel", "the all-to-all that routes tokens to their experts");
        case CommTerm::data_parallel:
            return message("communication.term.data_parallel", "reducing the gradients over the data-parallel GPUs");
        case CommTerm::zero3_gathers:
            return message("communication.term.zero3_gathers",
                           "ZeRO-3's gathers of the weights and scatters of the gradients");
        case CommTerm::offload_transfers:
            return message("communication.term.offload_transfers", "PCIe transfers to and from CPU memory (offload)");
    }
    return std::string();
}

namespace {

// std::fmax(floor, x) for a floor that is a number, without libm's call (the fit search asks
// tens of thousands of times): the same value for every x, NaN included (then the floor).
inline double at_least(double floor, double x) { return x > floor ? x : floor; }

struct Links {
    double per_node = 8, intra = 0, inter = 0;
    bool assumed = false;
};

// §10: a GPU without its interconnect in the catalogue (custom; the TPU's network between pods)
// takes the H100 SXM's.
Links links_of(const Gpu& gpu) {
    Links links;
    links.assumed = !(gpu.gpus_per_node >= 1 && gpu.intra_node_bandwidth > 0 && gpu.inter_node_bandwidth > 0);
    if (!links.assumed) {
        links.per_node = gpu.gpus_per_node;
        links.intra = gpu.intra_node_bandwidth;
        links.inter = gpu.inter_node_bandwidth;
        return links;  // no catalogue look-up (a search over names) for a GPU that needs none
    }
    const Gpu* reference = find_gpu("h100-sxm");
    links.per_node = gpu.gpus_per_node >= 1 ? gpu.gpus_per_node : reference->gpus_per_node;
    links.intra = gpu.intra_node_bandwidth > 0 ? gpu.intra_node_bandwidth : reference->intra_node_bandwidth;
    links.inter = gpu.inter_node_bandwidth > 0 ? gpu.inter_node_bandwidth : reference->inter_node_bandwidth;
    return links;
}

// §13, placement: Megatron-Core orders ranks tensor, context, (expert,) data, pipeline, innermost
// first, so a group whose ranks span at most one node's GPUs talks over the fast link.
void place(CommTermSeconds& term, const Links& links, double span) {
    term.within_node = span <= links.per_node;
    term.bandwidth = term.within_node ? links.intra : links.inter;
}

}  // namespace

namespace {

// What every term of one step needs: the layout, this GPU's share of a micro-batch and its time.
struct StepShape {
    const Scenario& scenario;
    const ParameterCount& params;
    const BytesPerParam& bytes_per_param;
    Links links;
    double t, p, c, e, v, d, sharding;
    double micro_batches, micro_batch_seconds, stage_layers, value_bytes, local_tokens;
    bool full_recompute;
};

CommTermSeconds& term_of(CommunicationModel& model, CommTerm id) { return model.terms[static_cast<std::size_t>(id)]; }

// Narayanan et al. 2021 §2.2: the bubble is (p − 1)/(m·v) of the m micro-batches' ideal
// time, that is (p − 1)/v micro-batches' worth; nothing fills it.
void set_bubble(const StepShape& s, CommunicationModel& model) {
    CommTermSeconds& bubble = term_of(model, CommTerm::pipeline_bubble);
    bubble.group = s.p;
    bubble.seconds = bubble.exposed_seconds = (s.p - 1) / s.v * s.micro_batch_seconds;
}

void add_pipeline_terms(const StepShape& s, CommunicationModel& model) {
    const Architecture& a = s.scenario.model.architecture;
    set_bubble(s, model);
    // Each micro-batch sends its activations forward and their gradients back at every stage
    // boundary, split over t (Narayanan et al. 2021 §4.1, scatter/gather), v times interleaved.
    CommTermSeconds& transfers = term_of(model, CommTerm::pipeline_transfers);
    transfers.group = s.p;
    place(transfers, s.links, s.t * s.c * s.d * s.p);
    const double bytes = s.local_tokens * a.hidden * s.value_bytes / s.t;
    transfers.seconds = transfers.exposed_seconds = s.micro_batches * 2 * s.v * bytes / transfers.bandwidth;
}

// Megatron-LM (Shoeybi et al. 2019 §3): two all-reduces of the layer's activations forward,
// two backward (with sequence parallelism a reduce-scatter and an all-gather each, the same
// bytes; Korthikanti et al. 2022 §4.2.2), two more when full recompute repeats the forward.
// Ring all-reduce moves 2(n − 1)/n of the data per GPU (Patarasuk & Yuan 2009).
void add_tensor_term(const StepShape& s, CommunicationModel& model) {
    const Architecture& a = s.scenario.model.architecture;
    CommTermSeconds& tensor = term_of(model, CommTerm::tensor_parallel);
    tensor.group = s.t;
    place(tensor, s.links, s.t);
    const double per_layer =
        (s.full_recompute ? 6.0 : 4.0) * 2 * (s.t - 1) / s.t * s.local_tokens * a.hidden * s.value_bytes;
    tensor.seconds = tensor.exposed_seconds = s.micro_batches * s.stage_layers * per_layer / tensor.bandwidth;
}

// Ring attention (Liu et al. 2023; Megatron-Core's context parallelism): each rank passes its
// K and V chunk around the c ranks, c − 1 hops forward and, with their gradients, twice that
// backward; each hop overlaps the attention on the chunk already there.
void add_context_term(const StepShape& s, double sustained, CommunicationModel& model) {
    const Architecture& a = s.scenario.model.architecture;
    CommTermSeconds& context = term_of(model, CommTerm::context_parallel);
    context.group = s.c;
    place(context, s.links, s.t * s.c);
    const double head = a.head_dim > 0 ? a.head_dim : a.hidden / a.heads;
    const double kv_values = a.latent_attention() ? a.heads * (a.nope_head_dim + a.rope_head_dim + a.v_head_dim) / s.t
                                                  : 2 * at_least(1.0, a.kv_heads / s.t) * head;
    const double per_layer = 3 * (s.c - 1) * s.local_tokens * kv_values * s.value_bytes / context.bandwidth;
    const double attention =
        3 * attention_forward_flops_per_layer(a, s.scenario.training.sequence) * s.local_tokens / s.t / sustained;
    context.seconds = s.micro_batches * s.stage_layers * per_layer;
    context.exposed_seconds = s.micro_batches * s.stage_layers * at_least(0.0, per_layer - attention);
}

// GShard (Lepikhin et al. 2020) / Megatron-Core's token dispatcher: an all-to-all sends each
// token's hidden state to its k experts and one brings them back, forward and backward;
// (e − 1)/e of it leaves the GPU. Overlapped with the computation of the layer it serves
// (DeepSeek-V3 §3.2.1 overlaps it with another micro-batch's), so only the excess shows.
void add_expert_term(const StepShape& s, CommunicationModel& model) {
    const Architecture& a = s.scenario.model.architecture;
    CommTermSeconds& expert = term_of(model, CommTerm::expert_parallel);
    expert.group = s.e;
    place(expert, s.links, s.t * s.e);
    const double moe_layers = (a.layers - a.dense_layers) / s.p;
    // Across nodes, node-limited routing sends a token to at most M nodes, once each, and NVLink
    // forwards it to its experts there (DeepSeek-V3 §2.1.2, §3.2.2): min(k, M) copies cross the network.
    const double copies = !expert.within_node && a.expert_node_limit > 0
                              ? std::fmin(a.experts_per_token, a.expert_node_limit)
                              : a.experts_per_token;
    const double bytes = s.local_tokens / s.t * copies * a.hidden * s.value_bytes * (s.e - 1) / s.e;
    const double per_layer = (s.full_recompute ? 6.0 : 4.0) * bytes / expert.bandwidth;
    const double layer_compute = s.micro_batch_seconds / s.stage_layers;
    expert.seconds = s.micro_batches * moe_layers * per_layer;
    expert.exposed_seconds = s.micro_batches * moe_layers * at_least(0.0, per_layer - layer_compute);
}

// The gradients of this GPU's parameters: (N − N_r)/(t·p) reduced over the d·c ranks, the
// routed experts' N_r/(t·p·e) over d·c/e (§11).
void add_sharding_term(const StepShape& s, CommunicationModel& model) {
    const double routed = s.e > 1 ? s.params.routed_experts : 0.0;
    const double dense_params = (s.params.total - routed) / (s.t * s.p), expert_params = routed / (s.t * s.p * s.e);
    const double expert_sharding = s.sharding / s.e;
    auto ring = [](double n) { return n > 1 ? (n - 1) / n : 0.0; };
    const double sharded_params = ring(s.sharding) * dense_params + ring(expert_sharding) * expert_params;
    if (s.scenario.parallel.zero_stage < 3) {
        // Data parallelism all-reduces the gradients, 2(n − 1)/n of them per GPU (ring all-reduce);
        // ZeRO-1/2 reduce-scatter them and all-gather the updated weights: the same bytes (ZeRO §7.1).
        // Bucketed, overlapped with the last micro-batch's backward pass (PyTorch DDP, Li et al.
        // 2020; Megatron's overlap_grad_reduce): only what outlasts it shows.
        CommTermSeconds& data = term_of(model, CommTerm::data_parallel);
        data.group = s.sharding;
        place(data, s.links, s.t * s.c * s.d);
        data.seconds = 2 * sharded_params * s.bytes_per_param.gradients / data.bandwidth;
        data.exposed_seconds = at_least(0.0, data.seconds - s.micro_batch_seconds * 2.0 / 3.0);
    } else {
        // ZeRO-3 (ZeRO §7.2.2): each micro-batch gathers the weights for the forward and again for
        // the backward and reduce-scatters the gradients, 1.5 times data parallelism's volume;
        // prefetched and overlapped with that micro-batch's compute.
        CommTermSeconds& gathers = term_of(model, CommTerm::zero3_gathers);
        gathers.group = s.sharding;
        place(gathers, s.links, s.t * s.c * s.d);
        const double per_micro_batch =
            sharded_params * (2 * s.bytes_per_param.weights + s.bytes_per_param.gradients) / gathers.bandwidth;
        gathers.seconds = s.micro_batches * per_micro_batch;
        gathers.exposed_seconds = s.micro_batches * at_least(0.0, per_micro_batch - s.micro_batch_seconds);
    }
}

// The step: compute plus every exposed term; the term that exposes the most dominates.
void sum_step(CommunicationModel& model) {
    model.step_seconds = model.compute_seconds;
    double most = 0;
    for (const CommTermSeconds& one : model.terms) {
        model.step_seconds += one.exposed_seconds;
        if (one.exposed_seconds > most) {
            most = one.exposed_seconds;
            model.has_dominant = true;
            model.dominant = one.term;
        }
    }
}

// The step as modelled, in time (docs/model.md §13): the bubble's warm-up, the first, middle and
// last micro-batches' compute each followed by their exposed exchanges, the cool-down, the
// gradient reduction.
void lay_out_schedule(const StepShape& s, CommunicationModel& model) {
    double clock = 0;
    auto add = [&](bool is_compute, CommTerm id, double first, double last, double seconds) {
        if (!(seconds > 0)) return;
        model.schedule.push_back(CommPhase{is_compute, id, first, last, clock, seconds});
        clock += seconds;
    };
    const double bubble = term_of(model, CommTerm::pipeline_bubble).exposed_seconds;
    add(false, CommTerm::pipeline_bubble, 0, 0, bubble / 2);
    const CommTerm per_micro_batch[] = {CommTerm::pipeline_transfers, CommTerm::tensor_parallel,
                                        CommTerm::context_parallel, CommTerm::expert_parallel, CommTerm::zero3_gathers};
    auto micro_batch_run = [&](double first, double last) {
        const double count = last - first + 1;
        add(true, CommTerm::pipeline_bubble, first, last, count * s.micro_batch_seconds);
        for (const CommTerm id : per_micro_batch)
            add(false, id, first, last, count * term_of(model, id).exposed_seconds / s.micro_batches);
    };
    if (s.micro_batches <= 3) {
        for (double k = 1; k <= s.micro_batches; ++k) micro_batch_run(k, k);
    } else {
        micro_batch_run(1, 1);
        micro_batch_run(2, s.micro_batches - 1);
        micro_batch_run(s.micro_batches, s.micro_batches);
    }
    add(false, CommTerm::pipeline_bubble, 0, 0, bubble - bubble / 2);
    add(false, CommTerm::data_parallel, 0, 0, term_of(model, CommTerm::data_parallel).exposed_seconds);
    add(false, CommTerm::offload_transfers, 0, 0, term_of(model, CommTerm::offload_transfers).exposed_seconds);
}

}  // namespace

namespace {

// §6's FLOPs per token, this GPU's 1/(t·p·c) share of one micro-batch, at the arithmetic's rate.
double micro_batch_seconds_of(const Scenario& scenario, const TrainingCompute& compute) {
    const TrainingSettings& training = scenario.training;
    const ParallelSettings& parallel = scenario.parallel;
    const double t = parallel.tensor, p = parallel.pipeline, c = parallel.context;
    const double tokens = training.tokens > 0 ? training.tokens : 1;
    const double sustained = scenario.hardware.gpu.peak_flops * arithmetic_efficiency;
    const double micro_batch_tokens = training.micro_batch * training.sequence;
    return compute.hardware_flops / tokens * micro_batch_tokens / (t * p * c) / sustained;
}

// The layout's shape and its arithmetic (§13), no term yet: what the full step and its floor share,
// so the two start from the same figures.
StepShape step_shape(const Scenario& scenario, const ParameterCount& params, const BytesPerParam& bytes_per_param,
                     const TrainingCompute& compute, CommunicationModel& model) {
    const TrainingSettings& training = scenario.training;
    const ParallelSettings& parallel = scenario.parallel;
    const double t = parallel.tensor, p = parallel.pipeline, c = parallel.context;
    model.arithmetic_efficiency = arithmetic_efficiency;
    const Links links = links_of(scenario.hardware.gpu);
    model.interconnect_assumed = links.assumed;
    model.micro_batches = micro_batches_per_step(training, parallel);
    const double micro_batch_tokens = training.micro_batch * training.sequence;
    const double micro_batch_seconds = micro_batch_seconds_of(scenario, compute);
    model.compute_seconds = model.micro_batches * micro_batch_seconds;

    const double d = parallel.data_parallel();
    const StepShape shape{scenario,
                          params,
                          bytes_per_param,
                          links,
                          t,
                          p,
                          c,
                          parallel.expert,
                          parallel.interleave,
                          d,
                          d * c,
                          model.micro_batches,
                          micro_batch_seconds,
                          scenario.model.architecture.layers / p,
                          training.precision == NumberFormat::fp32 ? 4.0 : 2.0,
                          micro_batch_tokens / c,  // one micro-batch's tokens on one context rank
                          training.recompute == Recompute::full};
    for (int i = 0; i < comm_term_count; ++i) model.terms[static_cast<std::size_t>(i)].term = static_cast<CommTerm>(i);
    return shape;
}

// The terms that depend on t, p, v and c alone (the bubble, the pipeline's transfers, tensor and
// context parallelism): the first four in CommTerm order.
void add_layout_terms(const StepShape& shape, CommunicationModel& model) {
    const double sustained = shape.scenario.hardware.gpu.peak_flops * arithmetic_efficiency;
    if (shape.p > 1) add_pipeline_terms(shape, model);
    if (shape.t > 1) add_tensor_term(shape, model);
    if (shape.c > 1) add_context_term(shape, sustained, model);
}

// ZeRO-Offload (Ren et al. 2021 §4.1) and ZeRO-Infinity (Rajbhandari et al. 2021 §5): each step
// sends the gradient shard to the CPU and brings the updated weights (with parameter offload, every
// pass's weights) back over PCIe (offload.cpp, docs/model.md §16). Counted whole: the engine assumes
// no overlap with the arithmetic, so the step's time includes what the offload note says it costs.
void add_offload_term(const StepShape& s, CommunicationModel& model) {
    const Scenario& scenario = s.scenario;
    const FineTuningFigures fine_tuning =
        fine_tuning_figures(scenario.training, scenario.model.architecture, s.params.total);
    ModelStateBytes states = per_gpu_model_states(s.bytes_per_param, s.params, scenario.parallel);
    const OffloadFigures offload =
        offload_states(scenario, s.bytes_per_param, fine_tuning.trainable_bytes, s.params, s.micro_batches, states);
    CommTermSeconds& pcie = term_of(model, CommTerm::offload_transfers);
    pcie.bandwidth = offload.pcie_bandwidth;
    pcie.seconds = pcie.exposed_seconds = offload.pcie_seconds;
}

// Every term and the step they sum to (§13), without the schedule: what communication_model and
// communication_step_seconds share, so the two give one step time.
StepShape step_terms(const Scenario& scenario, const ParameterCount& params, const BytesPerParam& bytes_per_param,
                     const TrainingCompute& compute, CommunicationModel& model) {
    const StepShape shape = step_shape(scenario, params, bytes_per_param, compute, model);
    add_layout_terms(shape, model);
    if (shape.e > 1 && params.routed_experts > 0) add_expert_term(shape, model);
    if (shape.sharding > 1) add_sharding_term(shape, model);
    if (scenario.training.offload != Offload::none) add_offload_term(shape, model);
    sum_step(model);
    return shape;
}

}  // namespace

CommunicationModel communication_model(const Scenario& scenario_in, const ParameterCount& params,
                                       const BytesPerParam& bytes_per_param, const TrainingCompute& compute,
                                       double gpus, double global_batch) {
    Scenario scenario = scenario_in;
    if (gpus > 0) scenario.parallel.gpus = gpus;
    if (global_batch > 0) scenario.training.global_batch = global_batch;
    const TrainingSettings& training = scenario.training;
    const ParallelSettings& parallel = scenario.parallel;
    CommunicationModel model;
    const StepShape shape = step_terms(scenario, params, bytes_per_param, compute, model);
    lay_out_schedule(shape, model);

    // The model FLOPs of this GPU's share of the step, over the step's time at peak.
    const double tokens = training.tokens > 0 ? training.tokens : 1;
    const double micro_batch_tokens = training.micro_batch * training.sequence;
    model.predicted_mfu = compute.model_flops / tokens * micro_batch_tokens * model.micro_batches /
                          (parallel.tensor * parallel.pipeline * parallel.context) /
                          (model.step_seconds * scenario.hardware.gpu.peak_flops);
    model.run_seconds = run_seconds_at_step(scenario, model.micro_batches, model.step_seconds);
    return model;
}

double run_seconds_at_step(const Scenario& s, double micro_batches, double step_seconds) {
    const double sequences = micro_batches * s.training.micro_batch * s.parallel.data_parallel();
    return s.training.tokens / (sequences * s.training.sequence) * step_seconds;
}

double communication_step_seconds(const Scenario& scenario, const ParameterCount& params,
                                  const BytesPerParam& bytes_per_param, const TrainingCompute& compute) {
    CommunicationModel model;
    step_terms(scenario, params, bytes_per_param, compute, model);
    return model.step_seconds;
}

double communication_step_floor(const Scenario& scenario, const ParameterCount& params,
                                const BytesPerParam& bytes_per_param, const TrainingCompute& compute) {
    CommunicationModel model;
    add_layout_terms(step_shape(scenario, params, bytes_per_param, compute, model), model);
    // The expert, data-parallel and ZeRO-3 terms stay 0: the sum is the full step's sum up to them,
    // the same additions in the same order, and adding exposed times ≥ 0 never rounds it down.
    sum_step(model);
    return model.step_seconds;
}

void communication_step_floors(const Scenario& scenario, const ParameterCount& params,
                               const BytesPerParam& bytes_per_param, const TrainingCompute (&by_recompute)[3],
                               double (&floors)[3]) {
    CommunicationModel model;
    StepShape shape = step_shape(scenario, params, bytes_per_param, by_recompute[0], model);
    shape.full_recompute = false;  // recompute none's terms first, whatever the scenario's choice
    add_layout_terms(shape, model);
    for (int r = 0; r < 3; ++r) {
        // What step_shape gives the same layout with recompute choice r: its arithmetic and whether
        // tensor parallelism's forward exchanges repeat; nothing else in the shape reads it. So of
        // the four terms only the bubble (∝ the arithmetic) and, for full recompute, the tensor
        // term change: each set by the expression add_layout_terms uses, the same bits.
        if (r > 0) {
            shape.micro_batch_seconds = micro_batch_seconds_of(scenario, by_recompute[r]);
            shape.full_recompute = static_cast<Recompute>(r) == Recompute::full;
            if (shape.p > 1) set_bubble(shape, model);
            if (shape.t > 1 && shape.full_recompute) add_tensor_term(shape, model);
        }
        model.compute_seconds = shape.micro_batches * shape.micro_batch_seconds;
        sum_step(model);
        floors[r] = model.step_seconds;
    }
}

namespace {

// Where adding GPUs stops paying: the first point from which no doubling of the GPUs saves a tenth
// of the time any more. A dip that pays again later (leaving one node's fast links, then scaling
// on over the network) is not the end of scaling.
void mark_where_it_stops_paying(CommunicationCurve& curve) {
    const std::size_t count = curve.points.size();
    // For each point, the index of the first point with at least twice its GPUs (count: none).
    std::vector<std::size_t> doubled(count, count);
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t j = i + 1; j < count; ++j)
            if (curve.points[j].gpus >= 2 * curve.points[i].gpus) {
                doubled[i] = j;
                break;
            }
    const auto pays = [&](std::size_t i) { return curve.points[doubled[i]].seconds <= 0.9 * curve.points[i].seconds; };
    std::size_t stop = count;
    for (std::size_t i = count; i-- > 0;) {
        if (doubled[i] == count) continue;
        if (pays(i)) break;
        stop = i;
    }
    if (stop == count) return;
    const CommunicatedTimeOnGpus& next = curve.points[doubled[stop]];
    curve.stops_paying_gpus = curve.points[stop].gpus;
    curve.has_dominant = next.has_dominant;
    curve.dominant = next.dominant;
    curve.idle = next.idle;
}

}  // namespace

CommunicationCurve communication_curve(const Scenario& scenario, const ParameterCount& params,
                                       const BytesPerParam& bytes_per_param, const TrainingCompute& compute,
                                       const std::vector<TimeOnGpus>& stops) {
    const ParallelSettings& parallel = scenario.parallel;
    const TrainingSettings& training = scenario.training;
    CommunicationCurve curve;
    // §13: the curve keeps the scenario's global batch, as adding GPUs to a run does; without one,
    // 4 million tokens' worth of sequences (Llama 2's batch, Touvron et al. 2023 §2.2), or the
    // sequences the scenario's own layout runs per step when that is more. The tokens are the scenario's.
    const double own = micro_batches_per_step(training, parallel) * training.micro_batch * parallel.data_parallel();
    curve.global_batch = training.global_batch > 0
                             ? training.global_batch
                             : std::fmax(own, std::fmax(1.0, std::round(default_batch_tokens / training.sequence)));
    const double unit = parallel.tensor * parallel.pipeline * parallel.context;
    for (const TimeOnGpus& stop : stops) {
        const double d = stop.gpus / unit;
        if (!(d >= 1) || std::fmod(stop.gpus, unit) != 0 || std::fmod(d * parallel.context, parallel.expert) != 0)
            continue;
        const CommunicationModel model =
            communication_model(scenario, params, bytes_per_param, compute, stop.gpus, curve.global_batch);
        const double steps = training.tokens / (curve.global_batch * training.sequence);
        CommunicatedTimeOnGpus point;
        point.gpus = stop.gpus;
        point.seconds = steps * model.step_seconds;
        point.predicted_mfu = model.predicted_mfu;
        point.has_dominant = model.has_dominant;
        point.dominant = model.dominant;
        point.idle = curve.global_batch < training.micro_batch * d - 1e-9;
        curve.points.push_back(point);
    }
    mark_where_it_stops_paying(curve);
    return curve;
}

std::string communication_summary(const CommunicationModel& model, const CommunicationCurve& curve,
                                  double achieved_mfu) {
    using quantity::Figure;
    auto percent = [](double value) { return quantity::format(value, Figure::percent); };
    std::string text;
    if (!model.has_dominant) {
        text = message("communication.summary.nothing_waits",
                       "Nothing waits at this layout: the arithmetic alone reaches {efficiency} of peak, the "
                       "utilisation the model predicts, beside the {achieved} the time figures use.",
                       {{"efficiency", percent(model.arithmetic_efficiency)}, {"achieved", percent(achieved_mfu)}});
    } else {
        const double share = model.step_seconds > 0
                                 ? model.terms[static_cast<int>(model.dominant)].exposed_seconds / model.step_seconds
                                 : 0;
        text =
            message("communication.summary.dominant",
                    "At this layout the largest share of a step that compute does not hide, {share}, goes to {term}: "
                    "from arithmetic at {efficiency} of peak the model predicts {predicted} utilisation, beside the "
                    "{achieved} the time figures use.",
                    {{"term", comm_term_label(model.dominant)},
                     {"share", percent(share)},
                     {"efficiency", percent(model.arithmetic_efficiency)},
                     {"predicted", percent(model.predicted_mfu)},
                     {"achieved", percent(achieved_mfu)}});
    }
    if (curve.stops_paying_gpus > 0) {
        text += " " + message("communication.summary.stops_paying",
                              "Beyond {gpus}, doubling the GPUs saves less than a tenth of the time, lost to {term}.",
                              {{"gpus", quantity::format(curve.stops_paying_gpus, Figure::gpus)},
                               {"term", curve.has_dominant && !curve.idle
                                            ? comm_term_label(curve.dominant)
                                            : message("communication.term.idle",
                                                      "GPUs idle for want of sequences in the batch")}});
    }
    return text;
}

}  // namespace trainscope
