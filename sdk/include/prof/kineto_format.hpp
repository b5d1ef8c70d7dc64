// The words of PyTorch's Kineto trace (the JSON torch.profiler's
// export_chrome_trace and tensorboard_trace_handler write), spelled once:
// the kineto plugin writes them and reads them back with these, so the two
// directions cannot drift apart. Char arrays, usable as C strings and as
// string_views alike.
#ifndef PROF_KINETO_FORMAT_HPP
#define PROF_KINETO_FORMAT_HPP

namespace prof::kineto_format {

// The trace object.
inline constexpr char kTraceEvents[] = "traceEvents";
inline constexpr char kBaseTimeNanoseconds[] = "baseTimeNanoseconds";
inline constexpr char kDistributedInfo[] = "distributedInfo";
inline constexpr char kDeviceProperties[] = "deviceProperties";
// Members of "distributedInfo".
inline constexpr char kRank[] = "rank";
inline constexpr char kWorldSize[] = "world_size";
inline constexpr char kBackend[] = "backend";

// Metadata events ("ph": "M") and their arguments.
inline constexpr char kProcessName[] = "process_name";
inline constexpr char kThreadName[] = "thread_name";
inline constexpr char kProcessLabels[] = "process_labels";
inline constexpr char kLabels[] = "labels";

// Event categories ("cat").
inline constexpr char kCpuOp[] = "cpu_op";
inline constexpr char kUserAnnotation[] = "user_annotation";
inline constexpr char kGpuUserAnnotation[] = "gpu_user_annotation";
inline constexpr char kPythonFunction[] = "python_function";
inline constexpr char kCudaRuntime[] = "cuda_runtime";
inline constexpr char kCudaDriver[] = "cuda_driver";
inline constexpr char kKernel[] = "kernel";
inline constexpr char kGpuMemcpy[] = "gpu_memcpy";
inline constexpr char kGpuMemset[] = "gpu_memset";
inline constexpr char kCudaSync[] = "cuda_sync";
// Flow categories: a launch to its device work, a forward operator to its
// backward.
inline constexpr char kLaunchFlow[] = "ac2g";
inline constexpr char kForwardBackwardFlow[] = "fwdbwd";

// Instants of the allocator, and their arguments.
inline constexpr char kMemoryEvent[] = "[memory]";
inline constexpr char kAddr[] = "Addr";
inline constexpr char kBytes[] = "Bytes";
inline constexpr char kTotalAllocated[] = "Total Allocated";
inline constexpr char kTotalReserved[] = "Total Reserved";
inline constexpr char kDeviceType[] = "Device Type";
inline constexpr char kDeviceId[] = "Device Id";

// Operator arguments.
inline constexpr char kInputDims[] = "Input Dims";
inline constexpr char kInputType[] = "Input type";
inline constexpr char kSequenceNumber[] = "Sequence number";
inline constexpr char kFwdThreadId[] = "Fwd thread id";

// A collective's arguments (record_param_comms, PyTorch 2.x).
inline constexpr char kParamComms[] = "record_param_comms";
inline constexpr char kCollectiveName[] = "Collective name";
inline constexpr char kProcessGroupName[] = "Process Group Name";
inline constexpr char kProcessGroupDescription[] = "Process Group Description";
inline constexpr char kProcessGroupRanks[] = "Process Group Ranks";
inline constexpr char kGroupSize[] = "Group size";
inline constexpr char kInMsgNelems[] = "In msg nelems";
inline constexpr char kOutMsgNelems[] = "Out msg nelems";
inline constexpr char kDtype[] = "dtype";
inline constexpr char kSeq[] = "Seq";

// Device work's arguments.
inline constexpr char kDevice[] = "device";
inline constexpr char kStream[] = "stream";
inline constexpr char kContext[] = "context";
inline constexpr char kCorrelation[] = "correlation";
inline constexpr char kGrid[] = "grid";
inline constexpr char kBlock[] = "block";
inline constexpr char kRegistersPerThread[] = "registers per thread";
inline constexpr char kCopyBytes[] = "bytes";

// Names.
inline constexpr char kProfilerStepPrefix[] = "ProfilerStep#";

/// What an imported trace's facts hold beside its format (the report's
/// record of the importer), read back by the exporter.
inline constexpr char kDetailBackend[] = "backend";
inline constexpr char kDetailWorldSize[] = "world_size";

} // namespace prof::kineto_format

#endif
