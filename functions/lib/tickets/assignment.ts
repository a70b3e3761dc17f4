/**
 * Automatic assignment (issue 24). Placeholder contract between the presence and assignment work:
 * presence calls `onUserAvailable` when a user comes online or back from away; the assignment work
 * replaces this body with the real rule (hand waiting tickets of the user's queues to free slots).
 */
export async function onUserAvailable(_companyId: number, _userId: number): Promise<void> {}
