! A solver written in Fortran as a mbdae_solver_type through the module (examples/fortran/bdf1.f90
! and bdf1_plugin.f90 compiled in): the library accepts the type, mbdae_solve_with runs it with the
! counters the plug-in reports through the command (caraxis:form=index2 at 1e-4: 1000 steps, 5288
! f, 1000 Jacobians and LU), measures the drift over every accepted state (on_accept), stops it at
! max_steps with MBDAE_ERR_MAX_STEPS, and reports its refusal of output times with its message.
program test_fortran_solver_type
  use, intrinsic :: iso_c_binding
  use mbdae
  use bdf1_plugin, only: bdf1_solver_type
  implicit none
  type(mbdae_solver_type), pointer :: tp
  type(mbdae_problem) :: p
  type(mbdae_options) :: opt
  type(mbdae_result) :: r
  real(c_double), allocatable :: y(:), yp(:)
  real(c_double), target :: tout(1), yout(10)
  character(len=512) :: msg
  integer :: st, failures = 0

  tp => bdf1_solver_type()
  call expect(mbdae_solver_type_invalid(tp) == '', 'the library accepts the type: ' // &
              mbdae_solver_type_invalid(tp))
  call mbdae_problem_create(p, 'caraxis:form=index2', st, msg)
  allocate (y(mbdae_problem_neq(p)), yp(mbdae_problem_neq(p)))
  opt%rtol = 1d-4
  opt%atol = 1d-4
  call mbdae_solve_with(p, tp, opt, y, yp, r, st, msg)
  call expect(st == 0 .and. r%stats%steps == 1000 .and. r%stats%accepted == 1000 .and. &
              r%stats%nres == 5288 .and. r%stats%njac == 1000 .and. r%stats%nlu == 1000, &
              'counters of fbdf1 on caraxis:form=index2 1e-4: '//trim(msg))
  call expect(r%drift_steps == 1000 .and. r%drift_pos_max > 0, 'drift over every accepted state')
  opt%max_steps = 5
  call mbdae_solve_with(p, tp, opt, y, yp, r, st, msg)
  call expect(st == mbdae_err_max_steps .and. r%stats%steps == 5 .and. index(msg, 'fbdf1') > 0, &
              'max_steps 5: '//trim(msg))
  opt%max_steps = 0
  tout = 1d0
  opt%tout = c_loc(tout)
  opt%ntout = 1
  opt%yout = c_loc(yout)
  call mbdae_solve_with(p, tp, opt, y, yp, r, st, msg)
  call expect(st == mbdae_err_unsupported .and. index(msg, 'output times') > 0, &
              'output times refused: '//trim(msg))
  call mbdae_problem_destroy(p)
  deallocate (y, yp) ! a main program's allocatables outlive it: LeakSanitizer counts them
  if (failures > 0) then
    print '(a,i0,a)', 'test_fortran_solver_type: ', failures, ' failures'
    error stop 1
  end if
  print '(a)', 'test_fortran_solver_type: ok'

contains

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      print '(2a)', 'FAIL: ', what
    end if
  end subroutine expect

end program test_fortran_solver_type
