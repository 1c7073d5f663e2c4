! The Fortran module mbdae against the C API: on every built-in problem in every form it accepts,
! the consistent start, the residual and both Jacobians at a perturbed state equal the C API's
! bit for bit (c_side.c); scd and mescd, the reference, names, the pattern's values against the
! dense Jacobian; the mirrored structs have C's sizes; a run of mebdf on the pendulum chain gives
! the same result as `mbdae_solve` from C; bad specs, short arrays and a problem never created
! give a status and a message.
program test_fortran_module
  use, intrinsic :: iso_c_binding
  use mbdae
  implicit none
  interface
    integer(c_int) function c_side_eval(spec, t, y, yp, y0, yp0, res, dfdy, dfdyp) bind(c)
      import :: c_int, c_char, c_double
      character(kind=c_char), intent(in) :: spec(*)
      real(c_double), value :: t
      real(c_double), intent(in) :: y(*), yp(*)
      real(c_double), intent(out) :: y0(*), yp0(*), res(*), dfdy(*), dfdyp(*)
    end function c_side_eval
    integer(c_int) function c_side_solve(spec, solver, rtol, h0, y, steps, scd) bind(c)
      import :: c_int, c_char, c_double, c_long
      character(kind=c_char), intent(in) :: spec(*), solver(*)
      real(c_double), value :: rtol, h0
      real(c_double), intent(out) :: y(*), scd
      integer(c_long), intent(out) :: steps
    end function c_side_solve
    integer(c_size_t) function c_side_sizeof(which) bind(c)
      import :: c_size_t, c_int
      integer(c_int), value :: which
    end function c_side_sizeof
  end interface
  character(len=14), parameter :: forms(7) = [character(len=14) :: '', 'form=index2', &
                                              'form=ggl', 'form=index1', 'form=baumgarte', &
                                              'form=ssf', 'form=dummy']
  integer :: failures = 0, checked = 0, i, k
  character(:), allocatable :: spec

  call check_sizes()
  do i = 1, mbdae_problem_count()
    do k = 1, size(forms)
      spec = mbdae_problem_id(i)
      if (len_trim(forms(k)) > 0) spec = spec//':'//trim(forms(k))
      call check_problem(spec)
    end do
  end do
  call expect(checked >= 30, 'at least 30 problem forms compared')
  deallocate (spec) ! a main program's variables are never freed (LeakSanitizer)
  print '(a,i0,a)', 'test_fortran_module: ', checked, ' problem forms equal C bit for bit'
  call check_errors()
  call check_solve()
  if (failures > 0) then
    print '(a,i0,a)', 'test_fortran_module: ', failures, ' failures'
    error stop 1
  end if
  print '(a)', 'test_fortran_module: ok'

