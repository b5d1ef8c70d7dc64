"""Runs Holistic Trace Analysis on a folder of Kineto traces (one per rank)
and prints, one per line, the figures prof's reports are compared with:

  temporal RANK IDLE_US COMPUTE_US NON_COMPUTE_US KERNEL_US
  kernel RANK TYPE COUNT SUM_US NAME
  overlap RANK PERCENT

  python3 hta_figures.py TRACE_DIR
Exit 3 when HTA cannot be imported (the caller skips), else what HTA's
analyses raise."""
import sys

try:
    from hta.trace_analysis import TraceAnalysis
except ImportError as error:
    print(f"no HTA: {error}", file=sys.stderr)
    sys.exit(3)


def main(trace_dir):
    analysis = TraceAnalysis(trace_dir=trace_dir)

    temporal = analysis.get_temporal_breakdown(visualize=False)
    for _, row in temporal.iterrows():
        print("temporal", int(row["rank"]), row["idle_time(us)"], row["compute_time(us)"],
              row["non_compute_time(us)"], row["kernel_time(us)"])

    # Every kernel by name: no "others" row (a ratio of 1 and room for all).
    _, kernels = analysis.get_gpu_kernel_breakdown(
        visualize=False, duration_ratio=1.0, num_kernels=1000, include_memory_kernels=True)
    for _, row in kernels.iterrows():
        count = round(row["sum (us)"] / row["mean (us)"]) if row["mean (us)"] else 0
        print("kernel", int(row["rank"]), row["kernel_type"], count, row["sum (us)"], row["name"])

    overlap = analysis.get_comm_comp_overlap(visualize=False)
    for _, row in overlap.iterrows():
        print("overlap", int(row["rank"]), row["comp_comm_overlap_pctg"])


if __name__ == "__main__":
    main(sys.argv[1])
