! A Fortran program through `use mpi`, for the mpi source's Fortran entry
! points: three all-reduces of 128 doubles, a broadcast of 16 integers
! from rank 1, a message of 64 doubles from rank 0 to rank 1 (tag 7), and
! a barrier. Built against MPI, never against prof. Exits 0.
program mpi_fortran
  use mpi
  implicit none
  integer :: ierr, rank, i, status(MPI_STATUS_SIZE)
  integer :: numbers(16)
  double precision :: a(128), b(128), message(64)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  a = rank
  do i = 1, 3
    call MPI_Allreduce(a, b, 128, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  numbers = rank
  call MPI_Bcast(numbers, 16, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
  message = 1.0d0
  if (rank == 0) then
    call MPI_Send(message, 64, MPI_DOUBLE_PRECISION, 1, 7, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
    call MPI_Recv(message, 64, MPI_DOUBLE_PRECISION, 0, 7, MPI_COMM_WORLD, status, ierr)
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  print *, 'rank', rank, b(1), numbers(1)
  call MPI_Finalize(ierr)
end program mpi_fortran
