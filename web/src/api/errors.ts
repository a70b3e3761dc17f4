/** An error answered by the API: `{ error: 'ERR_*', details? }` with its HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly details?: unknown,
  ) {
    super(code ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

export const errorCode = (err: unknown): string | undefined => (err instanceof ApiError ? err.code : undefined);
