/**
 * What went wrong in this runner process since it started, for its `/health` answer and the fleet
 * benchmark (issue 37, item 7): auth writes refused because another runner held the session (R1),
 * messages that could not be decrypted (R4), and messages let through without their journal entry
 * (R3). Counts only: each site also logs and, where it matters, reports to the connection's health.
 */
export const runnerCounters = {
  staleWritesRefused: 0,
  undecryptable: 0,
  journalBypasses: 0,
};
