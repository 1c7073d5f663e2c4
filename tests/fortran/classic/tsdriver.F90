! A driver in the Test Set for IVP Solvers' calling convention (release 2.4 report, part I: the
! drivers call prob, init, settolerances, then the solver with the problem's f, Jacobian and
! mass matrix), written against the problem interface alone: linked with libmbdae_testset it runs
! mbdae's problems (MBDAE_TESTSET_SPEC), linked with a test-set problem file that problem.
!
!   tsdriver_radau5 TOL H0      RADAU5 (Hairer & Wanner), built with radau5.f and decsol.f
!   tsdriver_radau TOL H0       RADAU (Hairer & Wanner, orders 5, 9, 13), built with radau.f,
!                               decsol.f and dc_decsol.f (-DRADAU)
!   tsdriver_mebdfi TOL H0      MEBDFI (Cash), built with mebdfi.f (-DMEBDFI)
!
! rtol = atol = TOL (scalars), initial step H0 (read as the decimal literal), the Jacobian the
! problem gives (numjac: the solver's differences), the mass matrix from meval (banded), the index
! counts in IWORK(5..7) (RADAU5, RADAU) or IWORK(1..3) (MEBDFI), every other option at the
! solver's default, the documented minimum workspace.  Prints one line:
!   steps accepted nf njac nlu idid
! then y(tend), one component a line.  The solver is chosen at build time (the preprocessor
! symbol MEBDFI): the two codes cannot be linked together (both define DEC and SOL).
module tsdriver_shape
  implicit none
  integer :: jac_ml = 0, jac_mu = 0 ! prob's mljac, mujac: jeval's storage
contains
  ! df/dy as a full ldfy x n matrix, whatever storage jeval uses (band when jac_ml < n).
  subroutine full_jac(n, x, y, dfy, ldfy, rpar, ipar)
    integer :: n, ldfy, ipar(*), ierr, i, j
    double precision :: x, y(n), dfy(ldfy, n), rpar(*), yp(n)
    double precision :: jb(jac_ml + jac_mu + 1, n)
    yp = 0
    if (jac_ml >= n) then
      call jeval(ldfy, n, x, y, yp, dfy, ierr, rpar, ipar)
      return
    end if
    call jeval(size(jb, 1), n, x, y, yp, jb, ierr, rpar, ipar)
    dfy(1:n, 1:n) = 0
    do j = 1, n
      do i = max(1, j - jac_mu), min(n, j + jac_ml)
        dfy(i, j) = jb(i - j + jac_mu + 1, j)
      end do
    end do
  end subroutine full_jac
end module tsdriver_shape

program tsdriver
  use tsdriver_shape
  implicit none
  integer, parameter :: nmax = 400
  character(len=80) :: fullnm, problm, arg
  character(len=3) :: type
  integer :: neqn, ndisc, mljac, mujac, mlmas, mumas, ind(3), ipar(1), idid, i, istat(5)
  logical :: numjac, nummas, consis, tolvec
  double precision :: t(0:1), y(nmax), yp(nmax), tol, h0, rtol(nmax), atol(nmax), rpar(1)

  call get_command_argument(1, arg)
  read (arg, *) tol
  call get_command_argument(2, arg)
  read (arg, *) h0
  call prob(fullnm, problm, type, neqn, ndisc, t, numjac, mljac, mujac, nummas, mlmas, mumas, ind)
  if (neqn <= 0 .or. neqn > nmax) then
    print '(2a)', 'tsdriver: no problem: ', trim(fullnm)
    stop 2
  end if
  if (type /= 'DAE' .or. mlmas /= 0 .or. mumas /= 0) then
    print '(3a)', 'tsdriver: type ', type, ': this driver runs DAEs with a diagonal mass matrix'
    stop 3
  end if
  jac_ml = mljac
  jac_mu = mujac
  call init(neqn, t(0), y, yp, consis)
  rtol(1) = tol
  atol(1) = tol
  tolvec = .false.
  call settolerances(neqn, rtol, atol, tolvec)
  rpar = 0
  ipar = 0
  call run(neqn, t, y, yp, h0, rtol, atol, numjac, mlmas, mumas, ind, istat, idid)
  print '(6i10)', istat, idid
  do i = 1, neqn
    print '(es25.17)', y(i)
  end do

contains

#ifndef MEBDFI
  subroutine run(n, t, y, yp, h0, rtol, atol, numjac, mlmas, mumas, ind, istat, idid)
    integer, intent(in) :: n, mlmas, mumas, ind(3)
    double precision, intent(in) :: t(0:1), h0
    double precision, intent(inout) :: y(n), yp(n), rtol(*), atol(*)
    logical, intent(in) :: numjac
    integer, intent(out) :: istat(5), idid
    external :: r5fcn, r5jac, r5mas, r5out
#ifdef RADAU
    external :: radau
#else
    external :: radau5
#endif
    double precision, allocatable :: work(:)
    integer, allocatable :: iwork(:)
    integer :: lwork, liwork, ijac
    double precision :: x, h, rpar(1)
    integer :: ipar(1)
#ifdef RADAU
    lwork = n * (8 * n + 25) + 20 ! NSMAX = 7
    liwork = 5 * n + 20
#else
    lwork = n * (4 * n + 13) + 20
    liwork = 3 * n + 20
#endif
    allocate (work(lwork), iwork(liwork))
    work = 0
    iwork = 0
    iwork(5:7) = ind
    ijac = 1
    if (numjac) ijac = 0
    x = t(0)
    h = h0
#ifdef RADAU
    call radau(n, r5fcn, x, y, t(1), h, rtol, atol, 0, r5jac, ijac, n, n, r5mas, 1, mlmas, &
               mumas, r5out, 0, work, lwork, iwork, liwork, rpar, ipar, idid)
#else
    call radau5(n, r5fcn, x, y, t(1), h, rtol, atol, 0, r5jac, ijac, n, n, r5mas, 1, mlmas, &
                mumas, r5out, 0, work, lwork, iwork, liwork, rpar, ipar, idid)
#endif
    istat = [iwork(16), iwork(17), iwork(14), iwork(15), iwork(19)]
    if (.false.) yp(1) = 0
  end subroutine run
#else
  subroutine run(n, t, y, yp, h0, rtol, atol, numjac, mlmas, mumas, ind, istat, idid)
    integer, intent(in) :: n, mlmas, mumas, ind(3)
    double precision, intent(in) :: t(0:1), h0
    double precision, intent(inout) :: y(n), yp(n), rtol(*), atol(*)
    logical, intent(in) :: numjac
    integer, intent(out) :: istat(5), idid
    external :: mebdfi, meres, mejac
    double precision, allocatable :: work(:)
    integer, allocatable :: iwork(:)
    integer :: lwork, liwork, mf, mbnd(4), ierr, ipar(1)
    double precision :: x, h, rpar(1)
    lwork = (32 + 2 * n) * n + 2
    liwork = n + 14
    allocate (work(lwork), iwork(liwork))
    work = 0
    iwork = 0
    iwork(1:3) = ind
    iwork(14) = 100000
    mf = 21
    if (numjac) mf = 22
    mbnd = n
    x = t(0)
    h = h0
    ierr = 0
    idid = 1
    call mebdfi(n, x, h, y, yp, t(1), t(1), mf, idid, 6, lwork, work, liwork, iwork, mbnd, 7, &
                2, rtol, atol, rpar, ipar, mejac, meres, ierr)
    do while (idid == 1)
      idid = 0
      call mebdfi(n, x, h, y, yp, t(1), t(1), mf, idid, 6, lwork, work, liwork, iwork, mbnd, 7, &
                  2, rtol, atol, rpar, ipar, mejac, meres, ierr)
    end do
    istat = [iwork(5) + iwork(6), iwork(5), iwork(7), iwork(8), iwork(9)]
    if (.false.) print *, mlmas, mumas
  end subroutine run
#endif

end program tsdriver

#ifndef MEBDFI
! RADAU5's FCN(N, X, Y, F, RPAR, IPAR): the problem's f.
subroutine r5fcn(n, x, y, f, rpar, ipar)
  implicit none
  integer :: n, ipar(*), ierr
  double precision :: x, y(n), f(n), rpar(*), yp(n)
  yp = 0
  call feval(n, x, y, yp, f, ierr, rpar, ipar)
end subroutine r5fcn

! RADAU5's JAC(N, X, Y, DFY, LDFY, RPAR, IPAR): df/dy, full.
subroutine r5jac(n, x, y, dfy, ldfy, rpar, ipar)
  use tsdriver_shape
  implicit none
  integer :: n, ldfy, ipar(*)
  double precision :: x, y(n), dfy(ldfy, n), rpar(*)
  call full_jac(n, x, y, dfy, ldfy, rpar, ipar)
end subroutine r5jac

! RADAU5's MAS(N, AM, LMAS, RPAR, IPAR): the mass matrix, banded.
subroutine r5mas(n, am, lmas, rpar, ipar)
  implicit none
  integer :: n, lmas, ipar(*), ierr
  double precision :: am(lmas, n), rpar(*), y(n), yp(n)
  y = 0
  yp = 0
  call meval(lmas, n, 0d0, y, yp, am, ierr, rpar, ipar)
end subroutine r5mas

subroutine r5out(nr, xold, x, y, cont, lrc, n, rpar, ipar, irtrn)
  implicit none
  integer :: nr, lrc, n, ipar(*), irtrn
  double precision :: xold, x, y(n), cont(*), rpar(*)
  irtrn = 0
end subroutine r5out
#else
! MEBDFI's RESID(N, T, Y, DELTA, YPRIME, IPAR, RPAR, IERR): delta = M y' - f(t, y), M diagonal
! (the problems this test runs: mlmas = mumas = 0).
subroutine meres(n, t, y, delta, yprime, ipar, rpar, ierr)
  implicit none
  integer :: n, ipar(*), ierr, i
  double precision :: t, y(n), delta(n), yprime(n), rpar(*), am(1, n)
  call feval(n, t, y, yprime, delta, ierr, rpar, ipar)
  call meval(1, n, t, y, yprime, am, ierr, rpar, ipar)
  do i = 1, n
    delta(i) = am(1, i) * yprime(i) - delta(i)
  end do
end subroutine meres

! MEBDFI's PDERV(T, Y, PD, N, YPRIME, MBND4, CON, IPAR, RPAR, IERR): -df/dy + M / con.
subroutine mejac(t, y, pd, n, yprime, mbnd4, con, ipar, rpar, ierr)
  use tsdriver_shape
  implicit none
  integer :: n, mbnd4, ipar(*), ierr, j
  double precision :: t, y(n), pd(mbnd4, n), yprime(n), con, rpar(*), am(1, n)
  call full_jac(n, t, y, pd, mbnd4, rpar, ipar)
  call meval(1, n, t, y, yprime, am, ierr, rpar, ipar)
  pd(1:n, 1:n) = -pd(1:n, 1:n)
  do j = 1, n
    pd(j, j) = pd(j, j) + am(1, j) / con
  end do
end subroutine mejac
#endif
