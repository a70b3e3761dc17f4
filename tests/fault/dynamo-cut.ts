/**
 * A TCP proxy between one session runner and DynamoDB Local that the test can cut and heal: the
 * network partition of R1 (whatsapp-review-3). While cut, connections are accepted and nothing
 * passes either way; what the runner sent meanwhile is held, and delivered when the cut heals,
 * even for a request the runner gave up on long before (packets that arrive late, as after a
 * partition). So a write the runner started while it still held a session reaches the table after
 * another runner took the session over: exactly the write the holder check must refuse.
 */
import { createServer, type Socket, connect } from 'node:net';

/** One request held during the cut, and what DynamoDB answered once it was delivered. */
export interface LateRequest {
  /** the DynamoDB operation (`TransactWriteItems`, `PutItem` ...) */
  operation: string;
  /** it writes a session's auth items (partition `C#<cid>#WAUTH#<wid>`) */
  authWrite: boolean;
  /** the answer's status and DynamoDB's error type, once it came */
  status?: number;
  error?: string;
}

export interface CutProxy {
  /** what the runner takes as DYNAMODB_ENDPOINT */
  endpoint: string;
  cut(): void;
  heal(): void;
  /** the requests held during the cuts so far, with DynamoDB's answers as they come */
  late(): LateRequest[];
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  upstream?: Socket;
  /** bytes held during a cut, each way */
  toUpstream: Buffer[];
  toClient: Buffer[];
  /** requests this link held during a cut, in order: the answers that follow are theirs */
  late: LateRequest[];
  answers: string;
  clientGone: boolean;
}

/** `target()`: DynamoDB's address (`http://host:port`), read when the first connection comes. */
export async function startCutProxy(target: () => string): Promise<CutProxy> {
  let isCut = false;
  const links = new Set<Link>();
  const late: LateRequest[] = [];

  /** the requests in what a link held (split over chunks as they came) */
  const record = (link: Link, held: Buffer) => {
    for (const head of held.toString('latin1').split(/(?=POST \/ HTTP\/1\.1\r\n)/)) {
      if (!head.startsWith('POST ')) continue;
      const operation = /x-amz-target: DynamoDB_\d+\.(\w+)/i.exec(head)?.[1] ?? 'unknown';
      const request: LateRequest = {
        operation,
        authWrite: /Write|Put|Update|Delete/.test(operation) && head.includes('#WAUTH#'),
      };
      link.late.push(request);
      late.push(request);
    }
  };
  const readAnswers = (link: Link, data: Buffer) => {
    // read again from the start each time: an answer may come in pieces
    if (link.answers.length < 1_000_000) link.answers += data.toString('latin1');
    const parts = link.answers.split(/(?=HTTP\/1\.1 \d{3} )/).filter((p) => p.startsWith('HTTP/1.1 '));
    link.late.forEach((request, i) => {
      const part = parts[i];
      if (!part) return;
      request.status = Number(part.slice(9, 12));
      request.error = /"__type":"[^"]*#(\w+)"/.exec(part)?.[1];
    });
  };

  const open = (link: Link) => {
    const { hostname, port } = new URL(target());
    const upstream = connect(Number(port), hostname);
    link.upstream = upstream;
    upstream.on('data', (data) => {
      if (link.late.length) readAnswers(link, data);
      if (isCut) link.toClient.push(data);
      else if (!link.clientGone) link.client.write(data);
    });
    upstream.on('error', () => link.client.destroy());
    upstream.on('close', () => {
      links.delete(link);
      link.client.destroy();
    });
  };

  const server = createServer((client) => {
    const link: Link = { client, toUpstream: [], toClient: [], late: [], answers: '', clientGone: false };
    links.add(link);
    if (!isCut) open(link);
    client.on('data', (data) => {
      if (isCut) link.toUpstream.push(data);
      else link.upstream!.write(data);
    });
    client.on('error', () => undefined);
    client.on('close', () => {
      link.clientGone = true;
      // a request held during the cut still goes when the cut heals; its answer is read, not passed on
      if (link.toUpstream.length || link.late.length) return;
      link.upstream?.end();
      if (!link.upstream) links.delete(link);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as { port: number };

  return {
    endpoint: `http://127.0.0.1:${port}`,
    cut() {
      isCut = true;
    },
    heal() {
      isCut = false;
      for (const link of links) {
        const held = Buffer.concat(link.toUpstream.splice(0));
        if (held.length) record(link, held);
        if (!link.upstream) {
          if (link.clientGone && !held.length) {
            links.delete(link);
            continue;
          }
          open(link);
        }
        if (held.length) link.upstream!.write(held);
        for (const data of link.toClient.splice(0)) if (!link.clientGone) link.client.write(data);
      }
    },
    late: () => late,
    async close() {
      for (const link of links) {
        link.client.destroy();
        link.upstream?.destroy();
      }
      await new Promise<void>((closed) => server.close(() => closed()));
    },
  };
}
