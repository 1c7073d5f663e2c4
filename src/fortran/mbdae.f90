! mbdae: the Fortran 2003 module over mbdae's public C API (include/mbdae/*.h), through
! ISO_C_BINDING; nothing else of the library is used.
!
! A problem is created from its spec (character(*), "id" or "id:key=value,..."), then asked for
! its size, interval, names, index per variable, consistent start, residual F(t, y, y'),
! Jacobians (dense neq x neq, or the pattern and its values for large problems), hidden
! constraints and reference; scd and mescd measure a solution; mbdae_solve runs a built-in solver,
! mbdae_solve_with a solver type (one written in Fortran too: see mbdae_solver_type and
! examples/fortran/).
!
! Errors: every routine that can fail has an integer status (0 success, the library's negative
! codes: mbdae_err_arg, mbdae_err_spec, ...) and an optional message; none stops.  Arrays are
! checked against neq before the library sees them (status mbdae_err_arg, with the sizes in the
! message).  Matrices are column-major neq x neq, as Fortran stores them.  Indices in Fortran
! are 1-based (component names, the Jacobian pattern's colptr and rowind).
module mbdae
  use, intrinsic :: iso_c_binding
  implicit none
  private

  integer, parameter, public :: mbdae_ok = 0, mbdae_recoverable = 1
  integer, parameter, public :: mbdae_err_arg = -1, mbdae_err_spec = -2, mbdae_err_noref = -3
  integer, parameter, public :: mbdae_err_nomem = -4, mbdae_err_singular = -5
  integer, parameter, public :: mbdae_err_internal = -6, mbdae_err_max_steps = -7
  integer, parameter, public :: mbdae_err_step_too_small = -8, mbdae_err_conv = -9
  integer, parameter, public :: mbdae_err_errtest = -10, mbdae_err_res = -11
  integer, parameter, public :: mbdae_err_solver = -12, mbdae_err_unsupported = -13
  integer, parameter, public :: mbdae_err_unknown_solver = -14
  integer, parameter, public :: mbdae_jac_auto = 0, mbdae_jac_dense = 1, mbdae_jac_band = 2
  integer, parameter, public :: mbdae_jac_sparse = 3, mbdae_jac_condensed = 4

  ! A problem instance: ptr is the C mbdae_problem (null until created).
  type, public :: mbdae_problem
    type(c_ptr) :: ptr = c_null_ptr
  end type mbdae_problem

  ! mbdae_stats, mbdae_result, mbdae_options and mbdae_solver_type of solve.h, field for field.
  type, bind(c), public :: mbdae_stats
    integer(c_long) :: steps = 0, accepted = 0, nres = 0, nres_fd = 0, njac = 0, nlu = 0
    integer(c_long) :: nerrfail = 0, nconvfail = 0
    integer(c_long) :: reserved(8) = 0
  end type mbdae_stats

  type, bind(c), public :: mbdae_result
    integer(c_int) :: status = 0
    real(c_double) :: t = 0, h = 0
    character(kind=c_char) :: message(320) = c_null_char
    type(mbdae_stats) :: stats
    real(c_double) :: cpu_seconds = 0, cpu_min = 0, cpu_max = 0
    integer(c_int) :: repeats = 0
    real(c_double) :: drift_pos_max = 0, drift_vel_max = 0, drift_pos_end = 0, drift_vel_end = 0
    integer(c_long) :: drift_steps = 0
    real(c_double) :: reserved(8) = 0
  end type mbdae_result

  ! The options of a run; size is set by mbdae_solve (the size of this type, which is the C
  ! struct of the header the module was written against).
  type, bind(c), public :: mbdae_options
    integer(c_size_t) :: size = 0
    real(c_double) :: rtol = 1d-6, atol = 1d-6, h0 = 0, hmax = 0
    integer(c_long) :: max_steps = 0
    type(c_ptr) :: tout = c_null_ptr
    integer(c_int) :: ntout = 0
    type(c_ptr) :: yout = c_null_ptr
    type(c_funptr) :: on_step = c_null_funptr
    type(c_ptr) :: on_step_ctx = c_null_ptr
    type(c_funptr) :: on_accept = c_null_funptr
    type(c_ptr) :: on_accept_ctx = c_null_ptr
    type(c_funptr) :: project = c_null_funptr
    type(c_ptr) :: project_ctx = c_null_ptr
    integer(c_int) :: linsys = 0
    type(c_funptr) :: stop = c_null_funptr
    type(c_ptr) :: stop_ctx = c_null_ptr
  end type mbdae_options

  ! A solver: id, title (and runs_on) point at NUL-terminated strings that outlive it;
  ! integrate is a bind(c) function (see examples/fortran/bdf1.f90):
  !   integer(c_int) function integrate(p, opt, y, yp, r) bind(c)
  !     type(c_ptr), value :: p, opt, y, yp, r
  type, bind(c), public :: mbdae_solver_type
    integer(c_size_t) :: size = 0
    type(c_ptr) :: id = c_null_ptr, title = c_null_ptr
    type(c_funptr) :: integrate = c_null_funptr
    type(c_ptr) :: runs_on = c_null_ptr
    type(c_ptr) :: caps = c_null_ptr  ! its mbdae_solver_caps (C's solve.h), or none: the defaults
  end type mbdae_solver_type

  public :: mbdae_version, mbdae_strerror, mbdae_problem_count, mbdae_problem_id
  public :: mbdae_problem_create, mbdae_problem_destroy, mbdae_problem_wrap
  public :: mbdae_problem_neq, mbdae_problem_t0, mbdae_problem_tend, mbdae_problem_name
  public :: mbdae_problem_title, mbdae_problem_spec, mbdae_problem_component
  public :: mbdae_problem_index, mbdae_problem_in_scd, mbdae_problem_init, mbdae_problem_res
  public :: mbdae_problem_jac, mbdae_problem_jac_pattern, mbdae_problem_jac_values
  public :: mbdae_problem_nconstraints, mbdae_problem_constraints
  public :: mbdae_problem_ref, mbdae_problem_ref_source, mbdae_scd, mbdae_mescd
  public :: mbdae_solver_count, mbdae_solver_id, mbdae_solve, mbdae_solve_with
  public :: mbdae_result_message, mbdae_result_set_message, mbdae_solver_type_invalid

  interface
    integer(c_size_t) function c_strlen(s) bind(c, name="strlen")
      import :: c_size_t, c_ptr
      type(c_ptr), value :: s
    end function c_strlen
    type(c_ptr) function c_version() bind(c, name="mbdae_version")
      import :: c_ptr
    end function c_version
    type(c_ptr) function c_strerror(code) bind(c, name="mbdae_strerror")
      import :: c_ptr, c_int
      integer(c_int), value :: code
    end function c_strerror
    integer(c_int) function c_problem_count() bind(c, name="mbdae_problem_count")
      import :: c_int
    end function c_problem_count
    type(c_ptr) function c_problem_id(i) bind(c, name="mbdae_problem_id")
      import :: c_ptr, c_int
      integer(c_int), value :: i
    end function c_problem_id
    integer(c_int) function c_problem_create(spec, out, msg, msglen) &
        bind(c, name="mbdae_problem_create")
      import :: c_int, c_char, c_ptr, c_size_t
      character(kind=c_char), intent(in) :: spec(*)
      type(c_ptr), intent(out) :: out
      character(kind=c_char), intent(out) :: msg(*)
      integer(c_size_t), value :: msglen
    end function c_problem_create
    subroutine c_problem_destroy(p) bind(c, name="mbdae_problem_destroy")
      import :: c_ptr
      type(c_ptr), value :: p
    end subroutine c_problem_destroy
    type(c_ptr) function c_problem_str(p) bind(c)
      import :: c_ptr
      type(c_ptr), value :: p
    end function c_problem_str
    integer(c_int) function c_problem_neq(p) bind(c, name="mbdae_problem_neq")
      import :: c_int, c_ptr
      type(c_ptr), value :: p
    end function c_problem_neq
    real(c_double) function c_problem_time(p) bind(c)
      import :: c_double, c_ptr
      type(c_ptr), value :: p
    end function c_problem_time
    type(c_ptr) function c_problem_component(p, i) bind(c, name="mbdae_problem_component")
      import :: c_ptr, c_int
      type(c_ptr), value :: p
      integer(c_int), value :: i
    end function c_problem_component
    type(c_ptr) function c_problem_index(p) bind(c, name="mbdae_problem_index")
      import :: c_ptr
      type(c_ptr), value :: p
    end function c_problem_index
    integer(c_int) function c_problem_in_scd(p, i) bind(c, name="mbdae_problem_in_scd")
      import :: c_ptr, c_int
      type(c_ptr), value :: p
      integer(c_int), value :: i
    end function c_problem_in_scd
    integer(c_int) function c_problem_init(p, y0, yp0) bind(c, name="mbdae_problem_init")
      import :: c_ptr, c_int, c_double
      type(c_ptr), value :: p
      real(c_double), intent(out) :: y0(*), yp0(*)
    end function c_problem_init
    integer(c_int) function c_problem_res(p, t, y, yp, res) bind(c, name="mbdae_problem_res")
      import :: c_ptr, c_int, c_double
      type(c_ptr), value :: p
      real(c_double), value :: t
      real(c_double), intent(in) :: y(*), yp(*)
      real(c_double), intent(out) :: res(*)
    end function c_problem_res
    integer(c_int) function c_problem_jac(p, t, y, yp, dfdy, dfdyp) &
        bind(c, name="mbdae_problem_jac")
      import :: c_ptr, c_int, c_double
      type(c_ptr), value :: p, dfdy, dfdyp
      real(c_double), value :: t
      real(c_double), intent(in) :: y(*), yp(*)
    end function c_problem_jac
    integer(c_int) function c_problem_jac_values(p, t, y, yp, dfdy, dfdyp) &
        bind(c, name="mbdae_problem_jac_values")
      import :: c_ptr, c_int, c_double
      type(c_ptr), value :: p, dfdy, dfdyp
      real(c_double), value :: t
      real(c_double), intent(in) :: y(*), yp(*)
    end function c_problem_jac_values
    integer(c_int) function c_problem_nconstraints(p) bind(c, name="mbdae_problem_nconstraints")
      import :: c_ptr, c_int
      type(c_ptr), value :: p
    end function c_problem_nconstraints
    integer(c_int) function c_problem_constraints(p, t, y, yp, gpos, gvel, gacc) &
        bind(c, name="mbdae_problem_constraints")
      import :: c_ptr, c_int, c_double
      type(c_ptr), value :: p, gpos, gvel, gacc
      real(c_double), value :: t
      real(c_double), intent(in) :: y(*), yp(*)
    end function c_problem_constraints
    integer(c_int) function c_problem_ref(p, yref) bind(c, name="mbdae_problem_ref")
      import :: c_ptr, c_int, c_double
      type(c_ptr), value :: p
      real(c_double), intent(out) :: yref(*)
    end function c_problem_ref
    real(c_double) function c_scd(p, y, yref) bind(c, name="mbdae_scd")
      import :: c_ptr, c_double
      type(c_ptr), value :: p
      real(c_double), intent(in) :: y(*), yref(*)
    end function c_scd
    real(c_double) function c_mescd(p, y, yref, rtol, atol) bind(c, name="mbdae_mescd")
      import :: c_ptr, c_double
      type(c_ptr), value :: p
      real(c_double), intent(in) :: y(*), yref(*)
      real(c_double), value :: rtol, atol
    end function c_mescd
    integer(c_int) function c_solver_count() bind(c, name="mbdae_solver_count")
      import :: c_int
    end function c_solver_count
    type(c_ptr) function c_solver_id(i) bind(c, name="mbdae_solver_id")
      import :: c_ptr, c_int
      integer(c_int), value :: i
    end function c_solver_id
    type(c_ptr) function c_solver_type_invalid(t) bind(c, name="mbdae_solver_type_invalid")
      import :: c_ptr
      type(c_ptr), value :: t
    end function c_solver_type_invalid
    integer(c_int) function c_solve(p, solver, opt, repeats, y, yp, r) bind(c, name="mbdae_solve")
      import :: c_ptr, c_int, c_char, c_double, mbdae_options, mbdae_result
      type(c_ptr), value :: p
      character(kind=c_char), intent(in) :: solver(*)
      type(mbdae_options), intent(in) :: opt
      integer(c_int), value :: repeats
      real(c_double), intent(inout) :: y(*), yp(*)
      type(mbdae_result), intent(out) :: r
    end function c_solve
    integer(c_int) function c_solve_with(p, solver, opt, repeats, y, yp, r) &
        bind(c, name="mbdae_solve_with")
      import :: c_ptr, c_int, c_double, mbdae_options, mbdae_result
      type(c_ptr), value :: p, solver
      type(mbdae_options), intent(in) :: opt
      integer(c_int), value :: repeats
      real(c_double), intent(inout) :: y(*), yp(*)
      type(mbdae_result), intent(out) :: r
    end function c_solve_with
  end interface

  ! The problem's pattern (mbdae_jac_pattern of problem.h).
  type, bind(c) :: c_jac_pattern
    integer(c_int) :: kind, neq, ml, mu
    integer(c_size_t) :: nnz
    type(c_ptr) :: colptr, rowind
  end type c_jac_pattern
  interface
    subroutine c_problem_jac_pattern(p, pat) bind(c, name="mbdae_problem_jac_pattern")
      import :: c_ptr, c_jac_pattern
      type(c_ptr), value :: p
      type(c_jac_pattern), intent(out) :: pat
    end subroutine c_problem_jac_pattern
  end interface

contains

  ! ---- strings -----------------------------------------------------------------------------

  ! A Fortran copy of a NUL-terminated C string ("" for a null pointer).
  function f_string(cp) result(s)
    type(c_ptr), intent(in) :: cp
    character(:), allocatable :: s
    character(kind=c_char), pointer :: a(:)
    integer :: n, i
    if (.not. c_associated(cp)) then
      s = ''
      return
    end if
    n = int(c_strlen(cp))
    call c_f_pointer(cp, a, [n])
    allocate (character(n) :: s)
    do i = 1, n
      s(i:i) = a(i)
    end do
  end function f_string

  ! The characters of a C buffer up to its NUL.
  function f_buffer(a) result(s)
    character(kind=c_char), intent(in) :: a(:)
    character(:), allocatable :: s
    integer :: n, i
    n = 0
    do while (n < size(a))
      if (a(n + 1) == c_null_char) exit
      n = n + 1
    end do
    allocate (character(n) :: s)
    do i = 1, n
      s(i:i) = a(i)
    end do
  end function f_buffer

  subroutine set_msg(msg, text)
    character(*), intent(out), optional :: msg
    character(*), intent(in) :: text
    if (present(msg)) msg = text
  end subroutine set_msg

  function itoa(i) result(s)
    integer, intent(in) :: i
    character(:), allocatable :: s
    character(24) :: buf
    write (buf, '(i0)') i
    s = trim(buf)
  end function itoa

  ! status and message for a call on a problem not created, or arrays shorter than neq.
  logical function bad_args(prob, sizes, names, status, msg)
    type(mbdae_problem), intent(in) :: prob
    integer, intent(in) :: sizes(:)
    character(*), intent(in) :: names
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    integer :: i, n
    bad_args = .true.
    status = mbdae_err_arg
    if (.not. c_associated(prob%ptr)) then
      call set_msg(msg, 'mbdae: the problem was not created (mbdae_problem_create)')
      return
    end if
    n = c_problem_neq(prob%ptr)
    do i = 1, size(sizes)
      if (sizes(i) < n) then
        call set_msg(msg, 'mbdae: '//word(names, i)//' has '//itoa(sizes(i))// &
                     ' entries, the problem has neq = '//itoa(n))
        return
      end if
    end do
    bad_args = .false.
    status = mbdae_ok
    call set_msg(msg, '')
  end function bad_args

  ! The i-th blank-separated word of s.
  function word(s, i) result(w)
    character(*), intent(in) :: s
    integer, intent(in) :: i
    character(:), allocatable :: w
    integer :: k, b, e
    e = 0
    do k = 1, i
      b = e + 1
      e = index(s(b:)//' ', ' ') + b - 2
    end do
    w = s(b:e)
  end function word

  subroutine code_msg(status, msg)
    integer, intent(in) :: status
    character(*), intent(out), optional :: msg
    if (status == 0) then
      call set_msg(msg, '')
    else
      call set_msg(msg, 'mbdae: '//mbdae_strerror(status))
    end if
  end subroutine code_msg

  ! ---- library, problems -------------------------------------------------------------------

  function mbdae_version() result(s)
    character(:), allocatable :: s
    s = f_string(c_version())
  end function mbdae_version

  function mbdae_strerror(code) result(s)
    integer, intent(in) :: code
    character(:), allocatable :: s
    s = f_string(c_strerror(int(code, c_int)))
  end function mbdae_strerror

  integer function mbdae_problem_count()
    mbdae_problem_count = c_problem_count()
  end function mbdae_problem_count

  ! The id of the i-th built-in problem, i = 1..mbdae_problem_count() ("" outside).
  function mbdae_problem_id(i) result(s)
    integer, intent(in) :: i
    character(:), allocatable :: s
    s = f_string(c_problem_id(int(i - 1, c_int)))
  end function mbdae_problem_id

  ! A problem from its spec; on failure prob stays null and msg names the valid choices.
  subroutine mbdae_problem_create(prob, spec, status, msg)
    type(mbdae_problem), intent(inout) :: prob
    character(*), intent(in) :: spec
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    character(kind=c_char) :: buf(512)
    call mbdae_problem_destroy(prob)
    buf = c_null_char
    status = c_problem_create(trim(spec)//c_null_char, prob%ptr, buf, int(size(buf), c_size_t))
    if (status /= 0) prob%ptr = c_null_ptr
    call set_msg(msg, f_buffer(buf))
  end subroutine mbdae_problem_create

  subroutine mbdae_problem_destroy(prob)
    type(mbdae_problem), intent(inout) :: prob
    if (c_associated(prob%ptr)) call c_problem_destroy(prob%ptr)
    prob%ptr = c_null_ptr
  end subroutine mbdae_problem_destroy

  ! A problem the library passes (a solver's integrate receives one): not to be destroyed.
  function mbdae_problem_wrap(p) result(prob)
    type(c_ptr), intent(in) :: p
    type(mbdae_problem) :: prob
    prob%ptr = p
  end function mbdae_problem_wrap

  ! neq, 0 for a problem not created.
  integer function mbdae_problem_neq(prob)
    type(mbdae_problem), intent(in) :: prob
    mbdae_problem_neq = 0
    if (c_associated(prob%ptr)) mbdae_problem_neq = c_problem_neq(prob%ptr)
  end function mbdae_problem_neq

  real(c_double) function mbdae_problem_t0(prob)
    type(mbdae_problem), intent(in) :: prob
    mbdae_problem_t0 = problem_time(prob, 0)
  end function mbdae_problem_t0

  real(c_double) function mbdae_problem_tend(prob)
    type(mbdae_problem), intent(in) :: prob
    mbdae_problem_tend = problem_time(prob, 1)
  end function mbdae_problem_tend

  ! t0 (which 0) or tend (1); NaN for a problem not created.
  real(c_double) function problem_time(prob, which)
    use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
    type(mbdae_problem), intent(in) :: prob
    integer, intent(in) :: which
    procedure(c_problem_time), bind(c, name="mbdae_problem_t0") :: c_t0
    procedure(c_problem_time), bind(c, name="mbdae_problem_tend") :: c_tend
    problem_time = ieee_value(problem_time, ieee_quiet_nan)
    if (.not. c_associated(prob%ptr)) return
    if (which == 0) then
      problem_time = c_t0(prob%ptr)
    else
      problem_time = c_tend(prob%ptr)
    end if
  end function problem_time

  ! The id ("caraxis"); "" for a problem not created.
  function mbdae_problem_name(prob) result(s)
    type(mbdae_problem), intent(in) :: prob
    character(:), allocatable :: s
    procedure(c_problem_str), bind(c, name="mbdae_problem_name") :: c_name
    s = ''
    if (c_associated(prob%ptr)) s = f_string(c_name(prob%ptr))
  end function mbdae_problem_name

  function mbdae_problem_title(prob) result(s)
    type(mbdae_problem), intent(in) :: prob
    character(:), allocatable :: s
    procedure(c_problem_str), bind(c, name="mbdae_problem_title") :: c_title
    s = ''
    if (c_associated(prob%ptr)) s = f_string(c_title(prob%ptr))
  end function mbdae_problem_title

  ! The canonical spec, every key spelled out.
  function mbdae_problem_spec(prob) result(s)
    type(mbdae_problem), intent(in) :: prob
    character(:), allocatable :: s
    procedure(c_problem_str), bind(c, name="mbdae_problem_spec") :: c_spec
    s = ''
    if (c_associated(prob%ptr)) s = f_string(c_spec(prob%ptr))
  end function mbdae_problem_spec

  function mbdae_problem_ref_source(prob) result(s)
    type(mbdae_problem), intent(in) :: prob
    character(:), allocatable :: s
    procedure(c_problem_str), bind(c, name="mbdae_problem_ref_source") :: c_source
    s = ''
    if (c_associated(prob%ptr)) s = f_string(c_source(prob%ptr))
  end function mbdae_problem_ref_source

  ! The name of component i = 1..neq ("" outside).
  function mbdae_problem_component(prob, i) result(s)
    type(mbdae_problem), intent(in) :: prob
    integer, intent(in) :: i
    character(:), allocatable :: s
    s = ''
    if (c_associated(prob%ptr)) s = f_string(c_problem_component(prob%ptr, int(i - 1, c_int)))
  end function mbdae_problem_component

  ! The differentiation index of each variable (0..3).
  subroutine mbdae_problem_index(prob, ind, status, msg)
    type(mbdae_problem), intent(in) :: prob
    integer, intent(out) :: ind(:)
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    integer(c_int), pointer :: a(:)
    integer :: n
    if (bad_args(prob, [size(ind)], 'ind', status, msg)) return
    n = c_problem_neq(prob%ptr)
    call c_f_pointer(c_problem_index(prob%ptr), a, [n])
    ind(1:n) = a
  end subroutine mbdae_problem_index

  ! .true. when component i (1..neq) enters scd.
  logical function mbdae_problem_in_scd(prob, i)
    type(mbdae_problem), intent(in) :: prob
    integer, intent(in) :: i
    mbdae_problem_in_scd = .false.
    if (c_associated(prob%ptr)) then
      mbdae_problem_in_scd = c_problem_in_scd(prob%ptr, int(i - 1, c_int)) /= 0
    end if
  end function mbdae_problem_in_scd

  ! The consistent initial values y0, y'0 at t0.
  subroutine mbdae_problem_init(prob, y0, yp0, status, msg)
    type(mbdae_problem), intent(in) :: prob
    real(c_double), intent(out) :: y0(:), yp0(:)
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    if (bad_args(prob, [size(y0), size(yp0)], 'y0 yp0', status, msg)) return
    status = c_problem_init(prob%ptr, y0, yp0)
    call code_msg(status, msg)
  end subroutine mbdae_problem_init

  ! res = F(t, y, y'); a positive status: not evaluable here (retry with a smaller step).
  subroutine mbdae_problem_res(prob, t, y, yp, res, status, msg)
    type(mbdae_problem), intent(in) :: prob
    real(c_double), intent(in) :: t, y(:), yp(:)
    real(c_double), intent(out) :: res(:)
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    if (bad_args(prob, [size(y), size(yp), size(res)], 'y yp res', status, msg)) return
    status = c_problem_res(prob%ptr, t, y, yp, res)
    call code_msg(status, msg)
  end subroutine mbdae_problem_res

  ! dfdy = dF/dy, dfdyp = dF/dy' (dense neq x neq; either may be left out).
  subroutine mbdae_problem_jac(prob, t, y, yp, status, msg, dfdy, dfdyp)
    type(mbdae_problem), intent(in) :: prob
    real(c_double), intent(in) :: t, y(:), yp(:)
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    real(c_double), intent(out), optional, target, contiguous :: dfdy(:, :), dfdyp(:, :)
    type(c_ptr) :: a, b
    integer :: n
    if (bad_args(prob, [size(y), size(yp)], 'y yp', status, msg)) return
    n = c_problem_neq(prob%ptr)
    a = c_null_ptr
    b = c_null_ptr
    if (present(dfdy)) then
      if (bad_matrix(dfdy, n, 'dfdy', status, msg)) return
      a = c_loc(dfdy)
    end if
    if (present(dfdyp)) then
      if (bad_matrix(dfdyp, n, 'dfdyp', status, msg)) return
      b = c_loc(dfdyp)
    end if
    status = c_problem_jac(prob%ptr, t, y, yp, a, b)
    call code_msg(status, msg)
  end subroutine mbdae_problem_jac

  logical function bad_matrix(a, n, name, status, msg)
    real(c_double), intent(in) :: a(:, :)
    integer, intent(in) :: n
    character(*), intent(in) :: name
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    bad_matrix = size(a, 1) /= n .or. size(a, 2) /= n
    status = mbdae_ok
    if (bad_matrix) then
      status = mbdae_err_arg
      call set_msg(msg, 'mbdae: '//name//' is '//itoa(size(a, 1))//' x '//itoa(size(a, 2))// &
                   ', the problem has neq = '//itoa(n))
    end if
  end function bad_matrix

  ! The Jacobian's pattern: kind (mbdae_jac_dense, _band, _sparse), bandwidths, nnz, and for a
  ! band or sparse pattern colptr (neq + 1) and rowind (nnz), 1-based: column j holds rows
  ! rowind(colptr(j) : colptr(j + 1) - 1).  A dense pattern leaves them unallocated.
  subroutine mbdae_problem_jac_pattern(prob, kind, ml, mu, nnz, colptr, rowind, status, msg)
    type(mbdae_problem), intent(in) :: prob
    integer, intent(out) :: kind, ml, mu, nnz
    integer, allocatable, intent(out) :: colptr(:), rowind(:)
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    type(c_jac_pattern) :: pat
    integer(c_int), pointer :: a(:)
    kind = 0; ml = 0; mu = 0; nnz = 0
    if (bad_args(prob, [integer ::], '', status, msg)) return
    call c_problem_jac_pattern(prob%ptr, pat)
    kind = pat%kind; ml = pat%ml; mu = pat%mu; nnz = int(pat%nnz)
    if (.not. c_associated(pat%colptr)) return
    call c_f_pointer(pat%colptr, a, [pat%neq + 1])
    colptr = a + 1
    call c_f_pointer(pat%rowind, a, [nnz])
    rowind = a + 1
  end subroutine mbdae_problem_jac_pattern

  ! dF/dy and dF/dy' at the pattern's entries, in its order (nnz values each; either optional).
  subroutine mbdae_problem_jac_values(prob, t, y, yp, status, msg, dfdy, dfdyp)
    type(mbdae_problem), intent(in) :: prob
    real(c_double), intent(in) :: t, y(:), yp(:)
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    real(c_double), intent(out), optional, target, contiguous :: dfdy(:), dfdyp(:)
    type(c_jac_pattern) :: pat
    type(c_ptr) :: a, b
    if (bad_args(prob, [size(y), size(yp)], 'y yp', status, msg)) return
    call c_problem_jac_pattern(prob%ptr, pat)
    a = c_null_ptr
    b = c_null_ptr
    if (present(dfdy)) then
      if (bad_length(size(dfdy), int(pat%nnz), 'dfdy', status, msg)) return
      a = c_loc(dfdy)
    end if
    if (present(dfdyp)) then
      if (bad_length(size(dfdyp), int(pat%nnz), 'dfdyp', status, msg)) return
      b = c_loc(dfdyp)
    end if
    status = c_problem_jac_values(prob%ptr, t, y, yp, a, b)
    call code_msg(status, msg)
  end subroutine mbdae_problem_jac_values

  logical function bad_length(have, need, name, status, msg)
    integer, intent(in) :: have, need
    character(*), intent(in) :: name
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    bad_length = have < need
    status = mbdae_ok
    if (bad_length) then
      status = mbdae_err_arg
      call set_msg(msg, 'mbdae: '//name//' has '//itoa(have)//' entries, '//itoa(need)//' needed')
    end if
  end function bad_length

  integer function mbdae_problem_nconstraints(prob)
    type(mbdae_problem), intent(in) :: prob
    mbdae_problem_nconstraints = 0
    if (c_associated(prob%ptr)) mbdae_problem_nconstraints = c_problem_nconstraints(prob%ptr)
  end function mbdae_problem_nconstraints

  ! The hidden constraints at position, velocity and acceleration level (nconstraints each;
  ! any may be left out).
  subroutine mbdae_problem_constraints(prob, t, y, yp, status, msg, gpos, gvel, gacc)
    type(mbdae_problem), intent(in) :: prob
    real(c_double), intent(in) :: t, y(:), yp(:)
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    real(c_double), intent(out), optional, target, contiguous :: gpos(:), gvel(:), gacc(:)
    type(c_ptr) :: a(3)
    integer :: nc
    if (bad_args(prob, [size(y), size(yp)], 'y yp', status, msg)) return
    nc = c_problem_nconstraints(prob%ptr)
    a = c_null_ptr
    if (present(gpos)) then
      if (bad_length(size(gpos), nc, 'gpos', status, msg)) return
      a(1) = c_loc(gpos)
    end if
    if (present(gvel)) then
      if (bad_length(size(gvel), nc, 'gvel', status, msg)) return
      a(2) = c_loc(gvel)
    end if
    if (present(gacc)) then
      if (bad_length(size(gacc), nc, 'gacc', status, msg)) return
      a(3) = c_loc(gacc)
    end if
    status = c_problem_constraints(prob%ptr, t, y, yp, a(1), a(2), a(3))
    call code_msg(status, msg)
  end subroutine mbdae_problem_constraints

  ! The reference solution at tend (status mbdae_err_noref where there is none).
  subroutine mbdae_problem_ref(prob, yref, status, msg)
    type(mbdae_problem), intent(in) :: prob
    real(c_double), intent(out) :: yref(:)
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    if (bad_args(prob, [size(yref)], 'yref', status, msg)) return
    status = c_problem_ref(prob%ptr, yref)
    call code_msg(status, msg)
  end subroutine mbdae_problem_ref

  ! scd of y against yref (NaN when prob is not created or the sizes are short).
  real(c_double) function mbdae_scd(prob, y, yref)
    use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
    type(mbdae_problem), intent(in) :: prob
    real(c_double), intent(in) :: y(:), yref(:)
    integer :: status
    mbdae_scd = ieee_value(mbdae_scd, ieee_quiet_nan)
    if (bad_args(prob, [size(y), size(yref)], 'y yref', status)) return
    mbdae_scd = c_scd(prob%ptr, y, yref)
  end function mbdae_scd

  real(c_double) function mbdae_mescd(prob, y, yref, rtol, atol)
    use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
    type(mbdae_problem), intent(in) :: prob
    real(c_double), intent(in) :: y(:), yref(:), rtol, atol
    integer :: status
    mbdae_mescd = ieee_value(mbdae_mescd, ieee_quiet_nan)
    if (bad_args(prob, [size(y), size(yref)], 'y yref', status)) return
    mbdae_mescd = c_mescd(prob%ptr, y, yref, rtol, atol)
  end function mbdae_mescd

  ! ---- solvers ------------------------------------------------------------------------------

  integer function mbdae_solver_count()
    mbdae_solver_count = c_solver_count()
  end function mbdae_solver_count

  ! The id of the i-th built-in solver, i = 1..mbdae_solver_count() ("" outside).
  function mbdae_solver_id(i) result(s)
    integer, intent(in) :: i
    character(:), allocatable :: s
    s = f_string(c_solver_id(int(i - 1, c_int)))
  end function mbdae_solver_id

  ! "" when the type keeps the rules of mbdae_solver_type, else what is wrong.
  function mbdae_solver_type_invalid(solver) result(s)
    type(mbdae_solver_type), intent(in), target :: solver
    character(:), allocatable :: s
    s = f_string(c_solver_type_invalid(c_loc(solver)))
  end function mbdae_solver_type_invalid

  ! Integrate prob from its consistent start to tend with the built-in solver named solver:
  ! y (and yp) hold y(tend), y'(tend); result has the counters, the CPU time and the drift.
  ! status = result%status, or mbdae_err_arg for bad sizes (message in msg).
  subroutine mbdae_solve(prob, solver, opt, y, yp, result, status, msg, repeats)
    type(mbdae_problem), intent(in) :: prob
    character(*), intent(in) :: solver
    type(mbdae_options), intent(in) :: opt
    real(c_double), intent(out) :: y(:), yp(:)
    type(mbdae_result), intent(out) :: result
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    integer, intent(in), optional :: repeats
    type(mbdae_options) :: o
    if (bad_args(prob, [size(y), size(yp)], 'y yp', status, msg)) return
    o = opt
    o%size = c_sizeof(o)
    status = c_solve(prob%ptr, trim(solver)//c_null_char, o, nrep(repeats), y, yp, result)
    call set_msg(msg, mbdae_result_message(result))
  end subroutine mbdae_solve

  ! mbdae_solve with a solver type (a Fortran solver's, or one of a plug-in's).
  subroutine mbdae_solve_with(prob, solver, opt, y, yp, result, status, msg, repeats)
    type(mbdae_problem), intent(in) :: prob
    type(mbdae_solver_type), intent(in), target :: solver
    type(mbdae_options), intent(in) :: opt
    real(c_double), intent(out) :: y(:), yp(:)
    type(mbdae_result), intent(out) :: result
    integer, intent(out) :: status
    character(*), intent(out), optional :: msg
    integer, intent(in), optional :: repeats
    type(mbdae_options) :: o
    if (bad_args(prob, [size(y), size(yp)], 'y yp', status, msg)) return
    o = opt
    o%size = c_sizeof(o)
    status = c_solve_with(prob%ptr, c_loc(solver), o, nrep(repeats), y, yp, result)
    call set_msg(msg, mbdae_result_message(result))
  end subroutine mbdae_solve_with

  integer(c_int) function nrep(repeats)
    integer, intent(in), optional :: repeats
    nrep = 1
    if (present(repeats)) nrep = int(repeats, c_int)
  end function nrep

  function mbdae_result_message(r) result(s)
    type(mbdae_result), intent(in) :: r
    character(:), allocatable :: s
    s = f_buffer(r%message)
  end function mbdae_result_message

  ! Set a result's message (a solver's failure), cut to fit with its NUL.
  subroutine mbdae_result_set_message(r, text)
    type(mbdae_result), intent(inout) :: r
    character(*), intent(in) :: text
    integer :: i, n
    n = min(len(text), size(r%message) - 1)
    r%message = c_null_char
    do i = 1, n
      r%message(i) = text(i:i)
    end do
  end subroutine mbdae_result_set_message

end module mbdae
