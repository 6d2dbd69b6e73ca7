/** product-rules §4 "Audio preview" and §9: previews are 10 seconds long. */
export const PREVIEW_SECONDS = 10;

/** Progress = current time ÷ 10 s, kept within 0…1. */
export function previewProgress(currentTime: number): number {
  if (!Number.isFinite(currentTime) || currentTime <= 0) return 0;
  return Math.min(1, currentTime / PREVIEW_SECONDS);
}

/** The preview stops by itself once 10 s have played. */
export function previewShouldStop(currentTime: number): boolean {
  return Number.isFinite(currentTime) && currentTime >= PREVIEW_SECONDS;
}

/** Percent for aria-valuenow (an integer 0…100). */
export function previewPercent(currentTime: number): number {
  return Math.round(previewProgress(currentTime) * 100);
}

/**
 * Only one preview plays at a time: a player claims the coordinator when it starts, which
 * stops whichever player held it before.
 */
export interface PreviewCoordinator {
  claim(id: string, stop: () => void): void;
  release(id: string): void;
  current(): string | null;
}

export function createPreviewCoordinator(): PreviewCoordinator {
  let holder: { id: string; stop: () => void } | null = null;
  return {
    claim(id, stop) {
      if (holder && holder.id !== id) holder.stop();
      holder = { id, stop };
    },
    release(id) {
      if (holder?.id === id) holder = null;
    },
    current: () => holder?.id ?? null,
  };
}
