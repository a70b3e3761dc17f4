import { AsyncLocalStorage } from 'node:async_hooks';
import { config } from './config';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
type Fields = Record<string, unknown>;

/**
 * The fields of the unit of work being logged (a request, a queue record). Each unit runs in its own
 * async context, so concurrent requests in one process (the local runtime, a busy Lambda's awaits)
 * never write each other's requestId or companyId.
 */
const scope = new AsyncLocalStorage<Fields>();
/** outside any unit of work (start-up, the session runner's own lines) */
const processFields: Fields = {};

/** Runs `fn` with its own log context, starting from `fields`. */
export function withLogContext<T>(fields: Fields, fn: () => Promise<T>): Promise<T> {
  return scope.run({ ...fields }, fn);
}

/** Adds fields (companyId, userId ...) to every later line of the current unit of work. */
export function setLogContext(fields: Fields) {
  Object.assign(scope.getStore() ?? processFields, fields);
}

function write(level: Level, msg: string, fields?: Fields) {
  if (ORDER[level] < ORDER[config().logLevel]) return;
  const context = scope.getStore() ?? processFields;
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...context, ...fields });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
}

/** Structured JSON logs, one line per event. Never pass secrets or message bodies at info level. */
export const log = {
  debug: (msg: string, fields?: Fields) => write('debug', msg, fields),
  info: (msg: string, fields?: Fields) => write('info', msg, fields),
  warn: (msg: string, fields?: Fields) => write('warn', msg, fields),
  error: (msg: string, fields?: Fields) => write('error', msg, fields),
};
