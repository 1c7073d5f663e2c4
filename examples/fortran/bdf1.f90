! A short solver of our own, in Fortran: the implicit Euler method (BDF1) with a fixed step on
! F(t, y, y') = 0,
!
!   F(t_{n+1}, y_{n+1}, (y_{n+1} - y_n) / h) = 0,
!
! solved by Newton's method with the iteration matrix dF/dy + (1/h) dF/dy', formed and factored
! (LU with partial pivoting, below) once per step at the predictor y_n (Hairer & Wanner, Solving
! ODEs II, VI.1 and VII.3: it converges for index-1 problems and, on the positions, for the
! index-3 mechanical ones).  Newton stops when the update, in units of atol + rtol |y_i| times
! h^(k-1) for a variable of index k >= 2, is below 1e-2; at most 7 iterations.  The step is
! (tend - t0) / N, N = ceil(10 / sqrt(rtol)), no larger than hmax.  First order: an example of the
! interfaces, not a solver to compare with.
!
! The method knows nothing of where F comes from: the caller extends bdf1_system with F and the
! iteration matrix.  bdf1_plugin.f90 passes mbdae's problem (module mbdae) and makes the method a
! mbdae_solver_type and a plug-in of the mbdae command; bdf1_testset.f90 passes a test-set problem
! (prob, feval, jeval, meval: mbdae's through libmbdae_testset, or a test-set problem file).
module bdf1
  implicit none
  private
  public :: bdf1_stats, bdf1_system, bdf1_integrate

  type :: bdf1_stats
    integer :: steps = 0, accepted = 0, nres = 0, njac = 0, nlu = 0, nconvfail = 0
  end type bdf1_stats

  ! What the method integrates: an extension supplies F and the iteration matrix (and may
  ! watch the accepted steps); it carries its own data, so runs are independent of each other.
  type, abstract, public :: bdf1_system
  contains
    procedure(residual_fn), deferred :: res
    procedure(matrix_fn), deferred :: mat
    procedure :: accepted => no_watch
  end type bdf1_system

  abstract interface
    ! r = F(t, y, yp); ierr /= 0: not evaluable.
    subroutine residual_fn(self, t, y, yp, r, ierr)
      import :: bdf1_system
      class(bdf1_system), intent(inout) :: self
      double precision, intent(in) :: t, y(:), yp(:)
      double precision, intent(out) :: r(:)
      integer, intent(out) :: ierr
    end subroutine residual_fn
    ! a = dF/dy + c dF/dy' at (t, y, yp).
    subroutine matrix_fn(self, t, y, yp, c, a, ierr)
      import :: bdf1_system
      class(bdf1_system), intent(inout) :: self
      double precision, intent(in) :: t, y(:), yp(:), c
      double precision, intent(out) :: a(:, :)
      integer, intent(out) :: ierr
    end subroutine matrix_fn
  end interface

contains

  ! Integrate from (t0, y, yp) to tend; y, yp hold the end state.  status: 0, -5 (singular
  ! matrix), -9 (Newton failed), -11 (F not evaluable), -7 (more than max_steps steps).
  subroutine bdf1_integrate(sys, t0, tend, rtol, atol, hmax, max_steps, ind, y, yp, st, status, &
                            t_reached, h)
    class(bdf1_system), intent(inout) :: sys
    double precision, intent(in) :: t0, tend, rtol, atol, hmax
    integer, intent(in) :: max_steps, ind(:)
    double precision, intent(inout) :: y(:), yp(:)
    type(bdf1_stats), intent(out) :: st
    integer, intent(out) :: status
    double precision, intent(out) :: t_reached, h
    double precision :: t
    integer :: nsteps, k
    nsteps = ceiling(10d0 / sqrt(rtol))
    h = (tend - t0) / nsteps
    if (hmax > 0 .and. h > hmax) then
      nsteps = ceiling((tend - t0) / hmax)
      h = (tend - t0) / nsteps
    end if
    status = 0
    t = t0
    do k = 1, nsteps
      if (max_steps > 0 .and. k > max_steps) then
        status = -7
        exit
      end if
      st%steps = st%steps + 1
      call newton_step(sys, t, h, rtol, atol, ind, y, yp, st, status)
      if (status /= 0) exit
      st%accepted = st%accepted + 1
      t = t0 + k * h
      if (k == nsteps) t = tend
      call sys%accepted(t, h, y, yp)
    end do
    t_reached = t
  end subroutine bdf1_integrate

  ! One step from (t, y): y, yp become y_{n+1} and (y_{n+1} - y_n) / h.
  subroutine newton_step(sys, t, h, rtol, atol, ind, y, yp, st, status)
    class(bdf1_system), intent(inout) :: sys
    double precision, intent(in) :: t, h, rtol, atol
    integer, intent(in) :: ind(:)
    double precision, intent(inout) :: y(:), yp(:)
    type(bdf1_stats), intent(inout) :: st
    integer, intent(out) :: status
    double precision :: ynew(size(y)), ypnew(size(y)), r(size(y)), a(size(y), size(y)), norm
    integer :: piv(size(y)), it, ierr, i
    ynew = y
    do it = 1, 7
      ypnew = (ynew - y) / h
      st%nres = st%nres + 1
      call sys%res(t + h, ynew, ypnew, r, ierr)
      if (ierr /= 0) then
        status = -11
        return
      end if
      if (it == 1) then
        st%njac = st%njac + 1
        call sys%mat(t + h, ynew, ypnew, 1d0 / h, a, ierr)
        st%nlu = st%nlu + 1
        if (ierr /= 0) then
          status = -11
          return
        end if
        call lu_factor(a, piv, ierr)
        if (ierr /= 0) then
          status = -5
          return
        end if
      end if
      call lu_solve(a, piv, r)
      norm = 0
      do i = 1, size(y)
        ynew(i) = ynew(i) - r(i)
        norm = max(norm, abs(r(i)) / ((atol + rtol * abs(ynew(i))) / h**max(ind(i) - 1, 0)))
      end do
      if (norm < 1d-2) then
        yp = (ynew - y) / h
        y = ynew
        status = 0
        return
      end if
    end do
    st%nconvfail = st%nconvfail + 1
    status = -9
  end subroutine newton_step

  ! The default watcher: none.
  subroutine no_watch(self, t, h, y, yp)
    class(bdf1_system), intent(inout) :: self
    double precision, intent(in) :: t, h, y(:), yp(:)
    if (.false.) print *, t, h, y, yp, same_type_as(self, self)
  end subroutine no_watch

  ! LU with partial pivoting in place; ierr 1 when a pivot is zero.
  subroutine lu_factor(a, piv, ierr)
    double precision, intent(inout) :: a(:, :)
    integer, intent(out) :: piv(:), ierr
    integer :: n, k, p, i
    double precision :: row(size(a, 2))
    n = size(a, 1)
    ierr = 0
    do k = 1, n
      p = k - 1 + maxloc(abs(a(k:n, k)), 1)
      piv(k) = p
      if (a(p, k) == 0) then
        ierr = 1
        return
      end if
      row = a(k, :)
      a(k, :) = a(p, :)
      a(p, :) = row
      do i = k + 1, n
        a(i, k) = a(i, k) / a(k, k)
        a(i, k + 1:n) = a(i, k + 1:n) - a(i, k) * a(k, k + 1:n)
      end do
    end do
  end subroutine lu_factor

  subroutine lu_solve(a, piv, b)
    double precision, intent(in) :: a(:, :)
    integer, intent(in) :: piv(:)
    double precision, intent(inout) :: b(:)
    integer :: n, k
    double precision :: s
    n = size(a, 1)
    do k = 1, n
      s = b(k)
      b(k) = b(piv(k))
      b(piv(k)) = s
      b(k + 1:n) = b(k + 1:n) - a(k + 1:n, k) * b(k)
    end do
    do k = n, 1, -1
      b(k) = b(k) / a(k, k)
      b(1:k - 1) = b(1:k - 1) - a(1:k - 1, k) * b(k)
    end do
  end subroutine lu_solve

end module bdf1
