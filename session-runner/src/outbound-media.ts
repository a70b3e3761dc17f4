import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadObject, objectSize } from '#lib/storage';
import { log } from '#lib/log';
import type { ByteBudget } from './byte-budget';
import type { MediaFile } from './provider';

/**
 * Outbound media bytes in flight at once per runner by default: a task of 2 GiB keeps its sessions'
 * memory, and a campaign's video through many connections waits its turn instead of taking it.
 */
export const MEDIA_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

/** A send's media on local disk, its bytes counted in the runner's budget until `discard`. */
export interface HeldMedia extends MediaFile {
  /** removes the file and gives its bytes back; safe to call more than once */
  discard(): Promise<void>;
}

/**
 * The object streamed from storage into a temp file once its size fits the budget (R6 of
 * whatsapp-review-3: a video campaign through many connections no longer holds every video in
 * memory at once). The caller discards it after the send, whatever happened.
 */
export async function holdMedia(key: string, budget: ByteBudget, dir = tmpdir()): Promise<HeldMedia> {
  const size = await objectSize(key);
  const release = await budget.take(size);
  const path = join(dir, `outbound-media-${randomUUID()}`);
  let discarded = false;
  const discard = async () => {
    if (discarded) return;
    discarded = true;
    try {
      await rm(path, { force: true });
    } catch (err) {
      log.warn('removing an outbound media file failed', { path, error: (err as Error).message });
    } finally {
      release();
    }
  };
  try {
    await downloadObject(key, path);
  } catch (err) {
    await discard();
    throw err;
  }
  return { path, size, discard };
}
