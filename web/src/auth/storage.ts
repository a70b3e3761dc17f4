/**
 * Session state kept in the browser (attendance.md section 3, "Session state (client)"): token,
 * companyId, userId and the formatted due date. Everything here is cleared on logout.
 */
const KEYS = { token: 'token', companyId: 'companyId', userId: 'userId', dueDate: 'companyDueDate' } as const;

/**
 * Why this browser's session just ended, kept across the reload to /login so the login page can say
 * it (the toast before the reload shows for a second at most). Read once.
 */
export const signOutNotice = {
  set: (reason: 'usedElsewhere') => sessionStorage.setItem('signedOutReason', reason),
  take(): string | null {
    const reason = sessionStorage.getItem('signedOutReason');
    sessionStorage.removeItem('signedOutReason');
    return reason;
  },
};

export const sessionStore = {
  token: () => localStorage.getItem(KEYS.token),
  setToken: (token: string) => localStorage.setItem(KEYS.token, token),
  companyId: () => Number(localStorage.getItem(KEYS.companyId)) || null,
  userId: () => Number(localStorage.getItem(KEYS.userId)) || null,
  dueDate: () => localStorage.getItem(KEYS.dueDate),
  save(s: { token: string; companyId: number; userId: number; dueDate: string }) {
    localStorage.setItem(KEYS.token, s.token);
    localStorage.setItem(KEYS.companyId, String(s.companyId));
    localStorage.setItem(KEYS.userId, String(s.userId));
    localStorage.setItem(KEYS.dueDate, s.dueDate);
  },
  clear() {
    for (const key of Object.values(KEYS)) localStorage.removeItem(key);
  },
};
