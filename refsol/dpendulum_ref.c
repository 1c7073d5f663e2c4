/* PLACEHOLDER */ typedef int dpendulum_placeholder;
