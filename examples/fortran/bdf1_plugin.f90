! The Fortran solver bdf1 (bdf1.f90) as an mbdae solver: a mbdae_solver_type through the module
! mbdae (bdf1_solver_type, for mbdae_solve_with from a Fortran program), and a plug-in of the
! mbdae command (mbdae_plugin_solvers, for --plugin ./libbdf1_plugin.so --solver fbdf1) with the
! counters, records and diagrams of any C solver.
!
! integrate is the C solver interface (mbdae/solve.h): it reads the problem through the module,
! honours rtol, atol, hmax, max_steps, calls on_step and on_accept after every accepted step (the
! harness measures the constraint drift through on_accept), and refuses output times and
! projection (MBDAE_ERR_UNSUPPORTED), as a plug-in that cannot honour them must.
module bdf1_plugin
  use, intrinsic :: iso_c_binding
  use mbdae
  use bdf1
  implicit none
  private
  public :: bdf1_solver_type, mbdae_plugin_solvers

  integer(c_int), parameter :: plugin_abi = 3 ! MBDAE_PLUGIN_ABI of mbdae/plugin.h
  character(kind=c_char, len=*), parameter :: solver_id = 'fbdf1'//c_null_char
  character(kind=c_char, len=*), parameter :: solver_title = &
    'implicit Euler (BDF1), fixed step, written in Fortran (examples/fortran)'//c_null_char

  ! The problem of one run, as bdf1 sees it.
  type, extends(bdf1_system) :: mbdae_system
    type(mbdae_problem) :: prob
    type(mbdae_options), pointer :: opt => null()
  contains
    procedure :: res => system_res
    procedure :: mat => system_mat
    procedure :: accepted => system_accepted
  end type mbdae_system

  abstract interface
    subroutine on_step_fn(ctx, t, h, order) bind(c)
      import :: c_ptr, c_double, c_int
      type(c_ptr), value :: ctx
      real(c_double), value :: t, h
      integer(c_int), value :: order
    end subroutine on_step_fn
    subroutine on_accept_fn(ctx, t, y, yp) bind(c)
      import :: c_ptr, c_double
      type(c_ptr), value :: ctx
      real(c_double), value :: t
      real(c_double), intent(in) :: y(*), yp(*)
    end subroutine on_accept_fn
  end interface

  ! The type and the plug-in's list, set on first use (the same values every time).
  character(kind=c_char, len=len(solver_id)), target, save :: id_text = solver_id
  character(kind=c_char, len=len(solver_title)), target, save :: title_text = solver_title
  type(mbdae_solver_type), target, save :: the_type
  type(c_ptr), target, save :: the_list(1)

contains

  subroutine system_res(self, t, y, yp, r, ierr)
    class(mbdae_system), intent(inout) :: self
    double precision, intent(in) :: t, y(:), yp(:)
    double precision, intent(out) :: r(:)
    integer, intent(out) :: ierr
    call mbdae_problem_res(self%prob, t, y, yp, r, ierr)
  end subroutine system_res

  subroutine system_mat(self, t, y, yp, c, a, ierr)
    class(mbdae_system), intent(inout) :: self
    double precision, intent(in) :: t, y(:), yp(:), c
    double precision, intent(out) :: a(:, :)
    integer, intent(out) :: ierr
    double precision :: dfdyp(size(y), size(y))
    call mbdae_problem_jac(self%prob, t, y, yp, ierr, dfdy=a, dfdyp=dfdyp)
    a = a + c * dfdyp
  end subroutine system_mat

  subroutine system_accepted(self, t, h, y, yp)
    class(mbdae_system), intent(inout) :: self
    double precision, intent(in) :: t, h, y(:), yp(:)
    procedure(on_step_fn), pointer :: on_step
    procedure(on_accept_fn), pointer :: on_accept
    if (c_associated(self%opt%on_step)) then
      call c_f_procpointer(self%opt%on_step, on_step)
      call on_step(self%opt%on_step_ctx, t, h, 1_c_int)
    end if
    if (c_associated(self%opt%on_accept)) then
      call c_f_procpointer(self%opt%on_accept, on_accept)
      call on_accept(self%opt%on_accept_ctx, t, y, yp)
    end if
  end subroutine system_accepted

  ! mbdae_solver_type's integrate.
  integer(c_int) function integrate(p, opt, y, yp, r) bind(c, name='fbdf1_integrate')
    type(c_ptr), value :: p, opt, y, yp, r
    type(mbdae_system) :: sys
    type(mbdae_result), pointer :: res
    real(c_double), pointer :: ya(:), ypa(:)
    integer, allocatable :: ind(:)
    type(bdf1_stats) :: st
    integer :: n, status
    double precision :: t_end, h
    sys%prob = mbdae_problem_wrap(p)
    call c_f_pointer(opt, sys%opt)
    call c_f_pointer(r, res)
    n = mbdae_problem_neq(sys%prob)
    call c_f_pointer(y, ya, [n])
    call c_f_pointer(yp, ypa, [n])
    res%t = mbdae_problem_t0(sys%prob)
    if (sys%opt%ntout > 0 .or. c_associated(sys%opt%project)) then
      res%status = mbdae_err_unsupported
      call mbdae_result_set_message(res, 'fbdf1: no output times and no projection')
      integrate = res%status
      return
    end if
    allocate (ind(n))
    call mbdae_problem_index(sys%prob, ind, status)
    call bdf1_integrate(sys, mbdae_problem_t0(sys%prob), mbdae_problem_tend(sys%prob), &
                        sys%opt%rtol, sys%opt%atol, sys%opt%hmax, int(sys%opt%max_steps), ind, &
                        ya, ypa, st, status, t_end, h)
    res%status = status
    res%t = t_end
    res%h = h
    res%stats%steps = st%steps
    res%stats%accepted = st%accepted
    res%stats%nres = st%nres
    res%stats%njac = st%njac
    res%stats%nlu = st%nlu
    res%stats%nconvfail = st%nconvfail
    if (status /= 0) call mbdae_result_set_message(res, 'fbdf1: '//mbdae_strerror(status))
    integrate = res%status
  end function integrate

  ! The solver's type (its strings and function live as long as the program).
  function bdf1_solver_type() result(tp)
    type(mbdae_solver_type), pointer :: tp
    the_type%size = c_sizeof(the_type)
    the_type%id = c_loc(id_text)
    the_type%title = c_loc(title_text)
    the_type%integrate = c_funloc(integrate)
    tp => the_type
  end function bdf1_solver_type

  ! What the mbdae command asks a plug-in (mbdae/plugin.h).
  integer(c_int) function mbdae_plugin_solvers(abi, list) bind(c, name='mbdae_plugin_solvers')
    integer(c_int), value :: abi
    type(c_ptr), intent(out) :: list
    type(mbdae_solver_type), pointer :: tp
    list = c_null_ptr
    mbdae_plugin_solvers = -1
    if (abi /= plugin_abi) return
    tp => bdf1_solver_type()
    the_list(1) = c_loc(tp)
    list = c_loc(the_list)
    mbdae_plugin_solvers = 1
  end function mbdae_plugin_solvers

end module bdf1_plugin
