! The Fortran solver bdf1 (bdf1.f90) under a driver in the Test Set for IVP Solvers' calling
! convention (release 2.4: prob, init, feval, jeval, meval): linked with libmbdae_testset it runs
! any mbdae problem (MBDAE_TESTSET_SPEC), linked with a test-set problem file that problem.
!
!   MBDAE_TESTSET_SPEC=crank bdf1_testset TOL     rtol = atol = TOL
!
! F(t, y, y') = M y' - f(t, y) for type DAE (M from meval, band storage), f(t, y, y') for IDE;
! the iteration matrix -df/dy + c M (DAE) or df/dy + c df/dy' (IDE).  The index per variable
! from ind (the variables of index 1, then 2, then 3, as the test set orders them).  Prints
!   steps accepted nres njac nlu status
! then y(tend), one component a line (17 digits: the double exactly).
module bdf1_testset_system
  use bdf1
  implicit none
  private
  public :: testset_system

  type, extends(bdf1_system), public :: testset_system
    logical :: dae = .true.
    integer :: mlmas = 0, mumas = 0, mljac = 0, mujac = 0
  contains
    procedure :: res => system_res
    procedure :: mat => system_mat
  end type testset_system

contains

  ! M y' with M in the test set's band storage (full when mlmas = n).
  function mass_times(self, t, y, yp) result(my)
    class(testset_system), intent(in) :: self
    double precision, intent(in) :: t, y(:), yp(:)
    double precision :: my(size(y)), m(size(y), size(y))
    call full_mass(self, t, y, yp, m)
    my = matmul(m, yp)
  end function mass_times

  subroutine full_mass(self, t, y, yp, m)
    class(testset_system), intent(in) :: self
    double precision, intent(in) :: t, y(:), yp(:)
    double precision, intent(out) :: m(:, :)
    double precision :: mb(self%mlmas + self%mumas + 1, size(y)), rpar(1)
    integer :: n, i, j, ierr, ipar(1)
    n = size(y)
    if (self%mlmas == n) then
      call meval(n, n, t, y, yp, m, ierr, rpar, ipar)
      return
    end if
    call meval(size(mb, 1), n, t, y, yp, mb, ierr, rpar, ipar)
    m = 0
    do j = 1, n
      do i = max(1, j - self%mumas), min(n, j + self%mlmas)
        m(i, j) = mb(i - j + self%mumas + 1, j)
      end do
    end do
  end subroutine full_mass

  subroutine system_res(self, t, y, yp, r, ierr)
    class(testset_system), intent(inout) :: self
    double precision, intent(in) :: t, y(:), yp(:)
    double precision, intent(out) :: r(:)
    integer, intent(out) :: ierr
    double precision :: rpar(1)
    integer :: ipar(1)
    call feval(size(y), t, y, yp, r, ierr, rpar, ipar)
    if (self%dae) r = mass_times(self, t, y, yp) - r
  end subroutine system_res

  subroutine system_mat(self, t, y, yp, c, a, ierr)
    class(testset_system), intent(inout) :: self
    double precision, intent(in) :: t, y(:), yp(:), c
    double precision, intent(out) :: a(:, :)
    integer, intent(out) :: ierr
    double precision :: m(size(y), size(y)), jb(self%mljac + self%mujac + 1, size(y)), rpar(1)
    integer :: n, i, j, ipar(1)
    n = size(y)
    if (self%mljac == n) then
      call jeval(n, n, t, y, yp, a, ierr, rpar, ipar)
    else
      call jeval(size(jb, 1), n, t, y, yp, jb, ierr, rpar, ipar)
      a = 0
      do j = 1, n
        do i = max(1, j - self%mujac), min(n, j + self%mljac)
          a(i, j) = jb(i - j + self%mujac + 1, j)
        end do
      end do
    end if
    call full_mass(self, t, y, yp, m)
    if (self%dae) a = -a
    a = a + c * m
  end subroutine system_mat

end module bdf1_testset_system

program bdf1_testset
  use bdf1
  use bdf1_testset_system
  implicit none
  character(len=80) :: fullnm, problm, arg
  character(len=3) :: type
  integer :: neqn, ndisc, ind(3), status, i
  logical :: numjac, nummas, consis
  double precision :: t(0:1), tol, t_end, h
  double precision, allocatable :: y(:), yp(:)
  integer, allocatable :: index_of(:)
  type(testset_system) :: sys
  type(bdf1_stats) :: st

  call get_command_argument(1, arg)
  read (arg, *) tol
  call prob(fullnm, problm, type, neqn, ndisc, t, numjac, sys%mljac, sys%mujac, nummas, &
            sys%mlmas, sys%mumas, ind)
  if (neqn <= 0) then
    print '(2a)', 'bdf1_testset: no problem: ', trim(fullnm)
    stop 2
  end if
  sys%dae = type == 'DAE'
  allocate (y(neqn), yp(neqn), index_of(neqn))
  index_of = [(1, i = 1, ind(1)), (2, i = 1, ind(2)), (3, i = 1, ind(3))]
  call init(neqn, t(0), y, yp, consis)
  call bdf1_integrate(sys, t(0), t(1), tol, tol, 0d0, 0, index_of, y, yp, st, status, t_end, h)
  print '(6i10)', st%steps, st%accepted, st%nres, st%njac, st%nlu, status
  do i = 1, neqn
    print '(es25.17)', y(i)
  end do
end program bdf1_testset
