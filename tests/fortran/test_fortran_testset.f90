! The test-set interface (mbdae_testset) against the C residual: on every problem (and the forms
! of the mechanical ones), after prob and init, F = M y' - f(t, y) for type DAE (f = F for IDE)
! equals the C API's F(t, y, y') at a perturbed state: f = -F(t, y, 0) bit for bit (the car axis,
! whose f is evaluated in the published order, to 1e-14 relative), M y' - f = F to rounding; IDE
! f = F bit for bit, df/dy = -dF/dy (DAE) or dF/dy (IDE) and
! the mass matrix in band storage equal dF/dy'; the spec comes from MBDAE_TESTSET_SPEC when no call
! set it, caraxis by default; bad specs give a status and a message, never a stop.
program test_fortran_testset
  use, intrinsic :: iso_c_binding
  use mbdae
  use mbdae_testset, only: mbdae_testset_status, mbdae_testset_index, ts_perm
  implicit none
  interface
    integer(c_int) function c_side_eval(spec, t, y, yp, y0, yp0, res, dfdy, dfdyp) bind(c)
      import :: c_int, c_char, c_double
      character(kind=c_char), intent(in) :: spec(*)
      real(c_double), value :: t
      real(c_double), intent(in) :: y(*), yp(*)
      real(c_double), intent(out) :: y0(*), yp0(*), res(*), dfdy(*), dfdyp(*)
    end function c_side_eval
    integer(c_int) function setenv(name, value, overwrite) bind(c)
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: name(*), value(*)
      integer(c_int), value :: overwrite
    end function setenv
    integer(c_int) function unsetenv(name) bind(c)
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: name(*)
    end function unsetenv
  end interface
  character(len=14), parameter :: forms(5) = [character(len=14) :: '', 'form=index2', &
                                              'form=ggl', 'form=index1', 'form=baumgarte']
  integer :: failures = 0, checked = 0, i, k, ierr
  character(:), allocatable :: spec

  call check_environment()
  do i = 1, mbdae_problem_count()
    do k = 1, size(forms)
      spec = mbdae_problem_id(i)
      if (len_trim(forms(k)) > 0) spec = spec//':'//trim(forms(k))
      call mbdae_testset_set_spec(spec, ierr)
      if (ierr == mbdae_err_spec) cycle
      call expect(ierr == 0, 'set spec '//spec)
      call check_problem(spec)
    end do
  end do
  call mbdae_testset_set_spec('andrews:jac=approx', ierr)
  call check_problem('andrews:jac=approx')
  call expect(checked >= 25, 'at least 25 problem forms through the test-set interface')
  deallocate (spec) ! a main program's variables are never freed (LeakSanitizer)
  print '(a,i0,a)', 'test_fortran_testset: ', checked, ' problem forms equal the C residual'
  if (failures > 0) then
    print '(a,i0,a)', 'test_fortran_testset: ', failures, ' failures'
    error stop 1
  end if
  print '(a)', 'test_fortran_testset: ok'

contains

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      print '(2a)', 'FAIL: ', what
    end if
  end subroutine expect

  logical function same(a, b)
    real(c_double), intent(in) :: a(:), b(:)
    same = all(transfer(a, 1_c_int64_t, size(a)) == transfer(b, 1_c_int64_t, size(b)))
  end function same

  ! Whether spec is one of the published configurations (the same canonical spec).
  logical function published(spec)
    character(*), intent(in) :: spec
    character(len=24), parameter :: ids(4) = [character(len=24) :: 'caraxis', 'andrews', &
                                               'andrews:jac=approx', 'crank']
    type(mbdae_problem) :: p, q
    integer :: st, k
    published = .false.
    call mbdae_problem_create(p, spec, st)
    do k = 1, size(ids)
      call mbdae_problem_create(q, trim(ids(k)), st)
      if (mbdae_problem_spec(p) == mbdae_problem_spec(q)) published = .true.
      call mbdae_problem_destroy(q)
    end do
    call mbdae_problem_destroy(p)
  end function published

  ! The interface's variables come ordered by index, ind(1) of index 0 or 1 first.
  subroutine check_order(n, ind, spec)
    integer, intent(in) :: n, ind(3)
    character(*), intent(in) :: spec
    integer :: idx(n), st, k
    call mbdae_testset_index(idx, st)
    idx = max(idx, 1)
    call expect(st == 0 .and. all(idx(2:n) >= idx(1:n - 1)), 'ordered by index: '//spec)
    do k = 1, 3
      call expect(count(idx == k) == ind(k), 'ind agrees with the order: '//spec)
    end do
  end subroutine check_order

  subroutine call_prob(name, type, neqn, numjac, mljac, mujac, mlmas, mumas, ind, t)
    character(len=80), intent(out) :: name
    character(len=3), intent(out) :: type
    integer, intent(out) :: neqn, mljac, mujac, mlmas, mumas, ind(3)
    logical, intent(out) :: numjac
    double precision, intent(out) :: t(0:1)
    character(len=80) :: problm
    integer :: ndisc
    logical :: nummas
    call prob(name, problm, type, neqn, ndisc, t, numjac, mljac, mujac, nummas, mlmas, mumas, ind)
  end subroutine call_prob

  subroutine check_environment()
    character(len=80) :: name
    character(len=3) :: type
    integer :: neqn, mljac, mujac, mlmas, mumas, ind(3), st
    logical :: numjac
    double precision :: t(0:1)
    character(len=512) :: msg
    st = unsetenv('MBDAE_TESTSET_SPEC'//c_null_char)
    call call_prob(name, type, neqn, numjac, mljac, mujac, mlmas, mumas, ind, t)
    call expect(neqn == 10 .and. type == 'DAE' .and. numjac .and. all(ind == [4, 4, 2]) .and. &
                mlmas == 0 .and. mumas == 0 .and. t(1) == 3d0, 'default: the car axis as published')
    st = setenv('MBDAE_TESTSET_SPEC'//c_null_char, 'andrews'//c_null_char, 1_c_int)
    call call_prob(name, type, neqn, numjac, mljac, mujac, mlmas, mumas, ind, t)
    call expect(neqn == 27 .and. type == 'DAE' .and. .not. numjac .and. &
                all(ind == [7, 7, 13]), 'MBDAE_TESTSET_SPEC=andrews')
    st = setenv('MBDAE_TESTSET_SPEC'//c_null_char, 'crank'//c_null_char, 1_c_int)
    call call_prob(name, type, neqn, numjac, mljac, mujac, mlmas, mumas, ind, t)
    call expect(neqn == 24 .and. type == 'DAE' .and. numjac .and. all(ind == [14, 10, 0]), &
                'MBDAE_TESTSET_SPEC=crank: as published')
    st = setenv('MBDAE_TESTSET_SPEC'//c_null_char, 'crank:n=3'//c_null_char, 1_c_int)
    call call_prob(name, type, neqn, numjac, mljac, mujac, mlmas, mumas, ind, t)
    call mbdae_testset_status(st, msg)
    call expect(neqn == 0 .and. type == 'ERR' .and. st == mbdae_err_spec .and. &
                index(name, 'n') > 0 .and. len_trim(msg) > 0, 'bad MBDAE_TESTSET_SPEC: '//trim(msg))
    call mbdae_testset_set_spec('pendulum:form=nosuch', st)
    call expect(st == mbdae_err_spec, 'bad spec in the call: a status')
    call mbdae_testset_set_spec('pendulum', st)
    call call_prob(name, type, neqn, numjac, mljac, mujac, mlmas, mumas, ind, t)
    call expect(neqn == 5 .and. st == 0, 'the call overrides MBDAE_TESTSET_SPEC')
    st = unsetenv('MBDAE_TESTSET_SPEC'//c_null_char)
  end subroutine check_environment

  subroutine check_problem(spec)
    character(*), intent(in) :: spec
    character(len=80) :: name
    character(len=3) :: type
    integer :: neqn, mljac, mujac, mlmas, mumas, ind(3), ierr, n, i, j, rc, ld
    logical :: numjac, consis
    double precision :: t(0:1), tt
    double precision, allocatable :: y(:), yp(:), f(:), fm(:), jf(:, :), mb(:, :), m(:, :)
    double precision, allocatable :: cy0(:), cyp0(:), cres(:), cjy(:, :), cjyp(:, :), f0(:)
    double precision, allocatable :: yo(:), ypo(:)
    double precision :: rpar(1)
    integer :: ipar(1)
    logical, allocatable :: flip(:)
    call call_prob(name, type, neqn, numjac, mljac, mujac, mlmas, mumas, ind, t)
    n = neqn
    call expect(n > 0 .and. (type == 'DAE' .or. type == 'IDE'), 'prob '//spec//' '//type)
    if (n == 0) return
    call expect(sum(ind) == n, 'ind counts every variable: '//spec)
    call check_order(n, ind, spec)
    ld = n
    if (mljac < n) ld = mljac + mujac + 1
    allocate (y(n), yp(n), f(n), fm(n), jf(ld, n), m(n, n), mb(mlmas + mumas + 1, n))
    allocate (cy0(n), cyp0(n), cres(n), cjy(n, n), cjyp(n, n), f0(n), flip(n), yo(n), ypo(n))
    flip = .false.
    call init(n, t(0), y, yp, consis)
    do i = 1, n
      y(i) = y(i) * (1d0 + 1d-3 * sin(real(i, c_double))) + 1d-4 * cos(real(i, c_double))
      yp(i) = yp(i) * (1d0 - 1d-3 * cos(real(i, c_double))) + 1d-4 * sin(real(i, c_double))
    end do
    tt = 0.3d0 * t(1) + 0.7d0 * t(0)
    ! The C side in the problem's order (yo, ypo), its results in the interface's (ts_perm).
    yo(ts_perm) = y
    ypo(ts_perm) = yp
    rc = c_side_eval(spec//c_null_char, tt, yo, ypo, cy0, cyp0, cres, cjy, cjyp)
    call expect(rc == 0, 'C side of '//spec)
    cres = cres(ts_perm)
    cjy = cjy(ts_perm, ts_perm)
    cjyp = cjyp(ts_perm, ts_perm)
    call feval(n, tt, y, yp, f, ierr, rpar, ipar)
    call jeval(ld, n, tt, y, yp, jf, ierr, rpar, ipar)
    call meval(mlmas + mumas + 1, n, tt, y, yp, mb, ierr, rpar, ipar)
    if (mlmas == n) then
      m = mb(1:n, 1:n)
    else
      m = 0
      do j = 1, n
        do i = max(1, j - mumas), min(n, j + mlmas)
          m(i, j) = mb(i - j + mumas + 1, j)
        end do
      end do
    end if
    call expect(all(m == cjyp), 'meval = dF/dyp: '//spec)
    if (type == 'DAE') then
      ! f = -F(t, y, 0) bit for bit, and M y' - f = F(t, y, y') to rounding (F may group
      ! y' - v - G^T mu otherwise than M y' - (v + G^T mu)).  The published configurations' f is
      ! the test set's arithmetic (to 1e-14 of the C residual), and the crank's algebraic rows
      ! carry the sign crank.f gives them, the opposite of the C residual's (0 = -g or 0 = g):
      ! compared in magnitude where M's row is zero.
      rc = c_side_eval(spec//c_null_char, tt, yo, 0 * yp, cy0, cyp0, f0, cjy, cjyp)
      f0 = f0(ts_perm)
      cjy = cjy(ts_perm, ts_perm)
      cjyp = cjyp(ts_perm, ts_perm)
      fm = matmul(m, yp) - f
      if (published(spec)) then
        do i = 1, n
          flip(i) = all(m(i, :) == 0) .and. f(i) * f0(i) > 0
          if (all(m(i, :) == 0)) then
            f0(i) = sign(f0(i), -f(i))
            cres(i) = sign(cres(i), fm(i))
          end if
        end do
        call expect(maxval(abs(f + f0)) <= 1d-14 * maxval(abs(f0)), 'f of '//spec)
      else
        call expect(same(f, -f0), 'f = -F(t, y, 0) bit for bit: '//spec)
      end if
      call expect(maxval(abs(fm - cres)) <= 1d-12 * max(1d0, maxval(abs(cres))), &
                  'M yp - f = F: '//spec)
      jf = -jf
    else
      call expect(same(f, cres), 'f = F bit for bit: '//spec)
    end if
    do i = 1, n ! the algebraic rows' sign as f has it
      if (flip(i)) cjy(i, :) = -cjy(i, :)
    end do
    if (mljac < n) then
      do j = 1, n
        do i = max(1, j - mujac), min(n, j + mljac)
          call expect(jf(i - j + mujac + 1, j) == cjy(i, j), 'banded jeval: '//spec)
        end do
      end do
    else
      call expect(same(reshape(jf, [n * n]), reshape(cjy, [n * n])), 'jeval = -dF/dy: '//spec)
    end if
    checked = checked + 1
  end subroutine check_problem

end program test_fortran_testset
