// Offload to CPU memory (docs/model.md §16): ZeRO-Offload keeps the optimizer's shard, the FP32
// master copy and the gradients in CPU memory and runs the update there; ZeRO-Infinity moves the
// 16-bit weights too and brings each layer back over PCIe when it is used.
#pragma once

#include "engine/model/memory.hpp"
#include "engine/model/model.hpp"
#include "engine/model/scenario.hpp"

namespace trainscope {

struct OffloadFigures {
    ModelStateBytes moved;          // per GPU: what CPU memory holds for it
    double gpus_per_node = 0;       // GPUs whose states one node's CPU memory holds: min(G, node size)
    double cpu_bytes_per_node = 0;  // moved.total() × gpus_per_node
    double to_cpu_bytes = 0;        // per step, per GPU: the gradients' shard
    double to_gpu_bytes = 0;        // per step, per GPU: the updated weights, and with parameters each pass's weights
    double pcie_bandwidth = 0;      // bytes/s per direction it was timed with
    bool pcie_assumed = false;      // the GPU gives no PCIe figure: the H100 SXM's was used
    double pcie_seconds = 0;        // the larger direction over the bandwidth (PCIe is full duplex)
};

// Moves the offloaded states out of `per_gpu_states` (what then stays on the GPU) and says what
// went where. First takes off what the optimizer choices keep away from PyTorch's allocator: a
// paged optimizer's states, and with the optimizer step in the backward all gradients but one matrix's. `trainable` is
// one trainable parameter's tally (FineTuningFigures::trainable_bytes), `micro_batches` the step's μ (docs/model.md
// §4).
OffloadFigures offload_states(const Scenario& scenario, const BytesPerParam& bytes_per_param,
                              const BytesPerParam& trainable, const ParameterCount& params, double micro_batches,
                              ModelStateBytes& per_gpu_states);

}  // namespace trainscope
