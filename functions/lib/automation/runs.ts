/**
 * The run log (issue 40): every run of a rule whose conditions held (and every macro run) is kept
 * twice, newest first:
 * - `C#<cid>#AUTORUN#R#<ruleId>` / `<at>#<runId>`: the rule's runs (GET /automation-rules/{id}/runs);
 * - `C#<cid>#AUTORUN#T#<ticketId>` / `<at>#<runId>`: the ticket's (GET /tickets/{id}/automation-runs),
 *   where macro runs (macroId set) are written too.
 * Both expire after RUN_RETENTION_DAYS (TTL).
 */
import { randomUUID } from 'node:crypto';
import type { AutomationRun } from '#shared/schemas/automation';
import { decodeCursor, encodeCursor } from '../cursor';
import { batchWrite, query, stripKeys } from '../db';
import { publish } from '../realtime';
import { ticketAudience } from '../tickets/events';
import type { Ticket } from '#shared/schemas/tickets';

export const RUN_RETENTION_DAYS = 90;
export const ruleRunsPk = (companyId: number, ruleId: number) => `C#${companyId}#AUTORUN#R#${ruleId}`;
export const ticketRunsPk = (companyId: number, ticketId: number) => `C#${companyId}#AUTORUN#T#${ticketId}`;
const RUNS_PAGE = 50;

export const newRunId = () => randomUUID();

/** Stores a run under its rule (or macro) and its ticket, and tells those who may see the ticket. */
export async function recordRun(run: AutomationRun, ticket: Pick<Ticket, 'id' | 'status' | 'queueId' | 'userId'>) {
  const sk = `${run.at}#${run.id}`;
  const ttl = Math.floor(Date.parse(run.at) / 1000) + RUN_RETENTION_DAYS * 86_400;
  const items = [{ pk: ticketRunsPk(run.companyId, run.ticketId), sk, ...run, ttl }];
  if (run.ruleId !== null) items.push({ pk: ruleRunsPk(run.companyId, run.ruleId), sk, ...run, ttl });
  await batchWrite(items);
  await publish(run.companyId, 'automationRun', { action: 'create', run }, ticketAudience(ticket));
}

async function runsOf(companyId: number, pk: string, cursor?: string) {
  const scope = { pk };
  const result = await query({
    pk,
    forward: false,
    limit: RUNS_PAGE,
    startKey: await decodeCursor(companyId, cursor, scope),
  });
  const runs = result.items.map((i) => {
    const { ttl: _ttl, ...run } = stripKeys(i);
    return run as AutomationRun;
  });
  return { runs, cursor: (await encodeCursor(companyId, result.lastKey, scope)) ?? null };
}

export const listRuleRuns = (companyId: number, ruleId: number, cursor?: string) =>
  runsOf(companyId, ruleRunsPk(companyId, ruleId), cursor);
export const listTicketRuns = (companyId: number, ticketId: number, cursor?: string) =>
  runsOf(companyId, ticketRunsPk(companyId, ticketId), cursor);
