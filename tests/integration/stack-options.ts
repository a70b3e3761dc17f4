/**
 * log2 of the scrypt cost the integration and browser stacks hash passwords with. Production's
 * 2^17 would dominate a suite that signs up and logs in thousands of times; the rules about the
 * cost (rehash of cheaper hashes, the same work for unknown e-mails) hold at any cost and are
 * tested without timing (login-cost.test.ts, accounts-security.test.ts).
 */
export const TEST_PASSWORD_HASH_COST = 10;
