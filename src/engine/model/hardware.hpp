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
const Gpu* find_gpu(std::string_view id);

}  // namespace trainscope
