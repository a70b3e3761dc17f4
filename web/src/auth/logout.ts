/** What a logout needs from the browser and the API, passed in so its order is testable without either. */
export interface LogoutSteps {
  /** this device's push subscription, if it has one */
  devicePush: () => Promise<{ endpoint: string; unsubscribe: () => Promise<boolean> } | null>;
  /** DELETE /auth/logout with the body given */
  endOnServer: (body: { pushEndpoint: string } | undefined) => Promise<unknown>;
  /** forgets the tokens and leaves the signed-in pages */
  clearLocal: () => void;
}

/**
 * A logout ends this device's push subscription with the session (issue 25): the server is told its
 * endpoint with the logout and forgets it, then the browser drops it. The browser's part and the
 * local session's end happen even when the server could not be reached (the error still reaches the
 * caller); a browser without push support logs out as before.
 */
export async function endSession(steps: LogoutSteps) {
  const push = await steps.devicePush().catch(() => null);
  try {
    await steps.endOnServer(push ? { pushEndpoint: push.endpoint } : undefined);
  } finally {
    await push?.unsubscribe().catch(() => false);
    steps.clearLocal();
  }
}
