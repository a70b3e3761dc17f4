import http from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startGateway, staticFile } from './gateway';

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

describe('the local gateway WebSocket lifecycle', () => {
  /** A gateway whose $connect waits until released, recording the $disconnects it gets. */
  async function slowConnectGateway() {
    let release!: () => void;
    const gate = new Promise<void>((done) => {
      release = done;
    });
    const connected: string[] = [];
    const disconnected: string[] = [];
    const gateway = await startGateway({
      port: 0,
      routes: [],
      webConfig: {},
      onSqsSend: () => 'id',
      ws: {
        connect: async (event) => {
          connected.push((event as { requestContext: { connectionId: string } }).requestContext.connectionId);
          await gate;
          return { statusCode: 200 };
        },
        disconnect: async (event) => {
          disconnected.push((event as { requestContext: { connectionId: string } }).requestContext.connectionId);
          return { statusCode: 200 };
        },
        default: async () => ({ statusCode: 200 }),
      },
    });
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
    };
    return { gateway, release, connected, disconnected, until, wsUrl: `${gateway.url.replace('http', 'ws')}/ws` };
  }

  it('a post to a connection whose $connect still runs is refused with 410, as API Gateway does; once open it is delivered', async () => {
    const g = await slowConnectGateway();
    try {
      const client = new WebSocket(g.wsUrl);
      const got: string[] = [];
      client.on('message', (data) => got.push(data.toString()));
      await g.until(() => g.connected.length === 1);
      const post = () => fetch(`${g.gateway.url}/@connections/${g.connected[0]}`, { method: 'POST', body: 'hello' });
      expect((await post()).status).toBe(410);
      g.release();
      await new Promise((done) => client.once('open', done));
      expect((await post()).status).toBe(200);
      await g.until(() => got.length === 1);
      expect(got).toEqual(['hello']);
      client.close();
    } finally {
      await g.gateway.close();
    }
  });

  it('a client that leaves while $connect runs gets its $disconnect, so its saved connection does not linger', async () => {
    const g = await slowConnectGateway();
    try {
      const client = new WebSocket(g.wsUrl);
      client.on('error', () => undefined);
      await g.until(() => g.connected.length === 1);
      client.terminate();
      await new Promise((r) => setTimeout(r, 100));
      g.release();
      await g.until(() => g.disconnected.length === 1);
      expect(g.disconnected).toEqual(g.connected);
      expect(g.gateway.sockets.size).toBe(0);
    } finally {
      await g.gateway.close();
    }
  });
});

describe('the local gateway holds only what API Gateway would', () => {
  const start = (maxConnections?: number) =>
    startGateway({
      port: 0,
      routes: [],
      webConfig: {},
      onSqsSend: () => 'id',
      maxConnections,
      ws: {
        connect: async () => ({ statusCode: 200 }),
        disconnect: async () => ({ statusCode: 200 }),
        default: async () => ({ statusCode: 200 }),
      },
    });

  /** A request whose declared body is larger than what is sent: answered without the rest being read. */
  function post(url: string, declared: number, sent: number) {
    return new Promise<number>((done, fail) => {
      const req = http.request(url, { method: 'POST', headers: { 'content-length': declared } }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      });
      req.on('error', fail);
      req.write(Buffer.alloc(sent));
    });
  }

  it('an upgrade past the connection cap gets 503', async () => {
    const gateway = await start(1);
    const wsUrl = `${gateway.url.replace('http', 'ws')}/ws`;
    try {
      const first = new WebSocket(wsUrl);
      await new Promise((done) => first.once('open', done));
      const second = new WebSocket(wsUrl);
      const refused = await new Promise<number>((done) =>
        second.once('unexpected-response', (_req, res) => done(res.statusCode ?? 0)),
      );
      expect(refused).toBe(503);
      first.close();
    } finally {
      await gateway.close();
    }
  });

  it('a body past the limit is answered 413 before it is all sent (6 MB for the API, 128 KB for a post to a socket)', async () => {
    const gateway = await start();
    try {
      // declared larger: refused at once
      expect(await post(`${gateway.url}/api/anything`, 64 * 1024 * 1024, 1024)).toBe(413);
      // declared within the limit for the API, past it for a socket: the first bytes past 128 KB end it
      expect(await post(`${gateway.url}/@connections/abc`, 1024 * 1024, 256 * 1024)).toBe(413);
    } finally {
      await gateway.close();
    }
  });
});
