import type { RateRule } from '../rate-limit';

/**
 * The budgets of the public account routes (all through `rate-limit.ts`). Login counts failures only
 * (a success gives its hit back) and slows down instead of locking; reset codes and signups are
 * counted whether or not they succeed.
 */
const HOUR = 3600;
const LOGIN_BACKOFF = { baseSeconds: 1, maxSeconds: 5 * 60 };

export const LIMITS = {
  loginPerEmail: { name: 'login-email', per: 'email', windowSeconds: HOUR, free: 5, backoff: LOGIN_BACKOFF },
  loginPerAddress: { name: 'login-ip', per: 'address', windowSeconds: HOUR, free: 20, backoff: LOGIN_BACKOFF },
  resetRequestPerEmail: { name: 'reset-request-email', per: 'email', windowSeconds: HOUR, free: 3 },
  resetRequestPerAddress: { name: 'reset-request-ip', per: 'address', windowSeconds: HOUR, free: 10 },
  /** the attempt budget of reset codes: per e-mail, whatever code is current */
  resetGuessPerEmail: { name: 'reset-guess-email', per: 'email', windowSeconds: HOUR, free: 5 },
  resetGuessPerAddress: { name: 'reset-guess-ip', per: 'address', windowSeconds: HOUR, free: 20 },
  signupPerAddress: { name: 'signup-ip', per: 'address', windowSeconds: HOUR, free: 10 },
} satisfies Record<string, RateRule>;
