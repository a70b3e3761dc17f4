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
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }
    static now() {
      return RealDate.now() + offset;
    }
    // dates made before the shift, or by Node itself, are still dates
    static [Symbol.hasInstance](value) {
      return value instanceof RealDate;
    }
  }
  globalThis.Date = ShiftedDate;
  globalThis.__testClockShifted = true;
}
