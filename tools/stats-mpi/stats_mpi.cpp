#include "stats_mpi.h"

#include <mpi.h>

#include <algorithm>
#include <vector>

namespace {

MPI_Comm g_comm = MPI_COMM_NULL; // private: no other message can match ours

constexpr int kSizeTag = 1, kDataTag = 2;
// MPI counts are ints: larger messages go in pieces.
constexpr uint64_t kPiece = uint64_t{1} << 30;

int send_all(const uint8_t *data, uint64_t size) {
  if (MPI_Send(&size, 1, MPI_UINT64_T, 0, kSizeTag, g_comm) != MPI_SUCCESS) return 1;
  for (uint64_t at = 0; at < size; at += kPiece) {
    const int piece = static_cast<int>(std::min(kPiece, size - at));
    if (MPI_Send(data + at, piece, MPI_BYTE, 0, kDataTag, g_comm) != MPI_SUCCESS) return 1;
  }
  return 0;
}

int receive_all(int rank, std::vector<uint8_t> &out) {
  uint64_t size = 0;
  if (MPI_Recv(&size, 1, MPI_UINT64_T, rank, kSizeTag, g_comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
    return 1;
  out.resize(size);
  for (uint64_t at = 0; at < size; at += kPiece) {
    const int piece = static_cast<int>(std::min(kPiece, size - at));
    if (MPI_Recv(out.data() + at, piece, MPI_BYTE, rank, kDataTag, g_comm, MPI_STATUS_IGNORE) !=
        MPI_SUCCESS)
      return 1;
  }
  return 0;
}

} // namespace

extern "C" int prof_stats_mpi_init(int *rank, int *size) {
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) return 1;
  if (MPI_Comm_dup(MPI_COMM_WORLD, &g_comm) != MPI_SUCCESS) return 1;
  MPI_Comm_rank(g_comm, rank);
  MPI_Comm_size(g_comm, size);
  return 0;
}

extern "C" int prof_stats_mpi_gather(const uint8_t *data, uint64_t size,
                                     prof_stats_mpi_deliver deliver, void *context) {
  int rank = 0, ranks = 0;
  MPI_Comm_rank(g_comm, &rank);
  MPI_Comm_size(g_comm, &ranks);
  if (rank != 0) return send_all(data, size);
  deliver(context, 0, data, size);
  std::vector<uint8_t> received;
  for (int other = 1; other < ranks; ++other) {
    if (receive_all(other, received) != 0) return 1;
    deliver(context, other, received.data(), received.size());
    received = std::vector<uint8_t>();
  }
  return 0;
}

extern "C" void prof_stats_mpi_finalize(void) {
  if (g_comm != MPI_COMM_NULL) MPI_Comm_free(&g_comm);
  MPI_Finalize();
}
