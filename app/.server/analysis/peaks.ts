/**
 * Waveform peaks for the album sheet's preview and overview (issue #9): the decoded audio is
 * reduced on the fly to the largest absolute sample per 50 ms bin — 24,000 numbers for a
 * 20-minute track — and the bars are drawn from those bins once the length is known.
 */
const BIN_SECONDS = 0.05;

export class PeakBins {
  private readonly binFrames: number;
  private readonly bins: number[] = [];
  private current = 0;
  private filled = 0;

  constructor(sampleRate: number) {
    this.binFrames = Math.max(1, Math.round(sampleRate * BIN_SECONDS));
  }

  push(channelData: Float32Array[]): void {
    const frames = channelData[0].length;
    for (let i = 0; i < frames; i++) {
      for (const ch of channelData) {
        const v = Math.abs(ch[i]);
        if (v > this.current) this.current = v;
      }
      if (++this.filled === this.binFrames) this.flush();
    }
  }

  /**
   * Bars over the first `seconds` of audio: `maxBars` of them, or one per bin when there are
   * fewer bins. Each bar is its bins' peak, 0..1 (clipped), with three decimals.
   */
  bars(seconds: number, maxBars: number): number[] {
    if (this.filled > 0) this.flush();
    const bins = Math.min(this.bins.length, Math.max(1, Math.round(seconds / BIN_SECONDS)));
    const count = Math.min(maxBars, bins);
    const out: number[] = [];
    for (let b = 0; b < count; b++) {
      let peak = 0;
      const end = Math.max(Math.floor(((b + 1) * bins) / count), Math.floor((b * bins) / count) + 1);
      for (let i = Math.floor((b * bins) / count); i < end; i++) peak = Math.max(peak, this.bins[i]);
      out.push(Math.round(Math.min(1, peak) * 1000) / 1000);
    }
    return out;
  }

  private flush() {
    this.bins.push(this.current);
    this.current = 0;
    this.filled = 0;
  }
}
