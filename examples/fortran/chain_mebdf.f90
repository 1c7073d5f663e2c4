! A Fortran program using the module mbdae: the pendulum chain solved with the built-in mebdf at
! rtol = atol = 1e-6, h0 = rtol as the mbdae command runs it (its tolerance plan), and the scd
! the command prints for the same run (mbdae run chain --solver mebdf --rtol 1e-6 --atol 1e-6).
!
!   gfortran chain_mebdf.f90 $(pkg-config --cflags --libs mbdae-fortran)
program chain_mebdf
  use mbdae
  implicit none
  type(mbdae_problem) :: p
  type(mbdae_options) :: opt
  type(mbdae_result) :: r
  double precision, allocatable :: y(:), yp(:), yref(:)
  character(len=512) :: msg
  integer :: status, n
  character(len=80) :: spec

  spec = 'chain'
  if (command_argument_count() > 0) call get_command_argument(1, spec)
  call mbdae_problem_create(p, spec, status, msg)
  if (status /= mbdae_ok) then
    print '(a)', trim(msg)
    stop 2
  end if
  n = mbdae_problem_neq(p)
  allocate (y(n), yp(n), yref(n))
  opt%rtol = 1d-6
  opt%atol = 1d-6
  opt%h0 = 1d-6
  call mbdae_solve(p, 'mebdf', opt, y, yp, r, status, msg)
  if (status /= mbdae_ok) then
    print '(2a)', 'mebdf failed: ', trim(msg)
    stop 1
  end if
  call mbdae_problem_ref(p, yref, status)
  print '(a)', mbdae_problem_spec(p)
  print '(a,i0,a,i0,a,i0,a,i0)', 'steps ', r%stats%steps, ', accepted ', r%stats%accepted, &
    ', #f ', r%stats%nres, ', #Jac ', r%stats%njac
  if (status == mbdae_ok) then
    print '(a,f6.2,a,f6.2)', 'scd ', mbdae_scd(p, y, yref), ', mescd ', &
      mbdae_mescd(p, y, yref, opt%rtol, opt%atol)
  end if
  call mbdae_problem_destroy(p)
end program chain_mebdf
