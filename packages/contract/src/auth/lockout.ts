/**
 * Failed sign-ins allowed for one user name from one client address before that pair is locked. The lock
 * holds the user out from that address only: from any other address the right password still signs in,
 * so a stranger cannot lock someone out by failing on purpose.
 */
export const LOGIN_MAX_FAILURES_PER_USER = 5;
/** Failed sign-ins allowed from one client address, whatever the user names, before the address is locked. */
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 20;
/** Failures older than this window are forgotten. */
export const LOGIN_FAILURE_WINDOW_MINUTES = 15;
/** How long a lock-out lasts, unless an administrator lifts it. */
export const LOGIN_LOCK_MINUTES = 15;

/** Joins the user name and the address in the key of a `user` lock-out. */
export const LOCKOUT_ADDRESS_SEPARATOR = ' from ';

/** The key of a `user` lock-out: the user name (lower case) at one client address. */
export const userLockoutKey = (username: string, address: string) =>
  `${username.trim().toLowerCase()}${LOCKOUT_ADDRESS_SEPARATOR}${address}`;
