! mpi_fortran.f90 through `use mpi_f08`: the same calls with the 2008
! bindings' handle types, some leaving their optional ierror out. Built
! against MPI, never against prof. Exits 0.
program mpi_fortran_f08
  use mpi_f08
  implicit none
  integer :: ierr, rank, i
  type(MPI_Status) :: status
  integer :: numbers(16)
  double precision :: a(128), b(128), message(64)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  a = rank
  do i = 1, 3
    call MPI_Allreduce(a, b, 128, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  end do
  numbers = rank
  call MPI_Bcast(numbers, 16, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
  message = 1.0d0
  if (rank == 0) then
    call MPI_Send(message, 64, MPI_DOUBLE_PRECISION, 1, 7, MPI_COMM_WORLD)
  else if (rank == 1) then
    call MPI_Recv(message, 64, MPI_DOUBLE_PRECISION, 0, 7, MPI_COMM_WORLD, status, ierr)
  end if
  call MPI_Barrier(MPI_COMM_WORLD)
  print *, 'rank', rank, b(1), numbers(1)
  call MPI_Finalize()
end program mpi_fortran_f08