contains

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      print '(2a)', 'FAIL: ', what
    end if
  end subroutine expect

  ! Equal bit for bit (NaN with NaN of the same bits, -0 apart from +0).
  logical function same(a, b)
    real(c_double), intent(in) :: a(:), b(:)
    same = size(a) == size(b)
    if (same) same = all(transfer(a, 1_c_int64_t, size(a)) == transfer(b, 1_c_int64_t, size(b)))
  end function same

  subroutine check_problem(spec)
    character(*), intent(in) :: spec
    type(mbdae_problem) :: p
    integer :: st, n, i
    character(len=512) :: msg
    real(c_double), allocatable :: y0(:), yp0(:), y(:), yp(:), res(:), jy(:, :), jyp(:, :)
    real(c_double), allocatable :: cy0(:), cyp0(:), cres(:), cjy(:, :), cjyp(:, :)
    real(c_double) :: t
    call mbdae_problem_create(p, spec, st, msg)
    if (st == mbdae_err_spec) return ! a form this problem does not have
    call expect(st == 0, 'create '//spec//': '//trim(msg))
    if (st /= 0) return
    n = mbdae_problem_neq(p)
    allocate (y0(n), yp0(n), y(n), yp(n), res(n), jy(n, n), jyp(n, n))
    allocate (cy0(n), cyp0(n), cres(n), cjy(n, n), cjyp(n, n))
    call mbdae_problem_init(p, y0, yp0, st, msg)
    call expect(st == 0, 'init '//spec//': '//trim(msg))
    do i = 1, n
      y(i) = y0(i) * (1d0 + 1d-3 * sin(real(i, c_double))) + 1d-4 * cos(real(i, c_double))
      yp(i) = yp0(i) * (1d0 - 1d-3 * cos(real(i, c_double))) + 1d-4 * sin(real(i, c_double))
    end do
    t = 0.3d0 * mbdae_problem_tend(p) + 0.7d0 * mbdae_problem_t0(p)
    call mbdae_problem_res(p, t, y, yp, res, st, msg)
    call expect(st == 0, 'res '//spec//': '//trim(msg))
    call mbdae_problem_jac(p, t, y, yp, st, msg, dfdy=jy, dfdyp=jyp)
    call expect(st == 0, 'jac '//spec//': '//trim(msg))
    st = c_side_eval(spec//c_null_char, t, y, yp, cy0, cyp0, cres, cjy, cjyp)
    call expect(st == 0, 'C side '//spec)
    call expect(same(y0, cy0) .and. same(yp0, cyp0), 'start equals C: '//spec)
    call expect(same(res, cres), 'residual equals C: '//spec)
    call expect(same(reshape(jy, [n * n]), reshape(cjy, [n * n])), 'dF/dy equals C: '//spec)
    call expect(same(reshape(jyp, [n * n]), reshape(cjyp, [n * n])), 'dF/dyp equals C: '//spec)
    call check_pattern(p, t, y, yp, jy, jyp, spec)
    call check_describe(p, spec)
    checked = checked + 1
    call mbdae_problem_destroy(p)
  end subroutine check_problem

  ! The pattern's values scattered into neq x neq equal the dense Jacobian.
  subroutine check_pattern(p, t, y, yp, jy, jyp, spec)
    type(mbdae_problem), intent(in) :: p
    real(c_double), intent(in) :: t, y(:), yp(:), jy(:, :), jyp(:, :)
    character(*), intent(in) :: spec
    integer :: kind, ml, mu, nnz, st, n, j, k
    integer, allocatable :: colptr(:), rowind(:)
    real(c_double), allocatable :: vy(:), vyp(:), dy(:, :), dyp(:, :)
    n = size(y)
    call mbdae_problem_jac_pattern(p, kind, ml, mu, nnz, colptr, rowind, st)
    call expect(st == 0 .and. kind >= mbdae_jac_dense, 'pattern of '//spec)
    allocate (vy(nnz), vyp(nnz), dy(n, n), dyp(n, n))
    call mbdae_problem_jac_values(p, t, y, yp, st, dfdy=vy, dfdyp=vyp)
    call expect(st == 0, 'pattern values of '//spec)
    if (kind == mbdae_jac_dense) then
      call expect(nnz == n * n .and. .not. allocated(colptr), 'dense pattern of '//spec)
      dy = reshape(vy, [n, n])
      dyp = reshape(vyp, [n, n])
    else
      dy = 0
      dyp = 0
      do j = 1, n
        do k = colptr(j), colptr(j + 1) - 1
          dy(rowind(k), j) = vy(k)
          dyp(rowind(k), j) = vyp(k)
        end do
      end do
    end if
    ! Equal to the last bits but in the chain's index-1 and Baumgarte forms (the pattern's values
    ! there are summed in another order than the dense matrix's: differences of 1e-19 and 3e-14).
    call expect(maxval(abs(dy - jy)) <= 1d-12 * max(1d0, maxval(abs(jy))) .and. &
                maxval(abs(dyp - jyp)) <= 1d-12 * max(1d0, maxval(abs(jyp))), &
                'pattern values = dense Jacobian: '//spec)
  end subroutine check_pattern

  ! Names, index, interval, reference, scd and constraints answer consistently.
  subroutine check_describe(p, spec)
    type(mbdae_problem), intent(in) :: p
    character(*), intent(in) :: spec
    integer :: st, n, nc
    integer, allocatable :: ind(:)
    real(c_double), allocatable :: yref(:), y0(:), yp0(:), g(:), gv(:)
    character(:), allocatable :: first, beyond
    n = mbdae_problem_neq(p)
    allocate (ind(n), yref(n), y0(n), yp0(n))
    call mbdae_problem_index(p, ind, st)
    call expect(st == 0 .and. all(ind >= 0 .and. ind <= 3), 'index of '//spec)
    first = mbdae_problem_component(p, 1)
    beyond = mbdae_problem_component(p, n + 1)
    call expect(len(first) > 0 .and. len(beyond) == 0, 'component names of '//spec)
    call expect(mbdae_problem_t0(p) < mbdae_problem_tend(p), 'interval of '//spec)
    call expect(index(mbdae_problem_spec(p), mbdae_problem_name(p)) == 1, 'spec of '//spec)
    call mbdae_problem_ref(p, yref, st)
    if (st == 0) then
      call expect(scd_of(p, yref) >= 15d0, 'scd of the reference itself: '//spec)
      call expect(len(mbdae_problem_ref_source(p)) > 0, 'reference source of '//spec)
    else
      call expect(st == mbdae_err_noref, 'no reference is mbdae_err_noref: '//spec)
    end if
    nc = mbdae_problem_nconstraints(p)
    if (nc > 0) then
      allocate (g(nc), gv(nc))
      call mbdae_problem_init(p, y0, yp0, st)
      call mbdae_problem_constraints(p, mbdae_problem_t0(p), y0, yp0, st, gpos=g, gvel=gv)
      call expect(st == 0 .and. maxval(abs(g)) < 1d-6, 'consistent start satisfies g: '//spec)
    end if
  end subroutine check_describe

  real(c_double) function scd_of(p, y)
    type(mbdae_problem), intent(in) :: p
    real(c_double), intent(in) :: y(:)
    scd_of = mbdae_scd(p, y, y)
  end function scd_of

  subroutine check_sizes()
    type(mbdae_options) :: o
    type(mbdae_result) :: r
    type(mbdae_solver_type) :: s
    type(mbdae_stats) :: st
    call expect(c_sizeof(o) == c_side_sizeof(0), 'mbdae_options has C''s size')
    call expect(c_sizeof(r) == c_side_sizeof(1), 'mbdae_result has C''s size')
    call expect(c_sizeof(s) == c_side_sizeof(2), 'mbdae_solver_type has C''s size')
    call expect(c_sizeof(st) == c_side_sizeof(3), 'mbdae_stats has C''s size')
  end subroutine check_sizes

  subroutine check_errors()
    type(mbdae_problem) :: p
    integer :: st
    character(len=512) :: msg
    real(c_double) :: y(3), yp(10), res(10), j(3, 3)
    call mbdae_problem_create(p, 'nosuchproblem', st, msg)
    call expect(st == mbdae_err_spec .and. index(msg, 'caraxis') > 0, &
                'unknown id: status and a message naming the choices: '//trim(msg))
    call expect(.not. c_associated(p%ptr), 'failed create leaves the problem null')
    call mbdae_problem_create(p, 'caraxis:form=bogus', st, msg)
    call expect(st == mbdae_err_spec .and. len_trim(msg) > 0, 'bad form: '//trim(msg))
    call mbdae_problem_res(p, 0d0, y, yp, res, st, msg)
    call expect(st == mbdae_err_arg .and. index(msg, 'not created') > 0, 'no problem: '//trim(msg))
    call expect(mbdae_problem_neq(p) == 0, 'neq of no problem is 0')
    call mbdae_problem_create(p, 'caraxis', st, msg)
    call mbdae_problem_res(p, 0d0, y, yp, res, st, msg)
    call expect(st == mbdae_err_arg .and. index(msg, 'y has 3 entries') > 0, &
                'short y: '//trim(msg))
    call mbdae_problem_jac(p, 0d0, yp, yp, st, msg, dfdy=j)
    call expect(st == mbdae_err_arg .and. index(msg, '3 x 3') > 0, 'small dfdy: '//trim(msg))
    call mbdae_problem_destroy(p)
    call mbdae_problem_destroy(p)
  end subroutine check_errors

  ! mebdf on the pendulum chain from Fortran, h0 = rtol as the command runs it: y, the steps
  ! and scd equal mbdae_solve's from C.
  subroutine check_solve()
    type(mbdae_problem) :: p
    type(mbdae_options) :: opt
    type(mbdae_result) :: r
    integer :: st
    character(len=512) :: msg
    real(c_double), allocatable :: y(:), yp(:), yref(:), cy(:)
    real(c_double) :: scd, cscd
    integer(c_long) :: csteps
    call mbdae_problem_create(p, 'chain', st, msg)
    allocate (y(mbdae_problem_neq(p)), yp(mbdae_problem_neq(p)), yref(mbdae_problem_neq(p)))
    allocate (cy(mbdae_problem_neq(p)))
    opt%rtol = 1d-6
    opt%atol = 1d-6
    opt%h0 = 1d-6
    call mbdae_solve(p, 'mebdf', opt, y, yp, r, st, msg)
    call expect(st == 0 .and. r%stats%steps > 0 .and. r%stats%njac > 0, 'mebdf on chain: '//msg)
    call mbdae_problem_ref(p, yref, st)
    scd = mbdae_scd(p, y, yref)
    st = c_side_solve('chain'//c_null_char, 'mebdf'//c_null_char, 1d-6, 1d-6, cy, csteps, cscd)
    call expect(st == 0 .and. same(y, cy) .and. csteps == r%stats%steps .and. &
                same([scd], [cscd]), 'mebdf on chain: y, steps and scd as from C')
    print '(a,f6.2,a,i0,a)', 'mebdf chain rtol 1e-6: scd ', scd, ', ', r%stats%steps, ' steps'
    call mbdae_solve(p, 'nosuch', opt, y, yp, r, st, msg)
    call expect(st == mbdae_err_unknown_solver .and. index(msg, 'radau5') > 0, &
                'unknown solver: '//trim(msg))
    opt%rtol = -1
    call mbdae_solve(p, 'mebdf', opt, y, yp, r, st, msg)
    call expect(st == mbdae_err_arg .and. len_trim(msg) > 0, 'rtol < 0: '//trim(msg))
    call mbdae_problem_destroy(p)
  end subroutine check_solve

end program test_fortran_module
