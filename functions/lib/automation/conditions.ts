/**
 * Rule conditions as a pure function of the facts about a ticket (no I/O): what the engine, the dry
 * run and macros evaluate. `describeCondition` words a condition for the run log.
 */
import type { AutomationCondition } from '#shared/schemas/automation';
import type { CustomFieldValues } from '#shared/schemas/custom-fields';

/** The longest text a `matches` pattern is tried on (bounds its time whatever the message). */
export const MAX_MATCHED_TEXT = 2_000;

export interface ConditionFacts {
  queueId: number | null;
  whatsappId: number | null;
  tagIds: number[];
  userId: number | null;
  status: string;
  /** within the company's business hours now */
  withinHours: boolean;
  /** the event's customer message, or the ticket's last one */
  messageText: string;
  contactFields: CustomFieldValues;
  ticketFields: CustomFieldValues;
}

/**
 * A pattern refused before it is ever compiled for a message: invalid, a back-reference, a
 * quantified group that itself holds a quantifier or an alternation (`(a+)+`, `(a|a)*`: exponential
 * backtracking), or more than one unbounded quantifier in all (`.*.*x`, `\w*\w*!`: polynomial
 * backtracking, seconds on a long message). Conservative: some safe patterns are refused too.
 */
export function isSafePattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'iu');
  } catch {
    return false;
  }
  // per open group: whether it holds a quantifier or an alternation
  const stack: boolean[] = [];
  let risky = false; // the group just closed
  let inClass = false;
  let unboundedCount = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9k]/.test(next)) return false;
      i++;
      risky = false;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      risky = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      continue;
    }
    const quantifier = c === '*' || c === '+' || c === '?' || c === '{';
    if (quantifier) {
      const unbounded = c === '*' || c === '+' || (c === '{' && /^\{\d*,\}/.test(pattern.slice(i)));
      if (risky && unbounded) return false;
      if (unbounded && ++unboundedCount > 1) return false;
      if (stack.length && unbounded) stack[stack.length - 1] = true;
      if (c === '{') i = Math.max(i, pattern.indexOf('}', i));
      risky = false;
      continue;
    }
    if (c === '(') {
      stack.push(false);
      risky = false;
      continue;
    }
    if (c === '|') {
      if (stack.length) stack[stack.length - 1] = true;
      continue;
    }
    if (c === ')') {
      risky = stack.pop() ?? false;
      // what a group held is held by the group around it
      if (risky && stack.length) stack[stack.length - 1] = true;
      continue;
    }
    risky = false;
  }
  return true;
}

/** Accent- and case-insensitive text for `contains`. */
export const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const compiled = new Map<string, RegExp>();
function patternOf(source: string): RegExp | undefined {
  let re = compiled.get(source);
  if (!re) {
    if (!isSafePattern(source)) return undefined;
    re = new RegExp(source, 'iu');
    if (compiled.size > 1_000) compiled.clear();
    compiled.set(source, re);
  }
  return re;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

function refHolds(op: 'in' | 'not_in' | 'empty' | 'not_empty', have: number[], ids: number[]) {
  switch (op) {
    case 'in':
      return have.some((id) => ids.includes(id));
    case 'not_in':
      return !have.some((id) => ids.includes(id));
    case 'empty':
      return have.length === 0;
    case 'not_empty':
      return have.length > 0;
  }
}

const one = (id: number | null) => (id === null ? [] : [id]);

export function conditionHolds(c: AutomationCondition, f: ConditionFacts): boolean {
  switch (c.type) {
    case 'queue':
      return refHolds(c.op, one(f.queueId), c.ids);
    case 'connection':
      return refHolds(c.op, one(f.whatsappId), c.ids);
    case 'tag':
      return refHolds(c.op, f.tagIds, c.ids);
    case 'assignee':
      return refHolds(c.op, one(f.userId), c.ids);
    case 'status':
      return c.op === 'in' ? c.values.includes(f.status as never) : !c.values.includes(f.status as never);
    case 'business_hours':
      return f.withinHours === c.within;
    case 'message': {
      const text = f.messageText.slice(0, MAX_MATCHED_TEXT);
      if (c.op === 'matches') return patternOf(c.value)?.test(text) ?? false;
      const has = fold(text).includes(fold(c.value));
      return c.op === 'contains' ? has : !has;
    }
    case 'field': {
      const v = (c.entity === 'contact' ? f.contactFields : f.ticketFields)[c.key];
      switch (c.op) {
        case 'empty':
          return isEmpty(v);
        case 'not_empty':
          return !isEmpty(v);
        case 'eq':
          return v === c.value;
        case 'neq':
          return v !== c.value;
        case 'contains':
          return typeof v === 'string' && fold(v).includes(fold(String(c.value ?? '')));
        case 'gt':
        case 'lt': {
          if (isEmpty(v) || c.value === undefined) return false;
          const [a, b] = typeof v === 'number' ? [v, Number(c.value)] : [String(v), String(c.value)];
          return c.op === 'gt' ? a > b : a < b;
        }
      }
    }
  }
  return false;
}

/** Every condition holds (none: always). */
export const conditionsHold = (conditions: AutomationCondition[], facts: ConditionFacts) =>
  conditions.every((c) => conditionHolds(c, facts));

/** A condition as the log words it (`tag in 3,4`, `message contains "preço"`). */
export function describeCondition(c: AutomationCondition): string {
  switch (c.type) {
    case 'queue':
    case 'connection':
    case 'tag':
    case 'assignee':
      return `${c.type} ${c.op}${c.ids.length ? ` ${c.ids.join(',')}` : ''}`;
    case 'status':
      return `status ${c.op} ${c.values.join(',')}`;
    case 'business_hours':
      return c.within ? 'within business hours' : 'outside business hours';
    case 'message':
      return `message ${c.op} ${JSON.stringify(c.value)}`;
    case 'field':
      return `${c.entity}.${c.key} ${c.op}${c.value !== undefined ? ` ${JSON.stringify(c.value)}` : ''}`;
  }
}
