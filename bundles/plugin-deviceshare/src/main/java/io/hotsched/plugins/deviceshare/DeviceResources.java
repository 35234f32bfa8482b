package io.hotsched.plugins.deviceshare;

import java.util.List;
import java.util.Map;

/** Koordinator's device resource names, their device types, and the flags naming them in a request's combination. */
final class DeviceResources {

    static final String GPU = "koordinator.sh/gpu";
    static final String GPU_CORE = "koordinator.sh/gpu-core";
    static final String GPU_MEMORY = "koordinator.sh/gpu-memory";
    static final String GPU_MEMORY_RATIO = "koordinator.sh/gpu-memory-ratio";
    static final String GPU_SHARED = "koordinator.sh/gpu.shared";
    static final String NVIDIA_GPU = "nvidia.com/gpu";
    static final String AMD_GPU = "amd.com/gpu";
    static final String HYGON_DCU = "dcu.com/gpu";
    static final String NPU_CORE = "huawei.com/npu-core";
    static final String NPU_CPU = "huawei.com/npu-cpu";
    static final String NPU_DVPP = "huawei.com/npu-dvpp";
    static final String RDMA = "koordinator.sh/rdma";
    static final String FPGA = "koordinator.sh/fpga";

    /** Device types: the keys of the device-allocated annotation and of the Device CR's entries. */
    static final String TYPE_GPU = "gpu";

    static final String TYPE_RDMA = "rdma";
    static final String TYPE_FPGA = "fpga";

    /** Resource name to device type, in the order the types are handled. */
    static final Map<String, String> TYPE_OF = Map.ofEntries(
            Map.entry(GPU, TYPE_GPU),
            Map.entry(GPU_CORE, TYPE_GPU),
            Map.entry(GPU_MEMORY, TYPE_GPU),
            Map.entry(GPU_MEMORY_RATIO, TYPE_GPU),
            Map.entry(GPU_SHARED, TYPE_GPU),
            Map.entry(NVIDIA_GPU, TYPE_GPU),
            Map.entry(AMD_GPU, TYPE_GPU),
            Map.entry(HYGON_DCU, TYPE_GPU),
            Map.entry(NPU_CORE, TYPE_GPU),
            Map.entry(NPU_CPU, TYPE_GPU),
            Map.entry(NPU_DVPP, TYPE_GPU),
            Map.entry(RDMA, TYPE_RDMA),
            Map.entry(FPGA, TYPE_FPGA));

    static final List<String> TYPES = List.of(TYPE_GPU, TYPE_RDMA, TYPE_FPGA);

    /** The flag of each name in a combination, as Koordinator names them. */
    static final Map<String, String> FLAG = Map.ofEntries(
            Map.entry(NVIDIA_GPU, "NvidiaGPU"),
            Map.entry(AMD_GPU, "AMDGPU"),
            Map.entry(HYGON_DCU, "HygonDCU"),
            Map.entry(GPU, "KoordGPU"),
            Map.entry(GPU_SHARED, "GPUShared"),
            Map.entry(GPU_CORE, "GPUCore"),
            Map.entry(GPU_MEMORY, "GPUMemory"),
            Map.entry(GPU_MEMORY_RATIO, "GPUMemoryRatio"),
            Map.entry(NPU_CORE, "HuaweiNPUCore"),
            Map.entry(NPU_CPU, "HuaweiNPUCPU"),
            Map.entry(NPU_DVPP, "HuaweiNPUDVPP"),
            Map.entry(FPGA, "FPGA"),
            Map.entry(RDMA, "RDMA"));

    private DeviceResources() {}
}
