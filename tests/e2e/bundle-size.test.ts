import { describe, expect, test } from 'vitest';
import { PAGES, defaultDist, describePage, measurePage, readManifest } from '../bench/bundle-size';

/**
 * What a phone downloads before a page shows (issue 25), measured on the build this run serves
 * (WEB_DIST, else web/dist, which `npm run test:e2e` has just built): the entry and the page's route
 * chunks with everything they import statically, JS and CSS, each file gzipped at level 9.
 */
describe('bundle size', () => {
  const dist = defaultDist();
  const manifest = readManifest(dist);

  test(`the login page needs under ${PAGES.login.limitKb} KB of gzipped JS and CSS`, () => {
    const size = measurePage('login', dist, manifest);
    console.log(describePage(size));
    expect(size.total).toBeLessThan(PAGES.login.limitKb * 1024);
  });

  test(`a ticket page (/tickets/:id) needs under ${PAGES.ticket.limitKb} KB of gzipped JS and CSS`, () => {
    const size = measurePage('ticket', dist, manifest);
    console.log(describePage(size));
    expect(size.total).toBeLessThan(PAGES.ticket.limitKb * 1024);
  });
});
