// The interposed MPI functions of Fortran programs (mpif.h and `use mpi`).
// The libraries' Fortran entry points call their PMPI_ C functions
// directly, so the C interposers never see a Fortran program's calls: these
// stand in front of the Fortran entry points under each name compilers
// give them (mpi_send_, mpi_send__, mpi_send, MPI_SEND), call the library's
// Fortran PMPI twin (pmpi_send_) and record the call as the C interposers
// do, its handles turned into C ones. Arguments are all by reference.
// `use mpi_f08` has entry points of its own (mpi_send_f08_, whose handles are
// one-integer structures and whose ierror may be absent: a null pointer),
// wrapped by the same code around the library's pmpi_send_f08_.
#include "traced_call.hpp"

using prof::mpi::CallFacts;
using prof::mpi::MpiFunction;
using prof::mpi::traced;
namespace pm = prof::mpi;

namespace prof::mpi {
namespace {

// Fortran's handles in C: Open MPI converts through functions, MPICH's
// handles are the same integers.
MPI_Comm comm_of(const MPI_Fint *comm) {
#ifdef OPEN_MPI
  static const auto f2c = pmpi<MPI_Comm (*)(MPI_Fint)>("PMPI_Comm_f2c");
  return f2c ? f2c(*comm) : MPI_Comm{};
#else
  return static_cast<MPI_Comm>(*comm);
#endif
}
MPI_Datatype type_of(const MPI_Fint *type) {
#ifdef OPEN_MPI
  static const auto f2c = pmpi<MPI_Datatype (*)(MPI_Fint)>("PMPI_Type_f2c");
  return f2c ? f2c(*type) : MPI_Datatype{};
#else
  return static_cast<MPI_Datatype>(*type);
#endif
}
int64_t fortran_bytes(const MPI_Fint *count, const MPI_Fint *type) {
  return bytes_of(*count, type_of(type));
}

} // namespace
} // namespace prof::mpi

