import { VOLUME_DEFAULT } from '#shared/constants';

/** Small browser-only preferences. */
export const prefs = {
  volume(): number {
    const v = Number(localStorage.getItem('volume'));
    return localStorage.getItem('volume') !== null && Number.isFinite(v) && v >= 0 && v <= 1 ? v : VOLUME_DEFAULT;
  },
  setVolume: (v: number) => localStorage.setItem('volume', String(v)),
  signMessage(): boolean {
    return localStorage.getItem('signOption') !== 'false';
  },
  setSignMessage: (on: boolean) => localStorage.setItem('signOption', String(on)),
};

/** A short two-tone chime through Web Audio (no asset to ship), at the stored volume. */
export function playChime(volume = prefs.volume()) {
  if (volume <= 0 || typeof AudioContext === 'undefined') return;
  try {
    const ctx = new AudioContext();
    const gain = ctx.createGain();
    gain.gain.value = 0.2 * volume;
    gain.connect(ctx.destination);
    [880, 660].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      osc.frequency.value = freq;
      osc.connect(gain);
      osc.start(ctx.currentTime + i * 0.12);
      osc.stop(ctx.currentTime + i * 0.12 + 0.1);
    });
    setTimeout(() => void ctx.close(), 600);
  } catch {
    // sound is a courtesy; never an error
  }
}
