// The interposed MPI functions. Preloaded, the plugin's definitions stand in
// front of the MPI library's; each calls the library's PMPI_ twin and, while
// an instance traces, records the call. Before that (and in a process
// without MPI) a call costs one load of the recorder pointer.
#include "comm_names.hpp"
#include "traced_call.hpp"

/// The library's own function `name`, found once; MPI_ERR_INTERN without one.
#define PROF_MPI_REAL(name)                                                                        \
  static const auto real = ::prof::mpi::pmpi<decltype(&P##name)>("P" #name);                       \
  if (real == nullptr) return MPI_ERR_INTERN

namespace prof::mpi {
__thread int t_depth __attribute__((tls_model("initial-exec")));
} // namespace prof::mpi

using prof::mpi::CallFacts;
using prof::mpi::MpiFunction;
using prof::mpi::traced;
namespace pm = prof::mpi;

// Set-up and tear-down.
// With clock-sync, each rank's clock is measured against rank 0's once MPI
// is up and once more before it goes: an offset, and a drift between them.
PROF_MPI_EXPORT int MPI_Init(int *argc, char ***argv) {
  PROF_MPI_REAL(MPI_Init);
  const int result = traced(
      MpiFunction::Init, [&] { return real(argc, argv); }, [] { return CallFacts{}; });
  if (result == MPI_SUCCESS) pm::sync_clock_with_rank_zero();
  return result;
}
PROF_MPI_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  PROF_MPI_REAL(MPI_Init_thread);
  const int result = traced(
      MpiFunction::Init_thread, [&] { return real(argc, argv, required, provided); },
      [] { return CallFacts{}; });
  if (result == MPI_SUCCESS) pm::sync_clock_with_rank_zero();
  return result;
}
PROF_MPI_EXPORT int MPI_Finalize(void) {
  PROF_MPI_REAL(MPI_Finalize);
  pm::sync_clock_with_rank_zero();
  return traced(
      MpiFunction::Finalize, [&] { return real(); }, [] { return CallFacts{}; });
}

// Point to point.
#define PROF_MPI_SEND(fn)                                                                          \
  PROF_MPI_EXPORT int MPI_##fn(const void *buf, int count, MPI_Datatype type, int dest, int tag,   \
                               MPI_Comm comm) {                                                    \
    PROF_MPI_REAL(MPI_##fn);                                                                       \
    return traced(                                                                                 \
        MpiFunction::fn, [&] { return real(buf, count, type, dest, tag, comm); },                  \
        [&] { return pm::p2p(pm::bytes_of(count, type), dest, tag, comm); });                      \
  }
PROF_MPI_SEND(Send)
PROF_MPI_SEND(Ssend)
PROF_MPI_SEND(Bsend)
PROF_MPI_SEND(Rsend)
#undef PROF_MPI_SEND

#define PROF_MPI_ISEND(fn)                                                                         \
  PROF_MPI_EXPORT int MPI_##fn(const void *buf, int count, MPI_Datatype type, int dest, int tag,   \
                               MPI_Comm comm, MPI_Request *request) {                              \
    PROF_MPI_REAL(MPI_##fn);                                                                       \
    return traced(                                                                                 \
        MpiFunction::fn, [&] { return real(buf, count, type, dest, tag, comm, request); },         \
        [&] { return pm::p2p(pm::bytes_of(count, type), dest, tag, comm); });                      \
  }
PROF_MPI_ISEND(Isend)
PROF_MPI_ISEND(Issend)
#undef PROF_MPI_ISEND

PROF_MPI_EXPORT int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
                             MPI_Comm comm, MPI_Status *status) {
  PROF_MPI_REAL(MPI_Recv);
  MPI_Status own;
  MPI_Status *seen = status == MPI_STATUS_IGNORE ? &own : status;
  return traced(
      MpiFunction::Recv, [&] { return real(buf, count, type, source, tag, comm, seen); },
      [&] {
        // What arrived: its sender and tag, and its size.
        static const auto get_count =
            pm::pmpi<int (*)(const MPI_Status *, MPI_Datatype, int *)>("PMPI_Get_count");
        int received = count;
        if (get_count) get_count(seen, type, &received);
        return pm::p2p(pm::bytes_of(received, type), seen->MPI_SOURCE, seen->MPI_TAG, comm);
      });
}
PROF_MPI_EXPORT int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
                              MPI_Comm comm, MPI_Request *request) {
  PROF_MPI_REAL(MPI_Irecv);
  return traced(
      MpiFunction::Irecv, [&] { return real(buf, count, type, source, tag, comm, request); },
      [&] { return pm::p2p(pm::bytes_of(count, type), source, tag, comm); });
}
PROF_MPI_EXPORT int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 int dest, int sendtag, void *recvbuf, int recvcount,
                                 MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                                 MPI_Status *status) {
  PROF_MPI_REAL(MPI_Sendrecv);
  return traced(
      MpiFunction::Sendrecv,
      [&] {
        return real(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                    source, recvtag, comm, status);
      },
      [&] { return pm::p2p(pm::bytes_of(sendcount, sendtype), dest, sendtag, comm); });
}
PROF_MPI_EXPORT int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  PROF_MPI_REAL(MPI_Probe);
  return traced(
      MpiFunction::Probe, [&] { return real(source, tag, comm, status); },
      [&] { return pm::p2p(-1, source, tag, comm); });
}

