! The problem interface of the Test Set for IVP Solvers (F. Mazzia, C. Magherini, release 2.4,
! Bari 2008, report part I: "the problem interface"), over every mbdae problem and form: a
! test-set driver links this library (mbdae_testset) instead of a problem file and runs it
! unchanged.  The routines and their argument lists are the test set's:
!
!   prob(fullnm, problm, type, neqn, ndisc, t, numjac, mljac, mujac, nummas, mlmas, mumas, ind)
!   init(neqn, t, y, yprime, consis)          settolerances(neqn, rtol, atol, tolvec)
!   setoutput(neqn, solref, printsolout, nindsol, indsol)
!   feval(neqn, t, y, yprime, f, ierr, rpar, ipar)
!   jeval(ldim, neqn, t, y, yprime, dfdy, ierr, rpar, ipar)
!   meval(ldim, neqn, t, y, yprime, dfddy, ierr, rpar, ipar)
!   solut(neqn, t, y)
!
! Which problem: prob creates it from a spec, the one given to mbdae_testset_set_spec(spec, ierr)
! if that was called, else the environment variable MBDAE_TESTSET_SPEC (read when prob is
! called), else "caraxis".  A spec that cannot be created gives neqn = 0, type = 'ERR' and the
! message in fullnm (also from mbdae_testset_status); nothing stops.
!
! Type: 'DAE' (M y' = f(t, y), M constant) where dF/dy' of the problem is the same at the start
! and at a second, perturbed state: then M = dF/dy' (meval, band storage dfddy(i - j + mumas + 1, j)
! with the widths of M's nonzeros), f = -F(t, y, 0) and df/dy = -dF/dy; otherwise 'IDE'
! (f = F(t, y, y'), jeval dF/dy, meval dF/dy', full).  ind(1..3): the numbers of variables of
! index 0 or 1, 2 and 3, as the test set's drivers read them (RADAU5, MEBDFI: the variables
! ordered by index).  Where a problem lists them otherwise (the chains: each link's position,
! velocity and force together), the interface orders them by index (stable) in every routine;
! mbdae_testset_index gives the index of each variable in the interface's order.
!
! The published configurations keep the test set's problem files' behaviour: caraxis and crank
! have numjac = .true. (the files give no Jacobian; the drivers difference f), andrews' Jacobian
! is the approximate one of andrews.f under the spec andrews:jac=approx.  The f of these three
! is evaluated as the report states the equations, in the published code's order
! (testset_published.f90), so that it equals the test set's files bit for bit; the C residual
! groups a few terms otherwise (last-bit differences, and other counts of the drivers).
!
! State: the current problem lives in this module (the test-set interface is global by its
! definition: one problem per program at a time); ierr = -1 where the problem cannot evaluate
! (the test set's "not evaluable here").
module mbdae_testset
  use, intrinsic :: iso_c_binding
  use mbdae
  implicit none
  private
  public :: mbdae_testset_setup, mbdae_testset_index, mbdae_testset_status
  public :: ts_prob, ts_spec, ts_dae, ts_mass, ts_caraxis, ts_status, ts_msg
  public :: widths, jac_shape, ts_andrews, ts_crank, ts_perm, ts_permuted

  type(mbdae_problem), save :: ts_prob
  character(len=:), allocatable, save :: ts_spec ! set by mbdae_testset_set_spec
  logical, save :: ts_dae = .false., ts_caraxis = .false., ts_andrews = .false.
  logical, save :: ts_numjac = .false., ts_crank = .false.
  real(c_double), allocatable, save :: ts_mass(:, :) ! M, in the interface's order
  ! The interface's variable k is the problem's ts_perm(k): the variables ordered by index
  ! (stable), as the test set's drivers need them; the identity where the problem has them so.
  integer, allocatable, save :: ts_perm(:)
  logical, save :: ts_permuted = .false.
  integer, save :: ts_status = 0
  character(len=512), save :: ts_msg = ''

contains

  ! The spec prob uses: the call's, the environment's, or the car axis.
  function chosen_spec() result(s)
    character(:), allocatable :: s
    integer :: n, st
    if (allocated(ts_spec)) then
      s = ts_spec
      return
    end if
    call get_environment_variable('MBDAE_TESTSET_SPEC', length=n, status=st)
    if (st == 0 .and. n > 0) then
      allocate (character(n) :: s)
      call get_environment_variable('MBDAE_TESTSET_SPEC', value=s)
    else
      s = 'caraxis'
    end if
  end function chosen_spec

  ! The canonical spec of spec, '' when it cannot be created.
  function canonical(spec) result(s)
    character(*), intent(in) :: spec
    character(:), allocatable :: s
    type(mbdae_problem) :: q
    integer :: st
    call mbdae_problem_create(q, spec, st)
    s = mbdae_problem_spec(q)
    call mbdae_problem_destroy(q)
  end function canonical

  ! Create the chosen problem and classify it (DAE or IDE, M, numjac).
  subroutine mbdae_testset_setup(status)
    integer, intent(out) :: status
    character(:), allocatable :: spec, published
    spec = chosen_spec()
    call mbdae_problem_create(ts_prob, spec, status, ts_msg)
    ts_status = status
    if (status /= 0) return
    spec = mbdae_problem_spec(ts_prob)
    published = canonical('caraxis')
    ts_caraxis = spec == published
    published = canonical('crank')
    ts_crank = spec == published
    ts_numjac = ts_caraxis .or. ts_crank
    published = canonical('andrews')
    ts_andrews = spec == published
    published = canonical('andrews:jac=approx')
    ts_andrews = ts_andrews .or. spec == published
    call classify(status)
    ts_status = status
  end subroutine mbdae_testset_setup

  ! DAE when dF/dy' is the same at the start and at a perturbed state at another time.
  subroutine classify(status)
    integer, intent(out) :: status
    real(c_double), allocatable :: y(:), yp(:), m2(:, :)
    real(c_double) :: t
    integer :: n, i
    n = mbdae_problem_neq(ts_prob)
    allocate (y(n), yp(n), m2(n, n))
    if (allocated(ts_mass)) deallocate (ts_mass)
    allocate (ts_mass(n, n))
    call mbdae_problem_init(ts_prob, y, yp, status, ts_msg)
    if (status /= 0) return
    call mbdae_problem_jac(ts_prob, mbdae_problem_t0(ts_prob), y, yp, status, ts_msg, &
                           dfdyp=ts_mass)
    if (status /= 0) return
    do i = 1, n
      y(i) = y(i) * (1d0 + 1d-3 * i / n) + 1d-4
      yp(i) = yp(i) * (1d0 - 1d-3 * i / n) + 1d-4
    end do
    t = 0.5d0 * (mbdae_problem_t0(ts_prob) + mbdae_problem_tend(ts_prob))
    call mbdae_problem_jac(ts_prob, t, y, yp, status, dfdyp=m2)
    ts_dae = status == 0 .and. all(m2 == ts_mass)
    call order_by_index(n, status)
    ts_mass = ts_mass(ts_perm, ts_perm)
  end subroutine classify

  ! ts_perm: the variables of index 0 or 1 first, then 2, then 3, each group in the problem's order
  ! (a chain lists each link's position, velocity and force together).
  subroutine order_by_index(n, status)
    integer, intent(in) :: n
    integer, intent(out) :: status
    integer :: idx(n), k, level, i
    call mbdae_problem_index(ts_prob, idx, status)
    if (allocated(ts_perm)) deallocate (ts_perm)
    allocate (ts_perm(n))
    k = 0
    do level = 1, 3
      do i = 1, n
        if (max(idx(i), 1) == level) then
          k = k + 1
          ts_perm(k) = i
        end if
      end do
    end do
    ts_permuted = any(ts_perm /= [(i, i = 1, n)])
  end subroutine order_by_index

  ! The index of each variable, in the interface's order.
  subroutine mbdae_testset_index(ind, status)
    integer, intent(out) :: ind(:)
    integer, intent(out) :: status
    integer :: idx(size(ts_perm))
    call mbdae_problem_index(ts_prob, idx, status)
    if (status == 0) ind(1:size(idx)) = idx(ts_perm)
  end subroutine mbdae_testset_index

  ! The status and message of the last prob (0 and '' when the problem was created).
  subroutine mbdae_testset_status(status, msg)
    integer, intent(out) :: status
    character(*), intent(out) :: msg
    status = ts_status
    msg = ts_msg
  end subroutine mbdae_testset_status

  ! Lower and upper bandwidths of a's nonzeros.
  subroutine widths(a, ml, mu)
    real(c_double), intent(in) :: a(:, :)
    integer, intent(out) :: ml, mu
    integer :: i, j
    ml = 0
    mu = 0
    do j = 1, size(a, 2)
      do i = 1, size(a, 1)
        if (a(i, j) /= 0d0) then
          ml = max(ml, i - j)
          mu = max(mu, j - i)
        end if
      end do
    end do
  end subroutine widths

  ! The test set's numjac for the problem (its file gives no Jacobian), and mljac, mujac.
  subroutine jac_shape(numjac, mljac, mujac)
    logical, intent(out) :: numjac
    integer, intent(out) :: mljac, mujac
    integer :: kind, nnz, st, n
    integer, allocatable :: colptr(:), rowind(:)
    n = mbdae_problem_neq(ts_prob)
    numjac = ts_numjac
    call mbdae_problem_jac_pattern(ts_prob, kind, mljac, mujac, nnz, colptr, rowind, st)
    if (kind /= mbdae_jac_band .or. ts_permuted) then
      mljac = n
      mujac = n
    end if
  end subroutine jac_shape

end module mbdae_testset

! ---- the test set's routines ---------------------------------------------------------------

! Choose the problem of the next prob call (overrides MBDAE_TESTSET_SPEC); ierr 0, or the
! library's code when spec cannot be created (the problem is then not changed).
subroutine mbdae_testset_set_spec(spec, ierr)
  use mbdae
  use mbdae_testset, only: ts_spec
  implicit none
  character(*), intent(in) :: spec
  integer, intent(out) :: ierr
  type(mbdae_problem) :: q
  call mbdae_problem_create(q, spec, ierr)
  call mbdae_problem_destroy(q)
  if (ierr == 0) ts_spec = trim(spec)
end subroutine mbdae_testset_set_spec

subroutine prob(fullnm, problm, type, neqn, ndisc, t, numjac, mljac, mujac, nummas, mlmas, &
                mumas, ind)
  use mbdae
  use mbdae_testset
  implicit none
  character(*), intent(out) :: fullnm, problm, type
  integer, intent(out) :: neqn, ndisc, mljac, mujac, mlmas, mumas, ind(*)
  double precision, intent(out) :: t(0:*)
  logical, intent(out) :: numjac, nummas
  integer :: st, i, n
  integer, allocatable :: idx(:)
  ndisc = 0
  nummas = .false.
  ind(1:3) = 0
  call mbdae_testset_setup(st)
  if (st /= 0) then
    fullnm = ts_msg
    problm = ''
    type = 'ERR'
    neqn = 0
    return
  end if
  n = mbdae_problem_neq(ts_prob)
  fullnm = mbdae_problem_title(ts_prob)
  problm = mbdae_problem_name(ts_prob)
  neqn = n
  t(0) = mbdae_problem_t0(ts_prob)
  t(1) = mbdae_problem_tend(ts_prob)
  call jac_shape(numjac, mljac, mujac)
  mlmas = n
  mumas = n
  type = 'IDE'
  if (ts_dae) then
    type = 'DAE'
    call widths(ts_mass, mlmas, mumas)
  end if
  allocate (idx(n))
  call mbdae_problem_index(ts_prob, idx, st)
  do i = 1, n
    ind(max(idx(i), 1)) = ind(max(idx(i), 1)) + 1
  end do
end subroutine prob

subroutine init(neqn, t, y, yprime, consis)
  use mbdae
  use mbdae_testset
  implicit none
  integer, intent(in) :: neqn
  double precision, intent(in) :: t
  double precision, intent(out) :: y(neqn), yprime(neqn)
  logical, intent(out) :: consis
  double precision :: y0(neqn), yp0(neqn)
  integer :: st
  call mbdae_problem_init(ts_prob, y0, yp0, st)
  y = y0(ts_perm)
  yprime = yp0(ts_perm)
  consis = st == 0
end subroutine init

subroutine settolerances(neqn, rtol, atol, tolvec)
  implicit none
  integer, intent(in) :: neqn
  double precision, intent(inout) :: rtol(*), atol(*)
  logical, intent(inout) :: tolvec
  tolvec = .false.
end subroutine settolerances

subroutine setoutput(neqn, solref, printsolout, nindsol, indsol)
  implicit none
  integer, intent(in) :: neqn
  logical, intent(out) :: solref, printsolout
  integer, intent(out) :: nindsol, indsol(*)
  integer :: i
  solref = .true.
  printsolout = .false.
  nindsol = neqn
  do i = 1, neqn
    indsol(i) = i
  end do
end subroutine setoutput

subroutine feval(neqn, t, y, yprime, f, ierr, rpar, ipar)
  use mbdae
  use mbdae_testset
  use mbdae_testset_published
  implicit none
  integer, intent(in) :: neqn
  double precision, intent(in) :: t, y(neqn), yprime(neqn)
  double precision, intent(out) :: f(neqn)
  integer, intent(out) :: ierr
  double precision :: rpar(*)
  integer :: ipar(*)
  double precision :: zero(neqn), yo(neqn), ypo(neqn), fo(neqn)
  integer :: st
  ierr = 0
  if (ts_caraxis) then
    call caraxis_f(t, y, f)
    return
  else if (ts_andrews) then
    call andrews_f(y, f)
    return
  else if (ts_crank) then
    call crank_f(y, f)
    return
  end if
  yo(ts_perm) = y
  if (ts_dae) then
    zero = 0d0
    call mbdae_problem_res(ts_prob, t, yo, zero, fo, st)
    fo = -fo
  else
    ypo(ts_perm) = yprime
    call mbdae_problem_res(ts_prob, t, yo, ypo, fo, st)
  end if
  f = fo(ts_perm)
  if (st /= 0) ierr = -1
end subroutine feval

subroutine jeval(ldim, neqn, t, y, yprime, dfdy, ierr, rpar, ipar)
  use mbdae
  use mbdae_testset
  implicit none
  integer, intent(in) :: ldim, neqn
  double precision, intent(in) :: t, y(neqn), yprime(neqn)
  double precision, intent(out) :: dfdy(ldim, neqn)
  integer, intent(out) :: ierr
  double precision :: rpar(*)
  integer :: ipar(*)
  double precision :: j(neqn, neqn), zero(neqn), yo(neqn), ypo(neqn)
  integer :: st, kind, ml, mu, nnz, c, r
  integer, allocatable :: colptr(:), rowind(:)
  ierr = 0
  zero = 0d0
  yo(ts_perm) = y
  ypo(ts_perm) = yprime
  if (ts_dae) then
    call mbdae_problem_jac(ts_prob, t, yo, zero, st, dfdy=j)
    j = -j
    if (ts_crank) then ! crank.f's algebraic rows are +F (see crank_f)
      do r = 1, neqn
        if (all(ts_mass(r, :) == 0)) j(r, :) = -j(r, :)
      end do
    end if
  else
    call mbdae_problem_jac(ts_prob, t, yo, ypo, st, dfdy=j)
  end if
  if (st /= 0) ierr = -1
  if (ts_permuted) j = j(ts_perm, ts_perm)
  call mbdae_problem_jac_pattern(ts_prob, kind, ml, mu, nnz, colptr, rowind, st)
  if (kind /= mbdae_jac_band .or. ts_permuted) then
    dfdy(1:neqn, 1:neqn) = j
    return
  end if
  do c = 1, neqn
    do r = max(1, c - mu), min(neqn, c + ml)
      dfdy(r - c + mu + 1, c) = j(r, c)
    end do
  end do
end subroutine jeval

subroutine meval(ldim, neqn, t, y, yprime, dfddy, ierr, rpar, ipar)
  use mbdae
  use mbdae_testset
  implicit none
  integer, intent(in) :: ldim, neqn
  double precision, intent(in) :: t, y(neqn), yprime(neqn)
  double precision, intent(out) :: dfddy(ldim, neqn)
  integer, intent(out) :: ierr
  double precision :: rpar(*)
  integer :: ipar(*)
  integer :: st, ml, mu, c, r
  double precision :: m(neqn, neqn), yo(neqn), ypo(neqn)
  ierr = 0
  if (.not. ts_dae) then
    yo(ts_perm) = y
    ypo(ts_perm) = yprime
    call mbdae_problem_jac(ts_prob, t, yo, ypo, st, dfdyp=m)
    dfddy(1:neqn, 1:neqn) = m(ts_perm, ts_perm)
    if (st /= 0) ierr = -1
    return
  end if
  ml = 0
  mu = 0
  do c = 1, neqn
    do r = 1, neqn
      if (ts_mass(r, c) /= 0d0) then
        ml = max(ml, r - c)
        mu = max(mu, c - r)
      end if
    end do
  end do
  do c = 1, neqn
    do r = max(1, c - mu), min(neqn, c + ml)
      dfddy(r - c + mu + 1, c) = ts_mass(r, c)
    end do
  end do
end subroutine meval

subroutine solut(neqn, t, y)
  use mbdae
  use mbdae_testset
  implicit none
  integer, intent(in) :: neqn
  double precision, intent(in) :: t
  double precision, intent(out) :: y(neqn)
  double precision :: yo(neqn)
  integer :: st
  call mbdae_problem_ref(ts_prob, yo, st)
  y = yo(ts_perm)
end subroutine solut
