import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type LookupFunction, Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isPublicAddress, postJson, resolvePublicUrl, type Resolve } from './call';

// AWS: company URLs must be public; the local runtime sets PROVIDER_PRIVATE_URLS for its fakes
const env = vi.hoisted(() => ({ providerPrivateUrls: false }));
vi.mock('../config', () => ({ config: () => env }));
afterEach(() => {
  env.providerPrivateUrls = false;
});

const PUBLIC = '93.184.216.34';
/** A resolver that answers `answers[n]` on its n-th call (the last one from then on), counting calls. */
function resolver(...answers: string[][]) {
  const calls: string[] = [];
  const resolve: Resolve = async (hostname) => {
    calls.push(hostname);
    const out = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return out.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

/** A server on 127.0.0.1 that records what reaches it and answers with `answer`. */
async function localServer(answer: (req: IncomingMessage, body: string) => [number, Record<string, string>, string]) {
  const received: { req: IncomingMessage; body: string }[] = [];
  const server: Server = createHttpServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    received.push({ req, body });
    const [status, headers, text] = answer(req, body);
    res.writeHead(status, headers).end(text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, received };
}
const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

const signal = () => AbortSignal.timeout(2000);

describe('outbound URLs of integrations (SSRF)', () => {
  // every spelling below names a loopback, private, link-local, metadata or otherwise non-public address
  const refusedUrls = [
    'http://127.0.0.1/',
    'http://127.1/',
    'http://0177.0.0.1/',
    'http://0x7f.0.0.1/',
    'http://0x7f.1/',
    'http://0x7f000001/',
    'http://2130706433/',
    'http://017700000001/',
    'http://127.0.0.1./',
    'http://%31%32%37.0.0.1/',
    'http://0/',
    'http://0.0.0.0/',
    'http://0.1.2.3/',
    'http://10.0.0.1/',
    'http://012.0.0.1/',
    'http://172.16.0.1/',
    'http://172.31.255.255/',
    'http://192.168.0.1/',
    'http://0xc0a80001/',
    'http://100.64.0.1/',
    'http://100.127.255.254/',
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.43518/',
    'http://0xa9fea9fe/',
    'http://2852039166/',
    'http://0251.0376.0251.0376/',
    'http://192.0.0.1/',
    'http://198.18.0.1/',
    'http://198.19.255.255/',
    'http://224.0.0.1/',
    'http://240.0.0.1/',
    'http://255.255.255.255/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[::127.0.0.1]/',
    'http://[::8.8.8.8]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[64:ff9b::a00:1]/',
    'http://[64:ff9b:1::a00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[2002:a9fe:a9fe::1]/',
    'http://[2002:808:808::1]/',
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'http://[2001:db8::1]/',
    'http://[fc00::1]/',
    'http://[fd12:3456::1]/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://[fe80::1]/',
    'http://[febf::1]/',
    'http://[fec0::1]/',
    'http://[ff02::1]/',
    'http://[100::1]/',
    'https://[::ffff:0:7f00:1]/',
  ];

  it.each(refusedUrls)('a URL naming a non-public address in any spelling is refused, not retried: %s', async (url) => {
    // the resolver would answer a public address: a literal must be judged as the address it spells
    const dns = resolver([PUBLIC]);
    await expect(resolvePublicUrl(url, dns.resolve)).rejects.toMatchObject({
      message: 'URL resolves to a private address',
      retryable: false,
    });
    expect(dns.calls).toEqual([]);
  });

  it('the address classification refuses every IPv4 notation and every IPv6 form that carries one', () => {
    const refused = [
      ...['127.1', '0x7f.1', '0177.0.0.1', '2130706433', '0x7f000001', '169.254.169.254', '0xa9fea9fe'],
      ...['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '::127.0.0.1', '::7f00:1', '::8.8.8.8'],
      ...['64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '::ffff:0:7f00:1', '0000:0000:0000:0000:0000:ffff:7f00:0001'],
      ...['2002:7f00:1::', '2001:0:4136:e378:8000:63bf:3fff:fdd2', 'fd00:ec2::254', 'fe80::1%eth0', 'ff05::1'],
      ...['', 'localhost', 'not an address', '1.2.3.4.5', '::ffff:300.0.0.1'],
    ];
    for (const a of refused) expect(isPublicAddress(a), a).toBe(false);
    const allowed = ['8.8.8.8', '1.1.1.1', '100.128.0.1', '172.32.0.1', '192.0.1.1', '198.20.0.1', PUBLIC];
    for (const a of [...allowed, '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])
      expect(isPublicAddress(a), a).toBe(true);
  });

  it('a name is resolved once and refused when any of its answers is not public', async () => {
    for (const answers of [['10.0.0.5'], [PUBLIC, '127.0.0.1'], ['2606:4700::1', 'fd00:ec2::254'], []]) {
      const dns = resolver(answers);
      await expect(resolvePublicUrl('https://hooks.example.test/x', dns.resolve), answers.join()).rejects.toMatchObject(
        {
          retryable: false,
        },
      );
    }
    const dns = resolver([PUBLIC, '2606:4700::1']);
    const checked = await resolvePublicUrl('https://hooks.example.test/x', dns.resolve);
    expect(checked.addresses.map((a) => a.address)).toEqual([PUBLIC, '2606:4700::1']);
    expect(dns.calls).toEqual(['hooks.example.test']);
  });

  it('only http(s) URLs without credentials; bad input is a ProviderError, never a crash', async () => {
    const dns = resolver([PUBLIC]);
    for (const [url, message] of [
      ['file:///etc/passwd', 'URL not http(s)'],
      ['gopher://hooks.example.test/', 'URL not http(s)'],
      ['not a url', 'invalid URL'],
      ['http://[::1', 'invalid URL'],
      ['http://user:pass@hooks.example.test/', 'URL with credentials'],
    ])
      await expect(resolvePublicUrl(url!, dns.resolve), url).rejects.toMatchObject({ message, retryable: false });
  });

  it('a name that answers a public address to the check and a private one afterwards is never connected to privately', async () => {
    const hook = await localServer(() => [200, {}, '{}']);
    // `localhost` also reaches the local server through the system's own resolver: no second lookup of any kind
    const dns = resolver([PUBLIC], ['127.0.0.1']);
    // Nothing leaves the machine: the socket's connect is stopped after asking its name lookup where it
    // would go (the pinned answer), so the test sees the address without dialling the public one.
    const dialled: string[] = [];
    const connect = vi.spyOn(Socket.prototype, 'connect').mockImplementation(function (
      this: Socket,
      ...args: unknown[]
    ) {
      // net.createConnection hands connect its normalized arguments: [options, callback]
      const options = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { host?: string; lookup?: LookupFunction };
      const lookup = options.lookup ?? ((_h, _o, cb) => cb(null, options.host ?? '', 4));
      lookup(options.host ?? '', { all: false }, (_err, address) => {
        dialled.push(String(address));
        process.nextTick(() => this.destroy(new Error('connect stopped by the test')));
      });
      return this;
    });
    try {
      await expect(
        postJson(`http://localhost:${hook.port}/hook`, { event: 'x' }, AbortSignal.timeout(1000), {}, dns.resolve),
      ).rejects.toThrow();
    } finally {
      connect.mockRestore();
    }
    expect(dns.calls).toEqual(['localhost']);
    expect(dialled).toEqual([PUBLIC]);
    expect(hook.received).toEqual([]);
  });

  it('the request goes to the checked address with the URL host in Host (local fakes, PROVIDER_PRIVATE_URLS)', async () => {
    env.providerPrivateUrls = true;
    const hook = await localServer(() => [200, { 'content-type': 'application/json' }, '{"reply":"ok"}']);
    const dns = resolver(['127.0.0.1'], [PUBLIC]);
    const out = await postJson(`http://hooks.example.test:${hook.port}/x?y=1`, { a: 1 }, signal(), {}, dns.resolve);
    expect(out).toEqual({ reply: 'ok' });
    expect(dns.calls).toEqual(['hooks.example.test']);
    expect(hook.received).toHaveLength(1);
    const [{ req, body }] = hook.received as [{ req: IncomingMessage; body: string }];
    expect(req.headers.host).toBe(`hooks.example.test:${hook.port}`);
    expect(req.url).toBe('/x?y=1');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(body)).toEqual({ a: 1 });
  });

  it('TLS names the URL host (SNI) while connecting to the checked address', async () => {
    env.providerPrivateUrls = true;
    let hello = '';
    const tcp = createTcpServer((socket) =>
      socket.once('data', (chunk) => {
        hello = chunk.toString('latin1');
        socket.destroy();
      }),
    );
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    servers.push(tcp);
    const port = (tcp.address() as AddressInfo).port;
    const dns = resolver(['127.0.0.1']);
    await expect(postJson(`https://typebot.example.test:${port}/`, {}, signal(), {}, dns.resolve)).rejects.toThrow();
    expect(hello).toContain('typebot.example.test');
  });

  it('a redirect is refused, not followed, and not retried', async () => {
    env.providerPrivateUrls = true;
    const target = await localServer(() => [200, {}, '{}']);
    const hook = await localServer(() => [302, { location: `http://127.0.0.1:${target.port}/meta` }, '']);
    await expect(
      postJson(`http://127.0.0.1:${hook.port}/`, {}, signal(), {}, resolver([]).resolve),
    ).rejects.toMatchObject({ message: 'redirect refused (HTTP 302)', retryable: false, status: 302 });
    expect(hook.received).toHaveLength(1);
    expect(target.received).toEqual([]);
  });

  it('multipart FormData travels with its boundary; a non-2xx answer carries its status', async () => {
    env.providerPrivateUrls = true;
    const ai = await localServer(() => [503, {}, 'busy']);
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'audio/ogg' }), 'voice.ogg');
    await expect(postJson(`http://127.0.0.1:${ai.port}/audio`, form, signal())).rejects.toMatchObject({
      status: 503,
      retryable: true,
    });
    const [{ req, body }] = ai.received as [{ req: IncomingMessage; body: string }];
    const parsed = await new Response(body, { headers: { 'content-type': req.headers['content-type']! } }).formData();
    expect(parsed.get('model')).toBe('whisper-1');
    expect((parsed.get('file') as File).name).toBe('voice.ogg');
  });
});
