import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { staticFile } from './gateway';

describe('the local gateway serves only files inside the web build', () => {
  let parent: string;
  let root: string;

  beforeAll(() => {
    parent = mkdtempSync(join(tmpdir(), 'inbox-static-'));
    root = join(parent, 'dist');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<html></html>');
    writeFileSync(join(root, 'assets', 'app.js'), '');
    // a sibling whose path starts with the root's: `.../dist-evil` begins with `.../dist`
    mkdirSync(join(parent, 'dist-evil'));
    writeFileSync(join(parent, 'dist-evil', 'secret.txt'), 'secret');
    writeFileSync(join(parent, 'secret.txt'), 'secret');
  });

  it('a file of the build is served', () => {
    expect(staticFile(root, '/assets/app.js')).toBe(join(root, 'assets', 'app.js'));
  });

  it('a sibling directory sharing the prefix (dist-evil) is not reachable through encoded slashes', () => {
    expect(staticFile(root, '/..%2fdist-evil%2fsecret.txt')).toBeUndefined();
    expect(staticFile(root, '/%2e%2e%2fdist-evil%2fsecret.txt')).toBeUndefined();
    expect(staticFile(root, '/..%2fsecret.txt')).toBeUndefined();
  });

  it('directories, missing files and malformed encodings fall back (undefined), they do not throw', () => {
    expect(staticFile(root, '/')).toBeUndefined();
    expect(staticFile(root, '/assets')).toBeUndefined();
    expect(staticFile(root, '/tickets/12')).toBeUndefined();
    expect(staticFile(root, '/%E0%A4%A')).toBeUndefined();
  });
});
