/** Failed sign-ins allowed per user name, and per client address, before sign-in is locked. */
export const LOGIN_MAX_FAILURES_PER_USER = 5;
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 20;
/** Failures older than this window are forgotten. */
export const LOGIN_FAILURE_WINDOW_MINUTES = 15;
/** How long a lock-out lasts, unless an administrator lifts it. */
export const LOGIN_LOCK_MINUTES = 15;
