/**
 * Fault injection at full size (issue 15): 20,000 inbound messages from 500 chats and 2,000
 * outbound sends through the local stack, the session runner killed (SIGKILL) and restarted twice in
 * each phase, the inbound consumer failing 5% of its records at random. Prints what was lost,
 * doubled or out of order (all zero when delivery holds), the dead-letter depths and the time.
 *   npx tsx tests/bench/fault-injection.ts [inbound] [chats] [outbound] [failRate] [kills]
 * The scaled-down run is part of `npm test` (tests/fault/fault-injection.test.ts).
 */
import { runFaultInjection } from '../fault/scenario';

const [inbound, chats, outbound, failRate, kills] = [
  Number(process.argv[2] ?? 20_000),
  Number(process.argv[3] ?? 500),
  Number(process.argv[4] ?? 2_000),
  Number(process.argv[5] ?? 0.05),
  Number(process.argv[6] ?? 2),
];
const started = Date.now();
const result = await runFaultInjection({
  inbound,
  chats,
  outbound,
  failRate,
  kills,
  progress: (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${line}`),
});
console.log(JSON.stringify({ ...result, totalSeconds: (Date.now() - started) / 1000 }, null, 2));
const bad =
  result.inbound.lost +
  result.inbound.doubled +
  result.inbound.chatsOutOfOrder +
  result.inbound.contactsWithoutOneOpenTicket +
  result.outbound.lost +
  result.outbound.doubled +
  result.outbound.storedWrong +
  Object.values(result.deadLetters).reduce((a, b) => a + b, 0);
process.exit(bad === 0 ? 0 : 1);
