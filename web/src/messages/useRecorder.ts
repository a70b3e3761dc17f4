import { useCallback, useRef, useState } from 'react';
import { AUDIO_BITRATE } from '#shared/constants';
import { audioExtension, keepRecording, pickAudioType } from './composer-rules';

export type RecorderState = 'idle' | 'recording';

/**
 * Audio recording: idle -> recording -> sent or cancelled (2.6). MediaRecorder at 128 kbps; mp3
 * when the browser records it, otherwise its supported type (see pickAudioType). Recordings under
 * 10000 bytes are discarded.
 */
export function useRecorder() {
  const [state, setState] = useState<RecorderState>('idle');
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);

  const start = useCallback(async () => {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const mimeType = pickAudioType((t) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(t));
    const rec = new MediaRecorder(stream, { mimeType, audioBitsPerSecond: AUDIO_BITRATE * 1000 });
    chunks.current = [];
    rec.ondataavailable = (e) => e.data.size && chunks.current.push(e.data);
    rec.start();
    recorder.current = rec;
    setState('recording');
  }, []);

  const finish = useCallback(
    (keep: boolean) =>
      new Promise<{ blob: Blob; fileName: string } | null | 'tooShort'>((resolve) => {
        const rec = recorder.current;
        if (!rec) return resolve(null);
        rec.onstop = () => {
          for (const tr of rec.stream.getTracks()) tr.stop();
          recorder.current = null;
          setState('idle');
          if (!keep) return resolve(null);
          const type = rec.mimeType || 'audio/webm';
          const blob = new Blob(chunks.current, { type });
          if (!keepRecording(blob.size)) return resolve('tooShort');
          resolve({ blob, fileName: `audio-${Date.now()}.${audioExtension(type)}` });
        };
        rec.stop();
      }),
    [],
  );

  return { state, start, stop: () => finish(true), cancel: () => finish(false) };
}
