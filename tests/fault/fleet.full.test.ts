import { describe, expect, it } from 'vitest';
import { printFleet, runFleet } from './fleet-scenario';

/**
 * The session fleet (issue 23), scaled down for every test run: 36 simulated sessions on 3 runner
 * processes (36 divides evenly by 3, 2 and 1: every step of the run has an exact fair share), customers writing about 8 messages a second and attendants
 * sending about 3 while one runner is killed (SIGKILL), another is stopped as a deploy does
 * (SIGTERM) and a fourth starts (scale out). The 200-session run is `npx tsx tests/bench/fleet.ts`.
 */
describe('session fleet under faults', () => {
  it('kill -9, SIGTERM and scale out under traffic: no customer message lost or doubled, no send lost or doubled, every session back without a new QR code within 60 s', async () => {
    const result = await runFleet({
      sessions: 36,
      runners: 3,
      chatsPerSession: 2,
      inboundPerSecond: 8,
      sendsPerSecond: 3,
      quietSeconds: 5,
      progress: (line) => console.log(line),
    });
    printFleet(result);
    expect(result.inbound.injected).toBeGreaterThan(300);
    expect(result.inbound).toMatchObject({ lost: 0, doubled: 0 });
    expect(result.inbound.stored).toBe(result.inbound.injected);
    expect(result.sends.posted).toBeGreaterThan(100);
    expect(result.sends).toMatchObject({ lost: 0, doubled: 0 });
    expect(result.notConnected).toEqual([]);
    expect(result.allConnected).toBe(true);
    expect(result.newQrCodes).toBe(0);
    expect(result.longestOutageSeconds).toBeLessThan(60);
    expect(result.recoveredAfterKillSeconds).toBeLessThan(60);
    expect(result.drain.exitCode).toBe(0);
    expect(result.drain.seconds).toBeLessThan(60);
    // the two live runners share the sessions evenly
    expect(result.spread.sort()).toEqual([18, 18]);
    expect(Object.values(result.deadLetters).every((n) => n === 0)).toBe(true);
  }, 900_000);
});