// Completion.
PROF_MPI_EXPORT int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  PROF_MPI_REAL(MPI_Wait);
  return traced(
      MpiFunction::Wait, [&] { return real(request, status); }, [] { return pm::waiting(1); });
}
PROF_MPI_EXPORT int MPI_Waitall(int count, MPI_Request requests[], MPI_Status *statuses) {
  PROF_MPI_REAL(MPI_Waitall);
  return traced(
      MpiFunction::Waitall, [&] { return real(count, requests, statuses); },
      [&] { return pm::waiting(count); });
}
PROF_MPI_EXPORT int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status) {
  PROF_MPI_REAL(MPI_Waitany);
  return traced(
      MpiFunction::Waitany, [&] { return real(count, requests, index, status); },
      [&] { return pm::waiting(count); });
}
PROF_MPI_EXPORT int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                                 MPI_Status statuses[]) {
  PROF_MPI_REAL(MPI_Waitsome);
  return traced(
      MpiFunction::Waitsome, [&] { return real(incount, requests, outcount, indices, statuses); },
      [&] { return pm::waiting(incount); });
}

// Collectives: the bytes are what this rank contributes.
PROF_MPI_EXPORT int MPI_Barrier(MPI_Comm comm) {
  PROF_MPI_REAL(MPI_Barrier);
  return traced(
      MpiFunction::Barrier, [&] { return real(comm); }, [&] { return pm::collective(-1, comm); });
}
PROF_MPI_EXPORT int MPI_Bcast(void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  PROF_MPI_REAL(MPI_Bcast);
  return traced(
      MpiFunction::Bcast, [&] { return real(buffer, count, type, root, comm); },
      [&] { return pm::collective(pm::bytes_of(count, type), comm, root); });
}
PROF_MPI_EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                               MPI_Op op, int root, MPI_Comm comm) {
  PROF_MPI_REAL(MPI_Reduce);
  return traced(
      MpiFunction::Reduce, [&] { return real(sendbuf, recvbuf, count, type, op, root, comm); },
      [&] { return pm::collective(pm::bytes_of(count, type), comm, root); });
}
PROF_MPI_EXPORT int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                                  MPI_Op op, MPI_Comm comm) {
  PROF_MPI_REAL(MPI_Allreduce);
  return traced(
      MpiFunction::Allreduce, [&] { return real(sendbuf, recvbuf, count, type, op, comm); },
      [&] { return pm::collective(pm::bytes_of(count, type), comm); });
}
#define PROF_MPI_ROOTED(fn)                                                                        \
  PROF_MPI_EXPORT int MPI_##fn(const void *sendbuf, int sendcount, MPI_Datatype sendtype,          \
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,      \
                               MPI_Comm comm) {                                                    \
    PROF_MPI_REAL(MPI_##fn);                                                                       \
    return traced(                                                                                 \
        MpiFunction::fn,                                                                           \
        [&] {                                                                                      \
          return real(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);     \
        },                                                                                         \
        [&] { return pm::collective(pm::bytes_of(sendcount, sendtype), comm, root); });            \
  }
PROF_MPI_ROOTED(Gather)
PROF_MPI_ROOTED(Scatter)
#undef PROF_MPI_ROOTED
PROF_MPI_EXPORT int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, const int recvcounts[], const int displs[],
                                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  PROF_MPI_REAL(MPI_Gatherv);
  return traced(
      MpiFunction::Gatherv,
      [&] {
        return real(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                    comm);
      },
      [&] { return pm::collective(pm::bytes_of(sendcount, sendtype), comm, root); });
}
PROF_MPI_EXPORT int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                                 MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                 MPI_Datatype recvtype, int root, MPI_Comm comm) {
  PROF_MPI_REAL(MPI_Scatterv);
  return traced(
      MpiFunction::Scatterv,
      [&] {
        return real(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                    comm);
      },
      [&] { return pm::collective(pm::bytes_of(recvcount, recvtype), comm, root); });
}
#define PROF_MPI_ALL(fn)                                                                           \
  PROF_MPI_EXPORT int MPI_##fn(const void *sendbuf, int sendcount, MPI_Datatype sendtype,          \
                               void *recvbuf, int recvcount, MPI_Datatype recvtype,                \
                               MPI_Comm comm) {                                                    \
    PROF_MPI_REAL(MPI_##fn);                                                                       \
    return traced(                                                                                 \
        MpiFunction::fn,                                                                           \
        [&] { return real(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); },    \
        [&] { return pm::collective(pm::bytes_of(sendcount, sendtype), comm); });                  \
  }
PROF_MPI_ALL(Allgather)
PROF_MPI_ALL(Alltoall)
#undef PROF_MPI_ALL
PROF_MPI_EXPORT int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, const int recvcounts[], const int displs[],
                                   MPI_Datatype recvtype, MPI_Comm comm) {
  PROF_MPI_REAL(MPI_Allgatherv);
  return traced(
      MpiFunction::Allgatherv,
      [&] {
        return real(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
      },
      [&] { return pm::collective(pm::bytes_of(sendcount, sendtype), comm); });
}
PROF_MPI_EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  PROF_MPI_REAL(MPI_Alltoallv);
  return traced(
      MpiFunction::Alltoallv,
      [&] {
        return real(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                    comm);
      },
      [&] {
        return pm::collective(pm::sum_bytes(sendcounts, pm::comm_size(comm), sendtype), comm);
      });
}
PROF_MPI_EXPORT int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                       MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  PROF_MPI_REAL(MPI_Reduce_scatter);
  return traced(
      MpiFunction::Reduce_scatter,
      [&] { return real(sendbuf, recvbuf, recvcounts, type, op, comm); },
      [&] { return pm::collective(pm::sum_bytes(recvcounts, pm::comm_size(comm), type), comm); });
}
#define PROF_MPI_REDUCING(fn)                                                                      \
  PROF_MPI_EXPORT int MPI_##fn(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,   \
                               MPI_Op op, MPI_Comm comm) {                                         \
    PROF_MPI_REAL(MPI_##fn);                                                                       \
    return traced(                                                                                 \
        MpiFunction::fn, [&] { return real(sendbuf, recvbuf, count, type, op, comm); },            \
        [&] { return pm::collective(pm::bytes_of(count, type), comm); });                          \
  }
PROF_MPI_REDUCING(Reduce_scatter_block)
PROF_MPI_REDUCING(Scan)
PROF_MPI_REDUCING(Exscan)
#undef PROF_MPI_REDUCING

// Non-blocking collectives: the call starts them; MPI_Wait* shows the wait.
PROF_MPI_EXPORT int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request) {
  PROF_MPI_REAL(MPI_Ibarrier);
  return traced(
      MpiFunction::Ibarrier, [&] { return real(comm, request); },
      [&] { return pm::collective(-1, comm); });
}
PROF_MPI_EXPORT int MPI_Ibcast(void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm,
                               MPI_Request *request) {
  PROF_MPI_REAL(MPI_Ibcast);
  return traced(
      MpiFunction::Ibcast, [&] { return real(buffer, count, type, root, comm, request); },
      [&] { return pm::collective(pm::bytes_of(count, type), comm, root); });
}
PROF_MPI_EXPORT int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                                MPI_Op op, int root, MPI_Comm comm, MPI_Request *request) {
  PROF_MPI_REAL(MPI_Ireduce);
  return traced(
      MpiFunction::Ireduce,
      [&] { return real(sendbuf, recvbuf, count, type, op, root, comm, request); },
      [&] { return pm::collective(pm::bytes_of(count, type), comm, root); });
}
PROF_MPI_EXPORT int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                                   MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  PROF_MPI_REAL(MPI_Iallreduce);
  return traced(
      MpiFunction::Iallreduce,
      [&] { return real(sendbuf, recvbuf, count, type, op, comm, request); },
      [&] { return pm::collective(pm::bytes_of(count, type), comm); });
}
#define PROF_MPI_IALL(fn)                                                                          \
  PROF_MPI_EXPORT int MPI_##fn(const void *sendbuf, int sendcount, MPI_Datatype sendtype,          \
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, \
                               MPI_Request *request) {                                             \
    PROF_MPI_REAL(MPI_##fn);                                                                       \
    return traced(                                                                                 \
        MpiFunction::fn,                                                                           \
        [&] {                                                                                      \
          return real(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);  \
        },                                                                                         \
        [&] { return pm::collective(pm::bytes_of(sendcount, sendtype), comm); });                  \
  }
PROF_MPI_IALL(Iallgather)
PROF_MPI_IALL(Ialltoall)
#undef PROF_MPI_IALL

// One-sided communication and its synchronization.
PROF_MPI_EXPORT int MPI_Win_fence(int assertion, MPI_Win win) {
  PROF_MPI_REAL(MPI_Win_fence);
  return traced(
      MpiFunction::Win_fence, [&] { return real(assertion, win); }, [] { return CallFacts{}; });
}
PROF_MPI_EXPORT int MPI_Win_lock(int lock_type, int rank, int assertion, MPI_Win win) {
  PROF_MPI_REAL(MPI_Win_lock);
  return traced(
      MpiFunction::Win_lock, [&] { return real(lock_type, rank, assertion, win); },
      [&] { return pm::window(rank); });
}
PROF_MPI_EXPORT int MPI_Win_unlock(int rank, MPI_Win win) {
  PROF_MPI_REAL(MPI_Win_unlock);
  return traced(
      MpiFunction::Win_unlock, [&] { return real(rank, win); }, [&] { return pm::window(rank); });
}
PROF_MPI_EXPORT int MPI_Win_flush(int rank, MPI_Win win) {
  PROF_MPI_REAL(MPI_Win_flush);
  return traced(
      MpiFunction::Win_flush, [&] { return real(rank, win); }, [&] { return pm::window(rank); });
}
#define PROF_MPI_RMA(fn, origin_const)                                                             \
  PROF_MPI_EXPORT int MPI_##fn(origin_const void *origin, int origin_count,                        \
                               MPI_Datatype origin_type, int target, MPI_Aint disp,                \
                               int target_count, MPI_Datatype target_type, MPI_Win win) {          \
    PROF_MPI_REAL(MPI_##fn);                                                                       \
    return traced(                                                                                 \
        MpiFunction::fn,                                                                           \
        [&] {                                                                                      \
          return real(origin, origin_count, origin_type, target, disp, target_count, target_type,  \
                      win);                                                                        \
        },                                                                                         \
        [&] {                                                                                      \
          CallFacts f = pm::window(target);                                                        \
          f.bytes = pm::bytes_of(origin_count, origin_type);                                       \
          return f;                                                                                \
        });                                                                                        \
  }
PROF_MPI_RMA(Put, const)
PROF_MPI_RMA(Get, )
#undef PROF_MPI_RMA
PROF_MPI_EXPORT int MPI_Accumulate(const void *origin, int origin_count, MPI_Datatype origin_type,
                                   int target, MPI_Aint disp, int target_count,
                                   MPI_Datatype target_type, MPI_Op op, MPI_Win win) {
  PROF_MPI_REAL(MPI_Accumulate);
  return traced(
      MpiFunction::Accumulate,
      [&] {
        return real(origin, origin_count, origin_type, target, disp, target_count, target_type, op,
                    win);
      },
      [&] {
        CallFacts f = pm::window(target);
        f.bytes = pm::bytes_of(origin_count, origin_type);
        return f;
      });
}

// Communicators: made and freed collectively, so they show as calls too.
// Each made communicator is named after how it was made (comm_names.hpp),
// whether or not a capture runs now: one may start later.
PROF_MPI_EXPORT int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
  PROF_MPI_REAL(MPI_Comm_split);
  const int result = traced(
      MpiFunction::Comm_split, [&] { return real(comm, color, key, newcomm); },
      [&] { return pm::collective(-1, comm); });
  if (result == MPI_SUCCESS) pm::name_split(comm, color, *newcomm);
  return result;
}
PROF_MPI_EXPORT int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
  PROF_MPI_REAL(MPI_Comm_dup);
  const int result = traced(
      MpiFunction::Comm_dup, [&] { return real(comm, newcomm); },
      [&] { return pm::collective(-1, comm); });
  if (result == MPI_SUCCESS) pm::name_copy(comm, "dup", *newcomm);
  return result;
}
PROF_MPI_EXPORT int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm) {
  PROF_MPI_REAL(MPI_Comm_create);
  const int result = traced(
      MpiFunction::Comm_create, [&] { return real(comm, group, newcomm); },
      [&] { return pm::collective(-1, comm); });
  if (result == MPI_SUCCESS) pm::name_copy(comm, "create", *newcomm);
  return result;
}
PROF_MPI_EXPORT int MPI_Comm_free(MPI_Comm *comm) {
  PROF_MPI_REAL(MPI_Comm_free);
  // Its handle may name another communicator later: cached names go.
  if (comm != nullptr) {
    pm::forget_name(*comm);
    pm::forget_collectives(*comm);
  }
  pm::g_generation.fetch_add(1, std::memory_order_acq_rel);
  return traced(
      MpiFunction::Comm_free, [&] { return real(comm); }, [] { return CallFacts{}; });
}
