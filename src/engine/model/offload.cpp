#include "engine/model/offload.hpp"

#include <algorithm>
#include <cmath>

#include "engine/model/hardware.hpp"

namespace trainscope {

namespace {

// The largest single weight matrix one GPU holds, in parameters: the embedding or output head
// (V·h), an MLP matrix (h·f, each expert's) or an attention projection (h·h), split by t.
double largest_matrix_params(const Architecture& a, double tensor) {
    const double attention = a.hidden * (a.head_dim > 0 ? a.heads * a.head_dim : a.hidden);
    return std::fmax(a.vocab * a.hidden, std::fmax(a.hidden * std::fmax(a.mlp, a.routed_mlp()), attention)) / tensor;
}

// What the optimizer choices take off the GPU's allocator (docs/model.md §9).
void apply_optimizer_memory_choices(const Scenario& scenario, const BytesPerParam& trainable,
                                    ModelStateBytes& per_gpu_states) {
    const TrainingSettings& training = scenario.training;
    // bitsandbytes' paged optimizers allocate their states in CUDA unified memory (its
    // docs, "Paged optimizers"): not PyTorch's allocator, and paged out to CPU memory under pressure.
    if (training.paged_optimizer) per_gpu_states.optimizer_states = 0;
    // torchtune's optimizer_in_bwd steps each parameter in a hook as its gradient completes and
    // frees it: at most one tensor's gradient is held at a time, the largest matrix's.
    if (training.optimizer_in_backward) {
        const double one_gradient =
            largest_matrix_params(scenario.model.architecture, scenario.parallel.tensor) * trainable.gradients;
        per_gpu_states.gradients = std::fmin(per_gpu_states.gradients, one_gradient);
    }
}

}  // namespace

OffloadFigures offload_states(const Scenario& scenario, const BytesPerParam& bytes_per_param,
                              const BytesPerParam& trainable, const ParameterCount& params, double micro_batches,
                              ModelStateBytes& per_gpu_states) {
    apply_optimizer_memory_choices(scenario, trainable, per_gpu_states);
    OffloadFigures figures;
    const Offload offload = scenario.training.offload;
    if (offload == Offload::none) return figures;
    const Gpu& gpu = scenario.hardware.gpu;
    const Gpu* reference = find_gpu("h100-sxm");
    figures.pcie_bandwidth = gpu.pcie_bandwidth > 0 ? gpu.pcie_bandwidth : reference->pcie_bandwidth;
    figures.pcie_assumed = !(gpu.pcie_bandwidth > 0);
    const double node = gpu.gpus_per_node > 0 ? gpu.gpus_per_node : reference->gpus_per_node;
    figures.gpus_per_node = std::fmin(scenario.parallel.gpus, node);

    // ZeRO-Offload (Ren et al. 2021 §4.1): the optimizer's shard and the master copy live on the
    // CPU, and each GPU's gradient shard goes there after its reduce-scatter.
    figures.moved.master_weights = per_gpu_states.master_weights;
    figures.moved.optimizer_states = per_gpu_states.optimizer_states;
    ParallelSettings sharded = scenario.parallel;
    sharded.zero_stage = std::max(2, sharded.zero_stage);
    const double gradient_shard = per_gpu_model_states(bytes_per_param, params, sharded).gradients;
    figures.moved.gradients = scenario.parallel.zero_stage >= 2 ? per_gpu_states.gradients : 0.0;
    per_gpu_states.master_weights = per_gpu_states.optimizer_states = 0;
    per_gpu_states.gradients -= figures.moved.gradients;
    // Per step: the gradient shard out, the updated 16-bit weights back: ZeRO-Offload's 4Ψ for
    // 16-bit values (§4.1), each GPU its shard.
    figures.to_cpu_bytes = gradient_shard;
    figures.to_gpu_bytes = trainable.gradients > 0 ? gradient_shard * trainable.weights / trainable.gradients : 0.0;
    if (offload == Offload::parameters) {
        // ZeRO-Infinity (Rajbhandari et al. 2021 §5): the weights' shard lives on the CPU too and is
        // fetched for every forward and backward pass (and the recomputing forward) of every micro-batch.
        figures.moved.weights = per_gpu_states.weights;
        per_gpu_states.weights = 0;
        const double passes = scenario.training.recompute == Recompute::full ? 3.0 : 2.0;
        figures.to_gpu_bytes += passes * micro_batches * figures.moved.weights;
    }
    figures.cpu_bytes_per_node = figures.moved.total() * figures.gpus_per_node;
    figures.pcie_seconds = std::fmax(figures.to_cpu_bytes, figures.to_gpu_bytes) / figures.pcie_bandwidth;
    return figures;
}

}  // namespace trainscope
