/**
 * A fixed "today" for a whole local stack and its tests: with `TEST_CLOCK_OFFSET_MS` set (vitest's
 * config sets it from `TEST_NOW=2026-11-30T12:00:00Z`), `Date.now()` and `new Date()` read the real
 * clock moved by that offset, so time still passes at its real pace from the chosen instant. Loaded
 * with `--import` in the session runner's process, as a setup file in the test workers, and first
 * thing in the stack's process, so that every process agrees on the same "now". Never in production.
 */
import http from 'node:http';

const offset = Number(process.env.TEST_CLOCK_OFFSET_MS);
if (offset && !globalThis.__testClockShifted) {
  const RealDate = globalThis.Date;
  // A function sharing Date's prototype, not a subclass: libraries that read Date.prototype's own
  // methods (@date-fns/tz) or subclass Date keep working, and every date is still `instanceof Date`.
  function ShiftedDate(...args) {
    if (!new.target) return new RealDate(RealDate.now() + offset).toString();
    return Reflect.construct(RealDate, args.length ? args : [RealDate.now() + offset], new.target);
  }
  ShiftedDate.prototype = RealDate.prototype;
  ShiftedDate.now = () => RealDate.now() + offset;
  ShiftedDate.parse = RealDate.parse;
  ShiftedDate.UTC = RealDate.UTC;
  globalThis.Date = ShiftedDate;
  // Node writes a server's Date header from its own clock: the AWS SDK corrects its signing clock
  // by that header, so the local S3 and gateway would otherwise pull every client back to real time
  const writeHead = http.ServerResponse.prototype.writeHead;
  http.ServerResponse.prototype.writeHead = function (...args) {
    if (this.sendDate && !this.hasHeader('date')) this.setHeader('date', new ShiftedDate().toUTCString());
    return writeHead.apply(this, args);
  };
  globalThis.__testClockShifted = true;
}
