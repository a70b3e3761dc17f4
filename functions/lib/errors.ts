import { ERROR_STATUS, type ErrorCode } from '#shared/errors';

/** A domain error: thrown anywhere, mapped to `{ error: code }` with its status by the HTTP wrapper. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    status?: number,
    readonly details?: unknown,
  ) {
    super(code);
    this.status = status ?? ERROR_STATUS[code];
  }
}

export const notFound = (code: ErrorCode = 'ERR_NOT_FOUND') => new AppError(code);
export const forbidden = () => new AppError('ERR_NO_PERMISSION');
