import { describe, expect, it } from 'vitest';
import { afterAnswer, settleBeforeFreeze } from './after-answer';

describe('work after the answer', () => {
  it('on Lambda the handler ends only once the work has; a long-lived process does not wait', async () => {
    let release!: () => void;
    let done = false;
    afterAnswer('test', async () => {
      await new Promise<void>((r) => {
        release = r;
      });
      done = true;
    });
    // outside Lambda: nothing waited for
    await settleBeforeFreeze({});
    expect(done).toBe(false);
    // on Lambda: waits until the work ends
    const settled = settleBeforeFreeze({ AWS_LAMBDA_FUNCTION_NAME: 'api-messages' });
    let waited = false;
    void settled.then(() => {
      waited = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(waited).toBe(false);
    release();
    await settled;
    expect(done).toBe(true);
  });
});
