import type { RateRule } from '../rate-limit';

/**
 * The budgets of the public account routes (all through `rate-limit.ts`). Login counts failures only
 * (a success gives its hit back) and slows down instead of locking; reset codes and signups are
 * counted whether or not they succeed.
 *
 * Login failures are counted per address and account: an attacker guessing one account's password
 * slows down only their own address, and the owner signing in from another address is not held by
 * them. The per-account budget is for guesses spread over many addresses; it is larger than what one
 * address can spend in a window under its own two rules (limits.test.ts), so no single address trips it.
 */
const HOUR = 3600;
const LOGIN_BACKOFF = { baseSeconds: 1, maxSeconds: 5 * 60 };

export const LIMITS = {
  loginPerAddressAndEmail: {
    name: 'login-ip-email',
    per: 'address+email',
    windowSeconds: HOUR,
    free: 5,
    backoff: LOGIN_BACKOFF,
  },
  loginPerAddress: { name: 'login-ip', per: 'address', windowSeconds: HOUR, free: 20, backoff: LOGIN_BACKOFF },
  loginPerEmail: { name: 'login-email', per: 'email', windowSeconds: HOUR, free: 50, backoff: LOGIN_BACKOFF },
  resetRequestPerEmail: { name: 'reset-request-email', per: 'email', windowSeconds: HOUR, free: 3 },
  resetRequestPerAddress: { name: 'reset-request-ip', per: 'address', windowSeconds: HOUR, free: 10 },
  /** the attempt budget of reset codes: per e-mail, whatever code is current */
  resetGuessPerEmail: { name: 'reset-guess-email', per: 'email', windowSeconds: HOUR, free: 5 },
  resetGuessPerAddress: { name: 'reset-guess-ip', per: 'address', windowSeconds: HOUR, free: 20 },
  signupPerAddress: { name: 'signup-ip', per: 'address', windowSeconds: HOUR, free: 10 },
} satisfies Record<string, RateRule>;
