/**
 * The session fleet at full size (issue 23): 200 simulated sessions on 3 runner processes,
 * customers writing and attendants sending while one runner is killed (SIGKILL), another stopped as
 * a deploy does (SIGTERM) and a fourth started (scale out). Prints what was lost or doubled, whether
 * every session came back without a new QR code, the longest outage and the RSS of each runner;
 * exits 1 when anything was lost, doubled or not back in time.
 *   npx tsx tests/bench/fleet.ts [sessions] [inbound/s] [sends/s]      (or npm run bench -- fleet)
 * The scaled-down run is part of the CI fault suite (tests/fault/fleet.full.test.ts, `npm run test:fault-full`).
 */
import { printFleet, runFleet } from '../fault/fleet-scenario';

const [sessions, inboundPerSecond, sendsPerSecond] = [
  Number(process.argv[2] ?? 200),
  Number(process.argv[3] ?? 50),
  Number(process.argv[4] ?? 10),
];
const result = await runFleet({
  sessions,
  runners: 3,
  chatsPerSession: 2,
  inboundPerSecond,
  sendsPerSecond,
  quietSeconds: 10,
  progress: (line) => console.log(line),
});
console.log(JSON.stringify(result, null, 2));
printFleet(result);
const bad =
  result.inbound.lost +
  result.inbound.doubled +
  result.sends.lost +
  result.sends.doubled +
  result.newQrCodes +
  Object.values(result.deadLetters).reduce((a, b) => a + b, 0);
process.exit(bad === 0 && result.allConnected && result.longestOutageSeconds < 60 ? 0 : 1);
