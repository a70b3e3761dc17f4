import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../config';
import { AppError } from '../errors';
import { closeSearch } from './index';
import { searchMessages, ticketsByWords } from './service';
import type { Viewer } from '../tickets/viewer';

const viewer = { user: { id: 1, queueIds: [], allTicket: 'enabled' }, profile: 'admin' } as unknown as Viewer;

describe('search switched off (AWS without search=on)', () => {
  beforeAll(() => {
    Object.assign(process.env, { TABLE_NAME: 't', MEDIA_BUCKET: 'b', SEARCH: 'off' });
    resetConfig();
    closeSearch();
  });
  afterAll(() => {
    delete process.env.SEARCH;
    resetConfig();
  });

  it('GET /search answers ERR_SEARCH_DISABLED (404)', async () => {
    const err = await searchMessages(1, viewer, { q: 'boleto' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'ERR_SEARCH_DISABLED', status: 404 });
  });

  it("the tickets page's search adds no ticket by words", async () => {
    expect(await ticketsByWords(1, viewer, 'boleto', 20)).toEqual([]);
  });
});
