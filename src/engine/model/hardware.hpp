// Accelerators: memory, dense 16-bit peak, power, memory bandwidth and interconnect, from vendor
// datasheets (docs/model.md §7, §10).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace trainscope {

struct Gpu {
    std::string id;
    std::string name;
    double memory_bytes = 0;
    double peak_flops = 0;  // dense BF16/FP16 FLOP/s, no sparsity
    double watts = 0;
    double memory_bandwidth = 0;  // bytes/s of device memory (HBM/GDDR); 0 when not given (custom)
    std::string source;
    // A label for charts and tables: the name without the vendor ("H100 SXM", "A100 SXM 80 GB"),
    // and without the memory when a label states it beside ("A100 SXM", "V100").
    std::string short_name;
    std::string model_name;
    // Interconnect (docs/model.md §10), bytes/s per GPU and per direction; 0 when not given (a
    // custom GPU, or not published): the model then takes the H100 SXM's and says so.
    double gpus_per_node = 0;         // GPUs joined by the fast link (NVLink, Infinity Fabric, ICI)
    double intra_node_bandwidth = 0;  // the fast link within a node
    double inter_node_bandwidth = 0;  // the network between nodes (InfiniBand/RoCE NIC per GPU)
    double pcie_bandwidth = 0;        // the GPU's host link
    std::string interconnect_source;
};

const std::vector<Gpu>& gpu_catalogue();

// What a training process holds besides its tensors (docs/model.md §9).
// The CUDA context with the libraries' workspaces, paid before the first tensor: Hugging Face's
// "Efficient training on a single GPU" (transformers docs, 2022) measured 1,343 MiB with a 1×1
// tensor on a V100; it varies with the driver and the libraries loaded. A stated allowance.
constexpr double cuda_context_bytes = 1343.0 * 1048576.0;
// PyTorch's caching allocator keeps freed blocks reserved, so reserved ≥ allocated. GMLake (Guo et
// al. 2024, ASPLOS; arXiv:2401.08156, abstract) measured its fragmentation, (reserved − allocated)
// / reserved, at 15% on average (up to 33%) over eight LLMs' fine-tuning on A100-80GB. A stated
// allowance for comparing with reserved memory; the allocator frees its cache before it reports
// out of memory, so whether a run fits is judged on allocated memory.
constexpr double allocator_fragmentation = 0.15;

// Memory the GPU offers its tensors: what the driver reports, less the CUDA context.
double tensor_memory_bytes(const Gpu& gpu);
// PyTorch's reserved memory for `allocated` bytes of tensors, with allocator_fragmentation.
double reserved_bytes(double allocated);
const Gpu* find_gpu(std::string_view id);

}  // namespace trainscope
