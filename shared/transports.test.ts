import { describe, expect, it } from 'vitest';
import { chooseTransport } from './transports';

const now = Date.parse('2030-01-10T12:00:00Z');
const inWindow = new Date(now - 3_600_000).toISOString();
const outOfWindow = new Date(now - 25 * 3_600_000).toISOString();
const dual = (over: Record<string, unknown> = {}) => ({
  provider: 'beta',
  status: 'CONNECTED',
  cloudTransport: { status: 'CONNECTED' },
  ...over,
});

describe('choosing a transport per message', () => {
  it('a connection with one transport always uses it', () => {
    expect(chooseTransport({ provider: 'cloud', status: 'CONNECTED' }, { now, template: false })).toBe('cloud');
    expect(chooseTransport({ provider: 'beta', status: 'DISCONNECTED' }, { now, customerMessageAt: inWindow })).toBe(
      'web',
    );
  });

  it('templates go through the Cloud API, groups and out-of-window free text through WhatsApp Web', () => {
    expect(chooseTransport(dual(), { now, template: true, customerMessageAt: outOfWindow })).toBe('cloud');
    expect(
      chooseTransport(dual({ preferredTransport: 'cloud' }), { now, group: true, customerMessageAt: inWindow }),
    ).toBe('web');
    expect(chooseTransport(dual({ preferredTransport: 'cloud' }), { now, customerMessageAt: outOfWindow })).toBe('web');
    expect(chooseTransport(dual({ preferredTransport: 'cloud' }), { now, customerMessageAt: null })).toBe('web');
  });

  it('in the window: the preferred transport, or the other while the preferred one is down', () => {
    expect(chooseTransport(dual(), { now, customerMessageAt: inWindow })).toBe('web');
    expect(chooseTransport(dual({ preferredTransport: 'cloud' }), { now, customerMessageAt: inWindow })).toBe('cloud');
    expect(chooseTransport(dual({ status: 'DISCONNECTED' }), { now, customerMessageAt: inWindow })).toBe('cloud');
    expect(
      chooseTransport(dual({ preferredTransport: 'cloud', cloudTransport: { status: 'DISCONNECTED' } }), {
        now,
        customerMessageAt: inWindow,
      }),
    ).toBe('web');
    // both down: the preferred one (its queue keeps the send until it is back)
    expect(
      chooseTransport(dual({ status: 'DISCONNECTED', cloudTransport: { status: 'DISCONNECTED' } }), {
        now,
        customerMessageAt: inWindow,
      }),
    ).toBe('web');
  });
});
