import { describe, expect, it, vi } from 'vitest';

const getItem = vi.fn();
vi.mock('#lib/db', () => ({ getItem: (...args: unknown[]) => getItem(...args), updateItem: vi.fn() }));
const { sentContent } = await import('./sent-store');

describe('sent store', () => {
  it('N10: the content a retry request asks for is read strongly consistent (the request can follow the send at once)', async () => {
    getItem.mockResolvedValueOnce({ content: JSON.stringify({ conversation: 'hi' }) });
    expect(await sentContent(3, 'W1')).toEqual({ conversation: 'hi' });
    expect(getItem).toHaveBeenCalledWith({ pk: 'C#3#WSENT', sk: 'W1' }, { consistent: true });
  });
});
