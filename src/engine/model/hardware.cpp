#include "engine/model/hardware.hpp"

namespace trainscope {

namespace {

// Gb/s (network ports are sold in bits) and the vendors' bidirectional GB/s, as bytes/s per direction.
constexpr double gigabits(double value) { return value * 1e9 / 8; }
constexpr double bidirectional_gigabytes(double value) { return value * 1e9 / 2; }
// Memory as the driver reports it (nvidia-smi's "Total", MiB = 2^20 bytes): vendors' "80 GB" is
// 80 GiB of HBM less what the driver keeps (docs/model.md §9).
constexpr double mebibytes(double value) { return value * 1048576.0; }

Gpu row(const char* id, const char* name, double memory, double peak, double watts, double bandwidth,
        const char* source, const char* short_name, const char* model_name, double gpus_per_node, double intra,
        double inter, double pcie, const char* interconnect_source) {
    return Gpu{id,         name,       memory,        peak,  watts, bandwidth, source,
               short_name, model_name, gpus_per_node, intra, inter, pcie,      interconnect_source};
}

}  // namespace

const std::vector<Gpu>& gpu_catalogue() {
    // Dense 16-bit tensor peak (no sparsity), memory in bytes as the driver reports it where a
    // published nvidia-smi output shows it (else the datasheet's decimal GB, and the row says so), board power, memory
    // bandwidth in decimal bytes/s (docs/model.md §7); every figure from the datasheet named in the row. Interconnect
    // (docs/model.md §10): datasheets quote NVLink and PCIe both directions together; the catalogue keeps one
    // direction. A node is the vendor's 8-GPU board (HGX/DGX, MI300X platform) with one network port per GPU, as the
    // DGX datasheets list them.
    static const std::vector<Gpu> catalogue = {
        row("h100-sxm", "NVIDIA H100 SXM", mebibytes(81559), 989e12, 700, 3.35e12,
            "NVIDIA H100 Tensor Core GPU datasheet (SXM5); memory as nvidia-smi reports it: 81,559 MiB "
            "(thamada/nvidia-smi nvsim/H100SXMx8_smi.py @ 03fbe6e, driver 565.57.01)",
            "H100 SXM", "H100 SXM", 8, bidirectional_gigabytes(900), gigabits(400), bidirectional_gigabytes(128),
            "NVIDIA H100 datasheet (NVLink 900 GB/s, PCIe Gen5 128 GB/s); NVIDIA DGX H100 datasheet (8 GPUs, "
            "8 × ConnectX-7 400 Gb/s InfiniBand)"),
        row("h200-sxm", "NVIDIA H200 SXM", mebibytes(143771), 989e12, 700, 4.8e12,
            "NVIDIA H200 Tensor Core GPU datasheet (SXM); memory as nvidia-smi reports it: 143,771 MiB (public "
            "nvidia-smi outputs found by exact search; none pinned to a commit here)",
            "H200 SXM", "H200 SXM", 8, bidirectional_gigabytes(900), gigabits(400), bidirectional_gigabytes(128),
            "NVIDIA H200 datasheet (NVLink 900 GB/s, PCIe Gen5 128 GB/s); NVIDIA DGX H200 datasheet (8 GPUs, "
            "8 × ConnectX-7 400 Gb/s)"),
        row("h800-sxm", "NVIDIA H800 SXM", mebibytes(81559), 989e12, 700, 3.35e12,
            "NVIDIA H800 Tensor Core GPU datasheet (SXM5): H100's compute and memory, NVLink cut to 400 GB/s; "
            "nvidia-smi reports 81,559 MiB as for the H100 (a public nvidia-smi output found by exact search, not "
            "pinned)",
            "H800 SXM", "H800 SXM", 8, bidirectional_gigabytes(400), gigabits(400), bidirectional_gigabytes(128),
            "NVIDIA H800 datasheet (NVLink 400 GB/s, PCIe Gen5 128 GB/s); DeepSeek-AI 2024, DeepSeek-V3 "
            "Technical Report §3.1–3.2 (8 GPUs per node, InfiniBand 50 GB/s per GPU)"),
        row("a100-sxm-80", "NVIDIA A100 SXM 80 GB", mebibytes(81920), 312e12, 400, 2.039e12,
            "NVIDIA A100 Tensor Core GPU datasheet; memory as nvidia-smi reports it: 81,920 MiB "
            "(thamada/nvidia-smi gls/A100SXMx4_smi.py @ b09ef13, driver 555.42.02)",
            "A100 SXM 80 GB", "A100 SXM", 8, bidirectional_gigabytes(600), gigabits(200), bidirectional_gigabytes(64),
            "NVIDIA A100 datasheet (NVLink 600 GB/s, PCIe Gen4 64 GB/s); NVIDIA DGX A100 datasheet (8 GPUs, "
            "8 × ConnectX-6 200 Gb/s HDR InfiniBand)"),
        row("a100-sxm-40", "NVIDIA A100 SXM 40 GB", mebibytes(40960), 312e12, 400, 1.555e12,
            "NVIDIA A100 Tensor Core GPU datasheet; memory as nvidia-smi reports it: 40,960 MiB "
            "(Slusheeking/nextgen docs/SYSTEM_HARDWARE.md, driver 570.124.06)",
            "A100 SXM 40 GB", "A100 SXM", 8, bidirectional_gigabytes(600), gigabits(200), bidirectional_gigabytes(64),
            "NVIDIA A100 datasheet (NVLink 600 GB/s, PCIe Gen4 64 GB/s); NVIDIA DGX A100 datasheet (8 GPUs, "
            "8 × ConnectX-6 200 Gb/s HDR InfiniBand)"),
        row("l40s", "NVIDIA L40S", mebibytes(46068), 362.05e12, 350, 864e9,
            "NVIDIA L40S datasheet (BF16 tensor, dense); memory as nvidia-smi reports it: 46,068 MiB "
            "(thamada/nvidia-smi nvsim/L40S_smi.py @ c768aed, driver 550.127.05)",
            "L40S", "L40S", 8, bidirectional_gigabytes(64), gigabits(100), bidirectional_gigabytes(64),
            "NVIDIA L40S datasheet (no NVLink; PCIe Gen4 x16, 64 GB/s): GPUs of a node talk over PCIe; 8 per node "
            "and one 100 Gb/s Ethernet port per GPU are this catalogue's assumption, as for the RTX 4090"),
        row("b200", "NVIDIA B200", 180e9, 2250e12, 1000, 8e12,
            "NVIDIA DGX B200 datasheet (per GPU; sold as 192 GB); memory: the datasheet's 180 GB as 10^9 bytes, "
            "no published nvidia-smi output found",
            "B200", "B200", 8, bidirectional_gigabytes(1800), gigabits(400), bidirectional_gigabytes(128),
            "NVIDIA DGX B200 datasheet (8 GPUs, NVLink 1.8 TB/s per GPU, 8 × ConnectX-7 400 Gb/s); HGX B200 "
            "(PCIe Gen5 128 GB/s)"),
        row("mi300x", "AMD Instinct MI300X", 192e9, 1307e12, 750, 5.3e12,
            "AMD Instinct MI300X data sheet; memory: its 192 GB as 10^9 bytes, no published rocm-smi total found",
            "MI300X", "MI300X", 8, bidirectional_gigabytes(896), gigabits(400), bidirectional_gigabytes(128),
            "AMD Instinct MI300X data sheet and MI300X Platform data sheet (8 GPUs, 7 Infinity Fabric links "
            "of 128 GB/s: 896 GB/s, PCIe Gen5 128 GB/s); network: one 400 Gb/s NIC per GPU, as the H100's"),
        row("v100-32", "NVIDIA V100 32 GB", 32e9, 125e12, 300, 900e9,
            "NVIDIA V100 datasheet (SXM2, FP16 tensor); memory: its 32 GB as 10^9 bytes, no published nvidia-smi "
            "total found",
            "V100 32 GB", "V100", 8, bidirectional_gigabytes(300), gigabits(100) / 2, bidirectional_gigabytes(32),
            "NVIDIA V100 datasheet (NVLink 300 GB/s, PCIe Gen3 32 GB/s); NVIDIA DGX-1 datasheet (8 GPUs, "
            "4 × 100 Gb/s EDR InfiniBand: one port per two GPUs)"),
        row("v100-16", "NVIDIA V100 16 GB", mebibytes(16160), 125e12, 300, 900e9,
            "NVIDIA V100 datasheet (SXM2, FP16 tensor); memory as nvidia-smi reports it: 16,160 MiB (public "
            "nvidia-smi outputs of Tesla V100-SXM2-16GB found by exact search; none pinned to a commit here)",
            "V100 16 GB", "V100", 8, bidirectional_gigabytes(300), gigabits(100) / 2, bidirectional_gigabytes(32),
            "NVIDIA V100 datasheet (NVLink 300 GB/s, PCIe Gen3 32 GB/s); NVIDIA DGX-1 datasheet (8 GPUs, "
            "4 × 100 Gb/s EDR InfiniBand: one port per two GPUs)"),
        row("rtx-4090", "NVIDIA GeForce RTX 4090", mebibytes(24564), 165e12, 450, 1008e9,
            "NVIDIA Ada Lovelace architecture whitepaper (FP16 tensor, FP32 accumulate); memory as nvidia-smi "
            "reports it: 24,564 MiB (thamada/nvidia-smi package/RTX4090_smi.py @ 6f38a71, driver 550.127.05)",
            "RTX 4090", "RTX 4090", 8, bidirectional_gigabytes(64), gigabits(100), bidirectional_gigabytes(64),
            "NVIDIA Ada Lovelace architecture whitepaper (no NVLink; PCIe Gen4 x16, 64 GB/s): GPUs of a node "
            "talk over PCIe; 8 per node and one 100 Gb/s Ethernet port per GPU are this catalogue's assumption"),
        row("tpu-v5p", "Google TPU v5p", 95e9, 459e12, 0, 2765e9, "Google Cloud TPU v5p documentation (BF16)",
            "TPU v5p", "TPU v5p", 8960, gigabits(4800) / 2, 0, 0,
            "Google Cloud TPU v5p documentation (inter-chip interconnect 4,800 Gb/s per chip, 8,960 chips per pod "
            "in a 3D torus); the network between pods is not published"),
    };
    return catalogue;
}

double tensor_memory_bytes(const Gpu& gpu) { return gpu.memory_bytes - cuda_context_bytes; }

double reserved_bytes(double allocated) { return allocated / (1.0 - allocator_fragmentation); }

const Gpu* find_gpu(std::string_view id) {
    for (const auto& gpu : gpu_catalogue())
        if (gpu.id == id) return &gpu;
    return nullptr;
}

}  // namespace trainscope
