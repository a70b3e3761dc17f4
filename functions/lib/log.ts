import { config } from './config';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

let context: Record<string, unknown> = {};

/** Adds fields (requestId, companyId, userId) to every line until the next reset. */
export function setLogContext(fields: Record<string, unknown>, replace = false) {
  context = replace ? { ...fields } : { ...context, ...fields };
}

function write(level: Level, msg: string, fields?: Record<string, unknown>) {
  if (ORDER[level] < ORDER[config().logLevel]) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...context, ...fields });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
}

/** Structured JSON logs, one line per event. Never pass secrets or message bodies at info level. */
export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};
