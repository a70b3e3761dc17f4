/**
 * A fixed "today" for a whole local stack and its tests: with `TEST_CLOCK_OFFSET_MS` set (vitest's
 * config sets it from `TEST_NOW=2026-11-30T12:00:00Z`), `Date.now()` and `new Date()` read the real
 * clock moved by that offset, so time still passes at its real pace from the chosen instant. Loaded
 * with `--import` in the session runner's process, as a setup file in the test workers, and first
 * thing in the stack's process, so that every process agrees on the same "now". Never in production.
 */
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
  globalThis.__testClockShifted = true;
}