#define PROF_MPI_UNPAREN(...) __VA_ARGS__
/// Defines the Fortran function `lower` (parameters `params`, their names
/// `args`) under its four names and its mpi_f08 twin; the body follows, as
/// that of lower_impl(real, params...), `real` being the library's pmpi
/// twin of the function called.
#define PROF_MPI_FORTRAN(lower, upper, params, args)                                               \
  PROF_MPI_EXPORT void lower##_ params;                                                            \
  static void lower##_impl(decltype(&lower##_) real, PROF_MPI_UNPAREN params);                     \
  PROF_MPI_EXPORT void lower##_ params {                                                           \
    static const auto real = pm::pmpi<decltype(&lower##_)>("p" #lower "_");                        \
    lower##_impl(real, PROF_MPI_UNPAREN args);                                                     \
  }                                                                                                \
  PROF_MPI_EXPORT void lower##__ params __attribute__((alias(#lower "_")));                        \
  PROF_MPI_EXPORT void lower params __attribute__((alias(#lower "_")));                            \
  PROF_MPI_EXPORT void upper params __attribute__((alias(#lower "_")));                            \
  PROF_MPI_EXPORT void lower##_f08_ params {                                                       \
    static const auto real = pm::pmpi<decltype(&lower##_)>("p" #lower "_f08_");                    \
    lower##_impl(real, PROF_MPI_UNPAREN args);                                                     \
  }                                                                                                \
  static void lower##_impl(decltype(&lower##_) real, PROF_MPI_UNPAREN params)
/// Without the library's function: MPI_ERR_INTERN in `ierr` (absent in
/// mpi_f08 calls that leave it out).
#define PROF_MPI_FORTRAN_REAL()                                                                    \
  if (real == nullptr) {                                                                           \
    if (ierr != nullptr) *ierr = MPI_ERR_INTERN;                                                   \
    return;                                                                                        \
  }

// Set-up and tear-down, with clock-sync as in C.
PROF_MPI_FORTRAN(mpi_init, MPI_INIT, (MPI_Fint * ierr), (ierr)) {
  PROF_MPI_FORTRAN_REAL()
  traced(
      MpiFunction::Init, [&] { return real(ierr), 0; }, [] { return CallFacts{}; });
  if (ierr == nullptr || *ierr == MPI_SUCCESS) pm::sync_clock_with_rank_zero();
}
PROF_MPI_FORTRAN(mpi_init_thread, MPI_INIT_THREAD,
                 (MPI_Fint * required, MPI_Fint *provided, MPI_Fint *ierr),
                 (required, provided, ierr)) {
  PROF_MPI_FORTRAN_REAL()
  traced(
      MpiFunction::Init_thread, [&] { return real(required, provided, ierr), 0; },
      [] { return CallFacts{}; });
  if (ierr == nullptr || *ierr == MPI_SUCCESS) pm::sync_clock_with_rank_zero();
}
PROF_MPI_FORTRAN(mpi_finalize, MPI_FINALIZE, (MPI_Fint * ierr), (ierr)) {
  PROF_MPI_FORTRAN_REAL()
  pm::sync_clock_with_rank_zero();
  traced(
      MpiFunction::Finalize, [&] { return real(ierr), 0; }, [] { return CallFacts{}; });
}

// Point to point. A receive records what was asked for (the status is in
// Fortran's layout).
#define PROF_MPI_FORTRAN_SEND(lower, upper, fn)                                                    \
  PROF_MPI_FORTRAN(lower, upper,                                                                   \
                   (void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest, MPI_Fint *tag,     \
                    MPI_Fint *comm, MPI_Fint *ierr),                                               \
                   (buf, count, type, dest, tag, comm, ierr)) {                                    \
    PROF_MPI_FORTRAN_REAL()                                                                        \
    traced(                                                                                        \
        MpiFunction::fn, [&] { return real(buf, count, type, dest, tag, comm, ierr), 0; },         \
        [&] { return pm::p2p(pm::fortran_bytes(count, type), *dest, *tag, pm::comm_of(comm)); });  \
  }
PROF_MPI_FORTRAN_SEND(mpi_send, MPI_SEND, Send)
PROF_MPI_FORTRAN_SEND(mpi_ssend, MPI_SSEND, Ssend)
PROF_MPI_FORTRAN_SEND(mpi_bsend, MPI_BSEND, Bsend)
PROF_MPI_FORTRAN_SEND(mpi_rsend, MPI_RSEND, Rsend)
#undef PROF_MPI_FORTRAN_SEND

// Isend, Issend, Irecv: a request more; Recv: a status more.
#define PROF_MPI_FORTRAN_P2P_MORE(lower, upper, fn)                                                \
  PROF_MPI_FORTRAN(lower, upper,                                                                   \
                   (void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *peer, MPI_Fint *tag,     \
                    MPI_Fint *comm, MPI_Fint *more, MPI_Fint *ierr),                               \
                   (buf, count, type, peer, tag, comm, more, ierr)) {                              \
    PROF_MPI_FORTRAN_REAL()                                                                        \
    traced(                                                                                        \
        MpiFunction::fn, [&] { return real(buf, count, type, peer, tag, comm, more, ierr), 0; },   \
        [&] { return pm::p2p(pm::fortran_bytes(count, type), *peer, *tag, pm::comm_of(comm)); });  \
  }
PROF_MPI_FORTRAN_P2P_MORE(mpi_isend, MPI_ISEND, Isend)
PROF_MPI_FORTRAN_P2P_MORE(mpi_issend, MPI_ISSEND, Issend)
PROF_MPI_FORTRAN_P2P_MORE(mpi_irecv, MPI_IRECV, Irecv)
PROF_MPI_FORTRAN_P2P_MORE(mpi_recv, MPI_RECV, Recv)
#undef PROF_MPI_FORTRAN_P2P_MORE

PROF_MPI_FORTRAN(mpi_sendrecv, MPI_SENDRECV,
                 (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, MPI_Fint *dest,
                  MPI_Fint *sendtag, void *recvbuf, MPI_Fint *recvcount, MPI_Fint *recvtype,
                  MPI_Fint *source, MPI_Fint *recvtag, MPI_Fint *comm, MPI_Fint *status,
                  MPI_Fint *ierr),
                 (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                  recvtag, comm, status, ierr)) {
  PROF_MPI_FORTRAN_REAL()
  traced(
      MpiFunction::Sendrecv,
      [&] {
        return real(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                    source, recvtag, comm, status, ierr),
               0;
      },
      [&] {
        return pm::p2p(pm::fortran_bytes(sendcount, sendtype), *dest, *sendtag, pm::comm_of(comm));
      });
}

// Completion.
PROF_MPI_FORTRAN(mpi_wait, MPI_WAIT, (MPI_Fint * request, MPI_Fint *status, MPI_Fint *ierr),
                 (request, status, ierr)) {
  PROF_MPI_FORTRAN_REAL()
  traced(
      MpiFunction::Wait, [&] { return real(request, status, ierr), 0; },
      [] { return pm::waiting(1); });
}
PROF_MPI_FORTRAN(mpi_waitall, MPI_WAITALL,
                 (MPI_Fint * count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierr),
                 (count, requests, statuses, ierr)) {
  PROF_MPI_FORTRAN_REAL()
  traced(
      MpiFunction::Waitall, [&] { return real(count, requests, statuses, ierr), 0; },
      [&] { return pm::waiting(*count); });
}

// Collectives: the bytes are what this rank contributes, as in C.
PROF_MPI_FORTRAN(mpi_barrier, MPI_BARRIER, (MPI_Fint * comm, MPI_Fint *ierr), (comm, ierr)) {
  PROF_MPI_FORTRAN_REAL()
  traced(
      MpiFunction::Barrier, [&] { return real(comm, ierr), 0; },
      [&] { return pm::collective(-1, pm::comm_of(comm)); });
}
PROF_MPI_FORTRAN(mpi_bcast, MPI_BCAST,
                 (void *buffer, MPI_Fint *count, MPI_Fint *type, MPI_Fint *root, MPI_Fint *comm,
                  MPI_Fint *ierr),
                 (buffer, count, type, root, comm, ierr)) {
  PROF_MPI_FORTRAN_REAL()
  traced(
      MpiFunction::Bcast, [&] { return real(buffer, count, type, root, comm, ierr), 0; },
      [&] { return pm::collective(pm::fortran_bytes(count, type), pm::comm_of(comm), *root); });
}
PROF_MPI_FORTRAN(mpi_reduce, MPI_REDUCE,
                 (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *op,
                  MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr),
                 (sendbuf, recvbuf, count, type, op, root, comm, ierr)) {
  PROF_MPI_FORTRAN_REAL()
  traced(
      MpiFunction::Reduce,
      [&] { return real(sendbuf, recvbuf, count, type, op, root, comm, ierr), 0; },
      [&] { return pm::collective(pm::fortran_bytes(count, type), pm::comm_of(comm), *root); });
}
#define PROF_MPI_FORTRAN_REDUCING(lower, upper, fn)                                                \
  PROF_MPI_FORTRAN(lower, upper,                                                                   \
                   (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *op,   \
                    MPI_Fint *comm, MPI_Fint *ierr),                                               \
                   (sendbuf, recvbuf, count, type, op, comm, ierr)) {                              \
    PROF_MPI_FORTRAN_REAL()                                                                        \
    traced(                                                                                        \
        MpiFunction::fn, [&] { return real(sendbuf, recvbuf, count, type, op, comm, ierr), 0; },   \
        [&] { return pm::collective(pm::fortran_bytes(count, type), pm::comm_of(comm)); });        \
  }
PROF_MPI_FORTRAN_REDUCING(mpi_allreduce, MPI_ALLREDUCE, Allreduce)
PROF_MPI_FORTRAN_REDUCING(mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK, Reduce_scatter_block)
PROF_MPI_FORTRAN_REDUCING(mpi_scan, MPI_SCAN, Scan)
PROF_MPI_FORTRAN_REDUCING(mpi_exscan, MPI_EXSCAN, Exscan)
#undef PROF_MPI_FORTRAN_REDUCING
#define PROF_MPI_FORTRAN_ROOTED(lower, upper, fn)                                                  \
  PROF_MPI_FORTRAN(                                                                                \
      lower, upper,                                                                                \
      (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount, \
       MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr),                        \
      (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, ierr)) {            \
    PROF_MPI_FORTRAN_REAL()                                                                        \
    traced(                                                                                        \
        MpiFunction::fn,                                                                           \
        [&] {                                                                                      \
          return real(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,      \
                      ierr),                                                                       \
                 0;                                                                                \
        },                                                                                         \
        [&] {                                                                                      \
          return pm::collective(pm::fortran_bytes(sendcount, sendtype), pm::comm_of(comm), *root); \
        });                                                                                        \
  }
PROF_MPI_FORTRAN_ROOTED(mpi_gather, MPI_GATHER, Gather)
PROF_MPI_FORTRAN_ROOTED(mpi_scatter, MPI_SCATTER, Scatter)
#undef PROF_MPI_FORTRAN_ROOTED
#define PROF_MPI_FORTRAN_ALL(lower, upper, fn)                                                     \
  PROF_MPI_FORTRAN(lower, upper,                                                                   \
                   (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,         \
                    MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierr),      \
                   (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr)) {     \
    PROF_MPI_FORTRAN_REAL()                                                                        \
    traced(                                                                                        \
        MpiFunction::fn,                                                                           \
        [&] {                                                                                      \
          return real(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr), 0;  \
        },                                                                                         \
        [&] {                                                                                      \
          return pm::collective(pm::fortran_bytes(sendcount, sendtype), pm::comm_of(comm));        \
        });                                                                                        \
  }
PROF_MPI_FORTRAN_ALL(mpi_allgather, MPI_ALLGATHER, Allgather)
PROF_MPI_FORTRAN_ALL(mpi_alltoall, MPI_ALLTOALL, Alltoall)
#undef PROF_MPI_FORTRAN_ALL

// Non-blocking collectives.
PROF_MPI_FORTRAN(mpi_ibarrier, MPI_IBARRIER, (MPI_Fint * comm, MPI_Fint *request, MPI_Fint *ierr),
                 (comm, request, ierr)) {
  PROF_MPI_FORTRAN_REAL()
  traced(
      MpiFunction::Ibarrier, [&] { return real(comm, request, ierr), 0; },
      [&] { return pm::collective(-1, pm::comm_of(comm)); });
}
PROF_MPI_FORTRAN(mpi_ibcast, MPI_IBCAST,
                 (void *buffer, MPI_Fint *count, MPI_Fint *type, MPI_Fint *root, MPI_Fint *comm,
                  MPI_Fint *request, MPI_Fint *ierr),
                 (buffer, count, type, root, comm, request, ierr)) {
  PROF_MPI_FORTRAN_REAL()
  traced(
      MpiFunction::Ibcast, [&] { return real(buffer, count, type, root, comm, request, ierr), 0; },
      [&] { return pm::collective(pm::fortran_bytes(count, type), pm::comm_of(comm), *root); });
}
PROF_MPI_FORTRAN(mpi_iallreduce, MPI_IALLREDUCE,
                 (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *op,
                  MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr),
                 (sendbuf, recvbuf, count, type, op, comm, request, ierr)) {
  PROF_MPI_FORTRAN_REAL()
  traced(
      MpiFunction::Iallreduce,
      [&] { return real(sendbuf, recvbuf, count, type, op, comm, request, ierr), 0; },
      [&] { return pm::collective(pm::fortran_bytes(count, type), pm::comm_of(comm)); });
}
