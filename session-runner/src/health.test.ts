import { describe, it, expect } from 'vitest';
import { decideClose } from './close-policy';
import { disconnectReason, metricsLine, SessionHealth, stoppedLine } from './health';

describe('session health', () => {
  it('every close code the close policy acts on has a plain reason; unknown codes say unknown', () => {
    expect(disconnectReason(401)).toBe('loggedOut');
    expect(disconnectReason(403)).toBe('forbidden');
    expect(disconnectReason(406)).toBe('banned');
    expect(disconnectReason(402)).toBe('tempBanned');
    expect(disconnectReason(405)).toBe('clientTooOld');
    expect(disconnectReason(409)).toBe('badUserAgent');
    expect(disconnectReason(411)).toBe('multiDeviceMismatch');
    expect(disconnectReason(440)).toBe('replaced');
    expect(disconnectReason(408)).toBe('timedOut');
    expect(disconnectReason(428)).toBe('connectionLost');
    expect(disconnectReason(undefined)).toBe('connectionLost');
    expect(disconnectReason(undefined, true)).toBe('qrExpired');
    expect(disconnectReason(499)).toBe('unknown');
    // the codes that stop a session are never left unexplained
    for (const code of [401, 402, 403, 406, 409, 411]) {
      expect(decideClose({ code, attempt: 0, replaced: 0, versionRefusals: 1 }).action).not.toBe('reconnect');
      expect(disconnectReason(code)).not.toBe('unknown');
    }
    // 405 keeps trying (R7), and its lastDisconnect still says why
    expect(disconnectReason(405)).toBe('clientTooOld');
  });

  it('traffic, probes and closes are stamped with the injected clock; 515 after a scan is neither a disconnect nor a reconnect', () => {
    let now = Date.parse('2030-01-01T00:00:00.000Z');
    const h = new SessionHealth(() => now);
    now += 1000;
    h.inbound();
    now += 1000;
    h.outbound();
    now += 1000;
    h.ack();
    h.probeAnswered(42);
    h.closed(515, { reconnecting: true });
    expect(h.snapshot()).toMatchObject({
      since: '2030-01-01T00:00:00.000Z',
      lastInboundAt: '2030-01-01T00:00:01.000Z',
      lastOutboundAt: '2030-01-01T00:00:02.000Z',
      lastAckAt: '2030-01-01T00:00:03.000Z',
      lastProbeAt: '2030-01-01T00:00:03.000Z',
      probeMs: 42,
      reconnects: 0,
      zombieRestarts: 0,
    });
    expect(h.snapshot().lastDisconnect).toBeUndefined();
    now += 1000;
    h.closed(428, { reconnecting: true });
    h.closed(401, { reconnecting: false });
    expect(h.snapshot()).toMatchObject({
      reconnects: 1,
      lastDisconnect: { reason: 'loggedOut', code: 401, at: '2030-01-01T00:00:04.000Z' },
    });
  });

  it('a socket is a zombie only after the configured number of unanswered probes in a row', () => {
    const h = new SessionHealth();
    expect(h.probeFailed(2)).toBe(false);
    h.probeAnswered(5);
    expect(h.probeFailed(2)).toBe(false);
    expect(h.probeFailed(2)).toBe(true);
    h.restartedSilent();
    expect(h.failedProbes).toBe(0);
    expect(h.snapshot()).toMatchObject({ reconnects: 1, zombieRestarts: 1, lastDisconnect: { reason: 'silent' } });
    expect(h.snapshot().undecryptable).toBeUndefined();
    h.couldNotDecrypt();
    h.couldNotDecrypt();
    expect(h.snapshot().undecryptable).toBe(2);
  });

  it('the metrics line is CloudWatch Embedded Metric Format: every value declared under one namespace and dimension', () => {
    const line = JSON.parse(
      metricsLine(
        {
          held: 5,
          connected: 3,
          down: 1,
          silent: 1,
          unhealthyLong: 1,
          reconnects: 2,
          zombieRestarts: 1,
          undecryptable: 3,
          probeMsMax: 120,
        },
        1_000,
      ),
    );
    const [directive] = line._aws.CloudWatchMetrics;
    expect(line._aws.Timestamp).toBe(1_000);
    expect(directive.Namespace).toBe('Inbox/Sessions');
    expect(directive.Dimensions).toEqual([['Service']]);
    expect(line.Service).toBe('session-runner');
    for (const { Name } of directive.Metrics) expect(typeof line[Name]).toBe('number');
    expect(line.SessionsUnhealthy).toBe(2);
    expect(line.SessionsHeld).toBe(5);
    expect(directive.Metrics.map((m: { Name: string }) => m.Name)).toContain('ProbeMsMax');
    expect(line.Undecryptable).toBe(3);
  });

  it('N6: a stopped session is a SessionsStopped count of its own, by service and by reason', () => {
    const line = JSON.parse(stoppedLine('banned', 2_000));
    const [directive] = line._aws.CloudWatchMetrics;
    expect(directive.Dimensions).toEqual([['Service'], ['Service', 'Reason']]);
    expect(directive.Metrics).toEqual([{ Name: 'SessionsStopped', Unit: 'Count' }]);
    expect(line).toMatchObject({ Service: 'session-runner', Reason: 'banned', SessionsStopped: 1 });
  });
});
