! f of the published test-set configurations of the car axis, Andrews' squeezing mechanism and
! the slider crank, as the Test Set for IVP Solvers (release 2.4) states them: the equations of
! the report (sections II.17.2, II.13.2 from Hairer & Wanner, Solving ODEs II, section VII.7, and
! II.19 from Simeon, Math. Modelling of Systems 2, 1996), each term summed in the order in which
! the report's software part evaluates it.  Floating-point sums depend on their order; mbdae's C residual groups a few terms
! otherwise (last-bit differences), and a driver's counts follow every bit (RADAU5 on Andrews at
! 1e-7: 114 steps with these values, 116 with the C residual's).  So the test-set interface
! (testset.f90) evaluates f here for these three problems, and from the C API for all others.
!
! y = (q, v, w, lambda) for Andrews (7 angles beta, Theta, gamma, Phi, delta, Omega, epsilon;
! their velocities; accelerations; 6 multipliers), f = (v, w, M(q) w - f(q, v) + G(q)^T lambda,
! g(q)) with M y' = f, M = diag(I_14, 0_13) (index 1 for q and v, 2 for w, 3 for lambda).
module mbdae_testset_published
  use, intrinsic :: iso_c_binding, only: c_double
  implicit none
  private
  public :: caraxis_f, andrews_f, crank_f

  ! Report 2.4, section II.13.2 (Andrews' constants).
  real(c_double), parameter :: m1 = 0.04325d0, m2 = 0.00365d0, m3 = 0.02373d0, m4 = 0.00706d0
  real(c_double), parameter :: m5 = 0.07050d0, m6 = 0.00706d0, m7 = 0.05498d0
  real(c_double), parameter :: xa = -0.06934d0, ya = -0.00227d0, xb = -0.03635d0
  real(c_double), parameter :: yb = 0.03273d0, xc = 0.014d0, yc = 0.072d0, c0 = 4530d0
  real(c_double), parameter :: i1 = 2.194d-6, i2 = 4.410d-7, i3 = 5.255d-6, i4 = 5.667d-7
  real(c_double), parameter :: i5 = 1.169d-5, i6 = 5.667d-7, i7 = 1.912d-5
  real(c_double), parameter :: d = 0.028d0, da = 0.0115d0, e = 0.02d0, ea = 0.01421d0
  real(c_double), parameter :: rr = 0.007d0, ra = 0.00092d0, l0 = 0.07785d0, ss = 0.035d0
  real(c_double), parameter :: sa = 0.01874d0, sb = 0.01043d0, sc = 0.018d0, sd = 0.02d0
  real(c_double), parameter :: ta = 0.02308d0, tb = 0.00916d0, u = 0.04d0, ua = 0.01228d0
  real(c_double), parameter :: ub = 0.00449d0, zf = 0.02d0, zt = 0.04d0, fa = 0.01421d0
  real(c_double), parameter :: mom = 0.033d0

  ! Report 2.4, section II.19.2 (the slider crank's constants; pi as the published code takes it).
  real(c_double), parameter :: crk_m1 = 0.36d0, crk_m2 = 0.151104d0, crk_m3 = 0.075552d0
  real(c_double), parameter :: crk_l1 = 0.15d0, crk_l2 = 0.30d0, crk_j1 = 0.002727d0
  real(c_double), parameter :: crk_j2 = 0.0045339259d0, crk_ee = 0.20d12, crk_bb = 0.0080d0
  real(c_double), parameter :: crk_hh = 0.0080d0, crk_rho = 7870.0d0, crk_grav = 0.0d0
  real(c_double), parameter :: crk_omega = 150.d0, crk_pi = 3.1415927d0

  ! The rod's finite-element data (damping dq zero: the published configuration has none).
  type :: crank_fe
    real(c_double) :: mq(4, 4), kq(4, 4), bq(4, 4), dq(4, 4) = 0
    real(c_double) :: c1(4), c2(4), c12(4), c21(4)
  end type crank_fe

  type :: crank_state
    real(c_double) :: cosp1, cosp2, sinp1, sinp2, cosp12, sinp12, v(2), q(4), qd(4)
    real(c_double) :: c1tq, c1tqd, c2tq, c2tqd, c12tq, c12tqd, qtmqq, qdtmqq, qdtbqqd
    real(c_double) :: mqq(4), kqq(4), dqqd(4), qtbq(4), bqqd(4)
  end type crank_state

contains

  ! The car axis (report 2.4, II.17.2): eps = 1e-2, M = 10, L = 1, L0 = 0.5, r = 0.1, w = 10,
  ! g = 1; y = (x_l, y_l, x_r, y_r, their velocities, lambda_1, lambda_2).
  subroutine caraxis_f(t, y, f)
    real(c_double), intent(in) :: t, y(10)
    real(c_double), intent(out) :: f(10)
    real(c_double), parameter :: eps = 1d-2, m = 10d0, l = 1d0, l0 = 0.5d0, r = 0.1d0
    real(c_double), parameter :: w = 10d0, g = 1d0
    real(c_double) :: xb, yb, ll, lr
    yb = r * sin(w * t)
    xb = sqrt(l * l - yb * yb)
    f(1:4) = y(5:8)
    ll = sqrt(y(1)**2 + y(2)**2)
    lr = sqrt((y(3) - xb)**2 + (y(4) - yb)**2)
    f(5) = (l0 - ll) * y(1) / ll + y(9) * xb + 2d0 * y(10) * (y(1) - y(3))
    f(6) = (l0 - ll) * y(2) / ll + y(9) * yb + 2d0 * y(10) * (y(2) - y(4)) - m * eps * eps * g / 2d0
    f(7) = (l0 - lr) * (y(3) - xb) / lr - 2d0 * y(10) * (y(1) - y(3))
    f(8) = (l0 - lr) * (y(4) - yb) / lr - 2d0 * y(10) * (y(2) - y(4)) - m * eps * eps * g / 2d0
    f(9) = xb * y(1) + yb * y(2)
    f(10) = (y(1) - y(3))**2 + (y(2) - y(4))**2 - l * l
  end subroutine caraxis_f

  ! Andrews' squeezing mechanism (report 2.4, II.13.2).
  subroutine andrews_f(y, f)
    real(c_double), intent(in) :: y(27)
    real(c_double), intent(out) :: f(27)
    real(c_double) :: s(7), c(7), s12, s45, s67, c12, c45, c67
    real(c_double) :: m(7, 7), ff(7), gp(6, 7), g(6)
    integer :: i, j
    s = sin(y(1:7))
    c = cos(y(1:7))
    s12 = sin(y(1) + y(2))
    s45 = sin(y(4) + y(5))
    s67 = sin(y(6) + y(7))
    c12 = cos(y(1) + y(2))
    c45 = cos(y(4) + y(5))
    c67 = cos(y(6) + y(7))
    call mass(s, c, m)
    call forces(y(8:14), s, c, ff)
    call constraint_matrix(s, c, s12, s45, s67, c12, c45, c67, gp)
    g(1) = rr * c(1) - d * c12 - ss * s(3) - xb
    g(2) = rr * s(1) - d * s12 + ss * c(3) - yb
    g(3) = rr * c(1) - d * c12 - e * s45 - zt * c(5) - xa
    g(4) = rr * s(1) - d * s12 + e * c45 - zt * s(5) - ya
    g(5) = rr * c(1) - d * c12 - zf * c67 - u * s(7) - xa
    g(6) = rr * s(1) - d * s12 - zf * s67 + u * c(7) - ya
    f(1:14) = y(8:21)
    do i = 1, 7
      f(14 + i) = -ff(i)
      do j = 1, 7
        f(14 + i) = f(14 + i) + m(i, j) * y(14 + j)
      end do
      do j = 1, 6
        f(14 + i) = f(14 + i) + gp(j, i) * y(21 + j)
      end do
    end do
    f(22:27) = g
  end subroutine andrews_f

  ! The symmetric mass matrix M(q).
  subroutine mass(s, c, m)
    real(c_double), intent(in) :: s(7), c(7)
    real(c_double), intent(out) :: m(7, 7)
    integer :: i, j
    m = 0
    m(1, 1) = m1 * ra**2 + m2 * (rr**2 - 2 * da * rr * c(2) + da**2) + i1 + i2
    m(2, 1) = m2 * (da**2 - da * rr * c(2)) + i2
    m(2, 2) = m2 * da**2 + i2
    m(3, 3) = m3 * (sa**2 + sb**2) + i3
    m(4, 4) = m4 * (e - ea)**2 + i4
    m(5, 4) = m4 * ((e - ea)**2 + zt * (e - ea) * s(4)) + i4
    m(5, 5) = m4 * (zt**2 + 2 * zt * (e - ea) * s(4) + (e - ea)**2) + m5 * (ta**2 + tb**2) + i4 + i5
    m(6, 6) = m6 * (zf - fa)**2 + i6
    m(7, 6) = m6 * ((zf - fa)**2 - u * (zf - fa) * s(6)) + i6
    m(7, 7) = m6 * ((zf - fa)**2 - 2 * u * (zf - fa) * s(6) + u**2) + m7 * (ua**2 + ub**2) + i6 + i7
    do j = 2, 7
      do i = 1, j - 1
        m(i, j) = m(j, i)
      end do
    end do
  end subroutine mass

  ! The applied and centrifugal forces f(q, v): the spring between D and C, the motor's moment.
  subroutine forces(v, s, c, ff)
    real(c_double), intent(in) :: v(7), s(7), c(7)
    real(c_double), intent(out) :: ff(7)
    real(c_double) :: xd, yd, lang, force, fx, fy
    xd = sd * c(3) + sc * s(3) + xb
    yd = sd * s(3) - sc * c(3) + yb
    lang = sqrt((xd - xc)**2 + (yd - yc)**2)
    force = -c0 * (lang - l0) / lang
    fx = force * (xd - xc)
    fy = force * (yd - yc)
    ff(1) = mom - m2 * da * rr * v(2) * (v(2) + 2 * v(1)) * s(2)
    ff(2) = m2 * da * rr * v(1)**2 * s(2)
    ff(3) = fx * (sc * c(3) - sd * s(3)) + fy * (sd * c(3) + sc * s(3))
    ff(4) = m4 * zt * (e - ea) * v(5)**2 * c(4)
    ff(5) = -m4 * zt * (e - ea) * v(4) * (v(4) + 2 * v(5)) * c(4)
    ff(6) = -m6 * u * (zf - fa) * v(7)**2 * c(6)
    ff(7) = m6 * u * (zf - fa) * v(6) * (v(6) + 2 * v(7)) * c(6)
  end subroutine forces

  ! G(q) = dg/dq.
  subroutine constraint_matrix(s, c, s12, s45, s67, c12, c45, c67, gp)
    real(c_double), intent(in) :: s(7), c(7), s12, s45, s67, c12, c45, c67
    real(c_double), intent(out) :: gp(6, 7)
    integer :: k
    gp = 0
    do k = 1, 5, 2
      gp(k, 1) = -rr * s(1) + d * s12
      gp(k, 2) = d * s12
      gp(k + 1, 1) = rr * c(1) - d * c12
      gp(k + 1, 2) = -d * c12
    end do
    gp(1, 3) = -ss * c(3)
    gp(2, 3) = -ss * s(3)
    gp(3, 4) = -e * c45
    gp(3, 5) = -e * c45 + zt * s(5)
    gp(4, 4) = -e * s45
    gp(4, 5) = -e * s45 - zt * c(5)
    gp(5, 6) = zf * s67
    gp(5, 7) = zf * s67 - u * c(7)
    gp(6, 6) = -zf * c67
    gp(6, 7) = -zf * c67 - u * s(7)
  end subroutine constraint_matrix

  ! The slider crank, index-2 formulation, linear beam, no damping (report 2.4, II.19; the
  ! published configuration): y = (p, q, v_p, v_q, a_p, a_q, lambda), p = (phi1, phi2, x3),
  ! q = (q1..q4); f = (v, a, -(M a - f_e + G^T lambda), -(G v + r'(t))) with the constants and
  ! finite-element matrices of II.19.2 (pi taken as 3.1415927, as the published code does).
  subroutine crank_f(y, f)
    real(c_double), intent(in) :: y(24)
    real(c_double), intent(out) :: f(24)
    type(crank_fe) :: fe
    type(crank_state) :: st
    real(c_double) :: am(7, 7), gp(3, 7), fr(7), vlc(3)
    integer :: i
    call crank_matrices(fe)
    call crank_scalars(fe, y, st)
    call crank_mass(fe, st, am)
    call crank_constraint_matrix(st, gp)
    call crank_forces(fe, st, fr)
    f(1:14) = -(0d0 - y(8:21)) ! y' - v at y' = 0, negated: -0 where v is +0, as published
    do i = 1, 7
      f(14 + i) = -(dot(am(:, i), y(15:21)) - fr(i) + gp(1, i) * y(22) + gp(2, i) * y(23) &
                    + gp(3, i) * y(24))
    end do
    vlc = [0d0, 0d0, -crk_omega]
    do i = 1, 7
      vlc = vlc + gp(:, i) * y(7 + i)
    end do
    f(22:24) = -vlc
  end subroutine crank_f

  ! sum_i a_i b_i: for 4 terms from 0 in order; for 7, the first two from 0, then the other
  ! five in one sum (the order of the published code's dot product).
  real(c_double) function dot(a, b)
    real(c_double), intent(in) :: a(:), b(:)
    integer :: i, m
    dot = 0
    m = mod(size(a), 5)
    do i = 1, m
      dot = dot + a(i) * b(i)
    end do
    do i = m + 1, size(a), 5
      dot = dot + a(i) * b(i) + a(i + 1) * b(i + 1) + a(i + 2) * b(i + 2) + a(i + 3) * b(i + 3) &
            + a(i + 4) * b(i + 4)
    end do
  end function dot

  subroutine crank_matrices(fe)
    type(crank_fe), intent(out) :: fe
    real(c_double) :: facm, fack, facb
    facm = crk_rho * crk_bb * crk_hh * crk_l2
    fack = crk_ee * crk_bb * crk_hh / crk_l2
    facb = crk_bb * crk_hh * crk_l2
    fe%mq = 0
    fe%kq = 0
    fe%bq = 0
    fe%c1 = 0
    fe%c2 = 0
    fe%c12 = 0
    fe%c21 = 0
    fe%mq(1, 1) = facm * .5d0
    fe%mq(2, 2) = facm * .5d0
    fe%mq(3, 3) = facm * 8.d0
    fe%mq(3, 4) = facm * 1.d0
    fe%mq(4, 3) = facm * 1.d0
    fe%mq(4, 4) = facm * 2.d0
    fe%kq(1, 1) = fack * crk_pi**4 / 24.d0 * (crk_hh / crk_l2)**2
    fe%kq(2, 2) = fack * crk_pi**4 * 2.d0 / 3.d0 * (crk_hh / crk_l2)**2
    fe%kq(3, 3) = fack * 16.d0 / 3.d0
    fe%kq(3, 4) = -fack * 8.d0 / 3.d0
    fe%kq(4, 3) = -fack * 8.d0 / 3.d0
    fe%kq(4, 4) = fack * 7.d0 / 3.d0
    fe%bq(1, 3) = -facb * 16.d0 / crk_pi**3
    fe%bq(1, 4) = facb * (8.d0 / crk_pi**3 - 1.d0 / crk_pi)
    fe%bq(2, 4) = facb * 0.5d0 / crk_pi
    fe%bq(3, 1) = facb * 16.d0 / crk_pi**3
    fe%bq(4, 1) = -facb * (8.d0 / crk_pi**3 - 1.d0 / crk_pi)
    fe%bq(4, 2) = -facb * 0.5d0 / crk_pi
    fe%c1(3) = facb * 2.d0 / 3.d0
    fe%c1(4) = facb * 1.d0 / 6.d0
    fe%c2(1) = facb * 2.d0 / crk_pi
    fe%c12(3) = crk_l2 * facb * 1.d0 / 3.d0
    fe%c12(4) = crk_l2 * facb * 1.d0 / 6.d0
    fe%c21(1) = crk_l2 * facb * 1.d0 / crk_pi
    fe%c21(2) = -crk_l2 * facb * 0.5d0 / crk_pi
  end subroutine crank_matrices

  ! Angles, velocities and the products of the finite-element data with q and q'.
  subroutine crank_scalars(fe, y, st)
    type(crank_fe), intent(in) :: fe
    real(c_double), intent(in) :: y(24)
    type(crank_state), intent(out) :: st
    integer :: i
    st%cosp1 = cos(y(1))
    st%cosp2 = cos(y(2))
    st%sinp1 = sin(y(1))
    st%sinp2 = sin(y(2))
    st%cosp12 = cos(y(1) - y(2))
    st%sinp12 = sin(y(1) - y(2))
    st%v = y(8:9)
    st%q = y(4:7)
    st%qd = y(11:14)
    st%c1tq = dot(fe%c1, st%q)
    st%c1tqd = dot(fe%c1, st%qd)
    st%c2tq = dot(fe%c2, st%q)
    st%c2tqd = dot(fe%c2, st%qd)
    st%c12tq = dot(fe%c12, st%q)
    st%c12tqd = dot(fe%c12, st%qd)
    do i = 1, 4
      st%mqq(i) = dot(fe%mq(:, i), st%q)
      st%kqq(i) = dot(fe%kq(:, i), st%q)
      st%dqqd(i) = dot(fe%dq(:, i), st%qd)
      st%qtbq(i) = dot(st%q, fe%bq(:, i))
      st%bqqd(i) = dot(fe%bq(i, :), st%qd)
    end do
    st%qtmqq = dot(st%q, st%mqq)
    st%qdtmqq = dot(st%qd, st%mqq)
    st%qdtbqqd = dot(st%qd, st%bqqd)
  end subroutine crank_scalars

  subroutine crank_mass(fe, st, am)
    type(crank_fe), intent(in) :: fe
    type(crank_state), intent(in) :: st
    real(c_double), intent(out) :: am(7, 7)
    integer :: i, j
    am = 0
    am(1, 1) = crk_j1 + crk_m2 * crk_l1 * crk_l1
    am(1, 2) = .5d0 * crk_l1 * crk_l2 * crk_m2 * st%cosp12
    am(2, 2) = crk_j2
    am(3, 3) = crk_m3
    am(1, 2) = am(1, 2) + crk_rho * crk_l1 * (st%sinp12 * st%c2tq + st%cosp12 * st%c1tq)
    am(2, 2) = am(2, 2) + st%qtmqq + 2.0d0 * crk_rho * st%c12tq
    do i = 1, 4
      am(1, 3 + i) = crk_rho * crk_l1 * (-st%sinp12 * fe%c1(i) + st%cosp12 * fe%c2(i))
      am(2, 3 + i) = crk_rho * fe%c21(i) + crk_rho * st%qtbq(i)
      am(3, 3 + i) = 0
      do j = 1, i
        am(3 + j, 3 + i) = fe%mq(j, i)
      end do
    end do
    do i = 1, 7
      do j = i + 1, 7
        am(j, i) = am(i, j)
      end do
    end do
  end subroutine crank_mass

  ! G = dg/d(p, q); the rod's end is displaced by q4 (KU = 4), with no second mode there.
  subroutine crank_constraint_matrix(st, gp)
    type(crank_state), intent(in) :: st
    real(c_double), intent(out) :: gp(3, 7)
    real(c_double) :: qku, qkv
    qku = st%q(4)
    qkv = 0
    gp = 0
    gp(1, 1) = crk_l1 * st%cosp1
    gp(1, 2) = crk_l2 * st%cosp2 + qku * st%cosp2 - qkv * st%sinp2
    gp(2, 1) = crk_l1 * st%sinp1
    gp(2, 2) = crk_l2 * st%sinp2 + qku * st%sinp2 + qkv * st%cosp2
    gp(2, 3) = 1
    gp(3, 1) = 1
    gp(1, 7) = st%sinp2
    gp(2, 7) = -st%cosp2
  end subroutine crank_constraint_matrix

  ! The rigid, flexible, Coriolis, gravity, stiffness and damping forces.
  subroutine crank_forces(fe, st, fr)
    type(crank_fe), intent(in) :: fe
    type(crank_state), intent(in) :: st
    real(c_double), intent(out) :: fr(7)
    real(c_double) :: v1, v2
    integer :: i
    v1 = st%v(1)
    v2 = st%v(2)
    fr(1) = -.5d0 * crk_l1 * crk_grav * (crk_m1 + 2.0d0 * crk_m2) * st%cosp1 &
            - .5d0 * crk_l1 * crk_l2 * crk_m2 * v2 * v2 * st%sinp12
    fr(2) = -.5d0 * crk_l2 * crk_grav * crk_m2 * st%cosp2 &
            + .5d0 * crk_l1 * crk_l2 * crk_m2 * v1 * v1 * st%sinp12
    fr(3) = 0
    fr(1) = fr(1) + crk_rho * crk_l1 * v2 * v2 * (-st%sinp12 * st%c1tq + st%cosp12 * st%c2tq) &
            - 2.0d0 * crk_rho * crk_l1 * v2 * (st%cosp12 * st%c1tqd + st%sinp12 * st%c2tqd)
    fr(2) = fr(2) + crk_rho * crk_l1 * v1 * v1 * (st%sinp12 * st%c1tq - st%cosp12 * st%c2tq) &
            - 2.0d0 * crk_rho * v2 * st%c12tqd - 2.0d0 * v2 * st%qdtmqq &
            - crk_rho * st%qdtbqqd - crk_rho * crk_grav * (st%cosp2 * st%c1tq - st%sinp2 * st%c2tq)
    do i = 1, 4
      fr(3 + i) = v2 * v2 * st%mqq(i) &
                  + crk_rho * (v2 * v2 * fe%c12(i) &
                               + crk_l1 * v1 * v1 * (st%cosp12 * fe%c1(i) + st%sinp12 * fe%c2(i)) &
                               + 2.0d0 * v2 * st%bqqd(i)) &
                  - crk_rho * crk_grav * (st%sinp2 * fe%c1(i) + st%cosp2 * fe%c2(i))
    end do
    do i = 1, 4
      fr(3 + i) = fr(3 + i) - st%kqq(i) - st%dqqd(i)
    end do
  end subroutine crank_forces

end module mbdae_testset_published
