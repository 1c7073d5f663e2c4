/* PLACEHOLDER */ typedef int pendulum_placeholder;
