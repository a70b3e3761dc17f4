import { updateItem, updateTx, type TransactItem } from './db';

/**
 * Numeric ids the product shows (ticket 123) come from one counter item per company and entity.
 * `nextId` takes the next value atomically; `counterTx` lets an insert bump it in its transaction.
 */
const counterKey = (scope: string, entity: string) => ({ pk: scope, sk: `COUNTER#${entity}` });
export const companyScope = (companyId: number) => `C#${companyId}`;
export const GLOBAL_SCOPE = 'GLOBAL';

export async function nextId(scope: string, entity: string, count = 1): Promise<number> {
  const out = await updateItem<{ value: number }>(counterKey(scope, entity), { add: { value: count } });
  return out!.value - count + 1;
}

/** A counter adjustment inside a transaction (for usage counts such as users per company). */
export function counterTx(scope: string, entity: string, delta: number, max?: number): TransactItem {
  return updateTx(counterKey(scope, entity), {
    add: { value: delta },
    ...(max !== undefined && delta > 0
      ? {
          // a missing counter is 0: allowed only under a limit above 0
          condition: max > 0 ? 'attribute_not_exists(#v) OR #v < :max' : '#v < :max',
          conditionNames: { '#v': 'value' },
          conditionValues: { ':max': max },
        }
      : {}),
  });
}
