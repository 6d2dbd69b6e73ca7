import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { cn } from "~/lib/cn";
import {
  createPreviewCoordinator,
  PREVIEW_SECONDS,
  previewPercent,
  previewProgress,
  previewShouldStop,
} from "~/lib/catalog/preview";
import { WAVEFORM_HEIGHT, WAVEFORM_WIDTH, waveformPath } from "~/lib/catalog/waveform";

/** product-rules §4: only one preview plays at a time, across every player on the page. */
const coordinator = createPreviewCoordinator();

const blockContextMenu = (event: React.MouseEvent) => event.preventDefault();

/**
 * The preview clip's waveform from the server's peaks (issue #9; no audio is decoded here):
 * one path of bars. At rest (progress 0, which is how every row is served) the path takes its
 * colour from app.css (`.wave > svg`), so a row carries one drawing of two elements (ADR 0121);
 * playing, a gradient with a hard stop colours it up to the progress, so progress moves one
 * attribute, not a second copy of the path.
 */
function Waveform({ peaks, progress }: { peaks: readonly number[]; progress: number }) {
  const gradient = `waveform${useId().replace(/[^\w-]/g, "")}`;
  const d = useMemo(() => waveformPath(peaks), [peaks]);
  return (
    <svg viewBox={`0 0 ${WAVEFORM_WIDTH} ${WAVEFORM_HEIGHT}`} preserveAspectRatio="none" aria-hidden="true">
      {progress > 0 ? (
        <defs>
          <linearGradient id={gradient} gradientUnits="userSpaceOnUse" x1="0" y1="0" x2={WAVEFORM_WIDTH} y2="0">
            <stop offset="0" stopColor="#ff8a5c" />
            <stop offset={progress} stopColor="#ff5c8d" />
            <stop offset={progress} stopColor="#ffffff" stopOpacity="0.35" />
          </linearGradient>
        </defs>
      ) : null}
      <path d={d} stroke={progress > 0 ? `url(#${gradient})` : undefined} />
    </svg>
  );
}

/** Progress follows every frame, except for visitors who ask for reduced motion: then it steps by whole seconds. */
const reducedMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * Playing one preview: Play always starts at 0, the preview stops by itself at 10 s, and
 * claiming the page-wide coordinator stops any other. `time` is the position shown.
 */
function usePreviewPlayback() {
  const id = useId();
  const audioRef = useRef<HTMLAudioElement>(null);
  const frame = useRef<number>(0);
  const steps = useRef(false);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [failed, setFailed] = useState(false);

  const stopFrames = () => cancelAnimationFrame(frame.current);

  const stop = useCallback(() => {
    stopFrames();
    const audio = audioRef.current;
    if (audio) {
      audio.pause();
      audio.currentTime = 0;
    }
    setPlaying(false);
    setTime(0);
    coordinator.release(id);
  }, [id]);

  // Progress and the 10-second stop follow every frame while playing; `timeupdate` alone
  // fires only about 4 times a second.
  function followPlayback() {
    const audio = audioRef.current;
    if (!audio) return;
    if (previewShouldStop(audio.currentTime)) {
      stop();
      return;
    }
    setTime(steps.current ? Math.floor(audio.currentTime) : audio.currentTime);
    frame.current = requestAnimationFrame(followPlayback);
  }

  const play = async () => {
    const audio = audioRef.current;
    if (!audio) return;
    coordinator.claim(id, stop);
    steps.current = reducedMotion();
    audio.currentTime = 0;
    setTime(0);
    try {
      await audio.play();
      setPlaying(true);
      stopFrames();
      frame.current = requestAnimationFrame(followPlayback);
    } catch (error) {
      // a newer play/pause interrupted this one: not a failure
      if ((error as DOMException)?.name !== "AbortError") setFailed(true);
      coordinator.release(id);
    }
  };

  const pause = () => {
    stopFrames();
    audioRef.current?.pause();
    setPlaying(false);
    coordinator.release(id);
  };

  useEffect(() => () => {
    cancelAnimationFrame(frame.current);
    if (coordinator.current() === id) coordinator.release(id);
    audioRef.current?.pause();
  }, [id]);

  /** the audio has no source it can play (a missing file): the button is disabled */
  const onError = () => {
    if (audioRef.current?.networkState === HTMLMediaElement.NETWORK_NO_SOURCE) setFailed(true);
  };

  return { audioRef, playing, time, failed, play, pause, stop, onError };
}

/**
 * Progress = current time ÷ 10 s: over the clip's waveform when the server has its peaks, else a
 * bar. aria-valuemin and aria-valuemax are left at a progressbar's defaults, 0 and 100 (WAI-ARIA).
 */
function PreviewProgress({ track, time, peaks }: { track: string; time: number; peaks?: readonly number[] }) {
  return (
    <div
      role="progressbar"
      aria-label={`Preview progress of ${track}`}
      aria-valuenow={previewPercent(time)}
      aria-valuetext={`${shownSeconds(time)} of ${PREVIEW_SECONDS} seconds`}
      data-waveform={peaks?.length ? "" : undefined}
      className={peaks?.length ? "wave" : "relative h-1.5 min-w-16 flex-1 overflow-hidden rounded-full bg-white/15"}
    >
      {peaks?.length ? (
        <Waveform peaks={peaks} progress={previewProgress(time)} />
      ) : (
        <div
          className="absolute inset-y-0 left-0 rounded-full bg-[linear-gradient(90deg,#ff8a5c,#ff5c8d)]"
          style={{ width: `${previewProgress(time) * 100}%` }}
        />
      )}
    </div>
  );
}

const shownSeconds = (time: number) => Math.min(PREVIEW_SECONDS, Math.floor(time));

/**
 * product-rules §4 "Audio preview": a 10-second preview. Play always starts at 0 and the preview stops
 * by itself at 10 s; the button toggles pause. Progress = current time ÷ 10 s. The
 * right-click menu on the audio is blocked (it would offer "Save audio as…").
 */
export function AudioPreview({ src, track, peaks, className }: { src: string; track: string; peaks?: readonly number[]; className?: string }) {
  const { audioRef, playing, time, failed, play, pause, stop, onError } = usePreviewPlayback();
  const label = playing ? `Pause preview of ${track}` : `Play preview of ${track}`;

  return (
    <div className={cn("preview", className)} onContextMenu={blockContextMenu} data-preview-state={playing ? "playing" : "stopped"}>
      {/* its look and Play/Pause icon are CSS (.preview-button, data-preview-state: app.css, ADR 0121) */}
      <button
        type="button"
        onClick={playing ? pause : play}
        disabled={failed}
        aria-label={label}
        // the tooltip names the action; the accessible name adds the track (ADR 0121: as the shortlist button)
        title={failed ? "Audio preview not available" : playing ? "Pause preview" : "Play preview"}
        className="preview-button"
      />
      <PreviewProgress track={track} time={time} peaks={peaks} />
      <span className="preview-time" aria-hidden="true">
        {`0:${String(shownSeconds(time)).padStart(2, "0")}`}
      </span>
      {failed ? <span className="sr-only">Audio preview not available</span> : null}
      <audio ref={audioRef} src={src} preload="none" onContextMenu={blockContextMenu} onEnded={stop} onError={onError} />
    </div>
  );
}
