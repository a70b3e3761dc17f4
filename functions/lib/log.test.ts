import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('./config', () => ({ config: () => ({ logLevel: 'info' }) }));
const { log, setLogContext, withLogContext } = await import('./log');

describe('log context', () => {
  afterEach(() => vi.restoreAllMocks());

  it('concurrent units of work keep their own requestId and companyId (no module-global context)', async () => {
    const lines: Record<string, unknown>[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(JSON.parse(String(chunk)));
      return true;
    });
    const tick = () => new Promise((r) => setTimeout(r, 5));
    const unit = (requestId: string, companyId: number) =>
      withLogContext({ requestId }, async () => {
        await tick();
        setLogContext({ companyId });
        await tick();
        log.info('request', { step: 'end' });
      });
    await Promise.all([unit('a', 1), unit('b', 2), unit('c', 3)]);
    expect(lines.map((l) => [l.requestId, l.companyId]).sort()).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
  });
});
