import { describe, expect, test } from 'vitest';
import type { Plan } from '#shared/schemas/accounts';
import { CheckoutBody } from '#shared/schemas/billing';
import { checkoutPayload, checkoutTotal, emptyCheckoutData, FIRST_STEP, stepErrors } from './checkout';

const plan: Plan = {
  id: 2,
  name: 'Pro',
  users: 10,
  connections: 3,
  queues: 5,
  value: 99.9,
  useCampaigns: true,
  useKanban: true,
  useOpenAi: false,
  useIntegrations: false,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: false,
};
const filled = {
  ...emptyCheckoutData(),
  firstName: 'Ana Souza',
  address2: 'Rua A, 10',
  city: 'Recife',
  zipcode: '50000-000',
  country: 'BR',
};

describe('checkout (management.md 4 and 5)', () => {
  test('the dialog starts at step 1, the plan', () => {
    expect(FIRST_STEP).toBe(1);
  });

  test('step 0 requires firstName, address, city, zipcode and country', () => {
    expect(Object.keys(stepErrors(0, emptyCheckoutData(), plan)).sort()).toEqual([
      'address2',
      'city',
      'firstName',
      'zipcode',
    ]);
    expect(stepErrors(0, { ...filled, country: '' }, plan)).toEqual({ country: 'country' });
    expect(stepErrors(0, { ...filled, city: '   ' }, plan)).toEqual({ city: 'city' });
    expect(stepErrors(0, filled, plan)).toEqual({});
  });

  test('lastName and state are optional', () => {
    expect(stepErrors(0, { ...filled, lastName: '', state: '' }, plan)).toEqual({});
  });

  test('step 1 requires a plan; review has nothing left to check', () => {
    expect(stepErrors(1, filled, null)).toEqual({ plan: 'plan' });
    expect(stepErrors(1, emptyCheckoutData(), plan)).toEqual({});
    expect(stepErrors(2, emptyCheckoutData(), plan)).toEqual({});
  });

  test('the payload carries the plan as JSON of users, connections and price, and the invoice; the server schema accepts it', () => {
    const body = checkoutPayload(filled, plan, { id: 41 });
    expect(body.invoiceId).toBe(41);
    expect(JSON.parse(String(body.plan))).toEqual({ users: 10, connections: 3, price: 99.9, planId: 2 });
    expect(body).toMatchObject({ price: 99.9, users: 10, connections: 3, firstName: 'Ana Souza' });
    const parsed = CheckoutBody.parse(body);
    expect(parsed.invoiceId).toBe(41);
    expect(parsed.plan).toMatchObject({ users: 10, connections: 3, price: 99.9 });
  });

  test('the total shown is the invoice value when paying an invoice', () => {
    expect(checkoutTotal(plan, { value: 49 })).toBe(49);
    expect(checkoutTotal(plan, null)).toBe(99.9);
    expect(checkoutTotal(null, null)).toBe(0);
  });
});
