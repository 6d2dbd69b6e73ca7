import { Upload } from "~/components/ui/icons/upload";
import { useId, useRef, useState } from "react";

/** Bars of the chosen file's waveform. */
const BARS = 160;

/**
 * The chosen file's waveform, decoded by the browser's own Web Audio (nothing is sent until
 * "Find"): BARS peaks scaled to the loudest, and the length. Null when the browser cannot
 * decode it (the server says what it makes of it).
 */
async function decodePeaks(file: File): Promise<{ peaks: number[]; duration: number } | null> {
  try {
    const context = new AudioContext();
    const audio = await context.decodeAudioData(await file.arrayBuffer());
    void context.close();
    const data = audio.getChannelData(0);
    const step = Math.max(1, Math.floor(data.length / BARS));
    const bars: number[] = [];
    for (let b = 0; b < BARS; b++) {
      let peak = 0;
      for (let i = b * step; i < Math.min(data.length, (b + 1) * step); i++) peak = Math.max(peak, Math.abs(data[i]));
      bars.push(peak);
    }
    const top = Math.max(...bars) || 1;
    return { peaks: bars.map((v) => v / top), duration: audio.duration };
  } catch {
    return null;
  }
}

type Progress = number | "analysing" | null;

/**
 * Posts the form with XMLHttpRequest, whose upload reports progress (fetch's does not), and
 * follows the answer as the browser would: the results page, or the reason from the answer's
 * alert shown above the form.
 */
function useUpload(form: React.RefObject<HTMLFormElement | null>, error: string | null) {
  const [progress, setProgress] = useState<Progress>(null);
  const [message, setMessage] = useState(error);
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    const el = form.current;
    if (!el || typeof XMLHttpRequest === "undefined") return;
    event.preventDefault();
    setMessage(null);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", el.action);
    xhr.upload.onprogress = (e) => e.lengthComputable && setProgress(e.loaded / e.total);
    xhr.upload.onload = () => setProgress("analysing");
    xhr.onload = () => {
      // the 303 was followed: the results page
      if (xhr.status === 200 && new URL(xhr.responseURL).pathname === "/catalog") return void window.location.assign(xhr.responseURL);
      setProgress(null);
      const alert = new DOMParser().parseFromString(xhr.responseText, "text/html").querySelector('[role="alert"]');
      setMessage(alert?.textContent ?? `The file could not be sent (${xhr.status}). Please try again.`);
    };
    xhr.onerror = () => {
      setProgress(null);
      setMessage("The connection was lost while sending the file. Please try again.");
    };
    xhr.send(new FormData(el));
  };
  return { progress, message, submit };
}

/** The file's waveform, the section compared highlighted (the first 3 minutes unless one is chosen). */
function FileWaveform({ peaks, duration, section }: { peaks: number[]; duration: number; section: Section }) {
  const start = Number(section.start) || 0;
  const end = Number(section.end) || Math.min(duration, start + 180);
  return (
    <svg viewBox={`0 0 ${BARS} 40`} preserveAspectRatio="none" className="h-16 w-full" role="img" aria-label={`Waveform of the file, ${Math.round(duration)} seconds; the section compared is highlighted`}>
      {peaks.map((p, b) => {
        const t = (b / BARS) * duration;
        const inside = t >= start && t < end;
        return <rect key={b} x={b + 0.15} width={0.7} y={20 - p * 19} height={Math.max(0.5, p * 38)} fill={inside ? "#ff8a5c" : "rgba(255,255,255,0.3)"} />;
      })}
    </svg>
  );
}

interface Section {
  start: string;
  end: string;
}

function SectionFields({ section, onChange }: { section: Section; onChange: (section: Section) => void }) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="font-semibold">Section (optional)</legend>
      <div className="flex flex-wrap gap-4">
        {(["start", "end"] as const).map((name) => (
          <label key={name} className="flex items-center gap-2 text-sm">
            {name === "start" ? "Start" : "End"}
            <input
              name={name}
              type="number"
              min="0"
              step="0.1"
              inputMode="decimal"
              value={section[name]}
              onChange={(e) => onChange({ ...section, [name]: e.currentTarget.value })}
              className="w-28 rounded-lg border border-border bg-white/5 px-3 py-2"
            />
            seconds
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function UploadProgress({ id, progress }: { id: string; progress: number | "analysing" }) {
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={`${id}-progress`}>{progress === "analysing" ? "Analysing the file…" : "Sending the file…"}</label>
      <progress id={`${id}-progress`} max={1} value={progress === "analysing" ? undefined : progress} className="w-full accent-[#ff8a5c]" />
    </div>
  );
}

/**
 * The reference-file form (issue #19, /catalog/sounds-like). Without JavaScript it is a plain
 * multipart form posted to the server, which answers with the results or the form again. With
 * JavaScript it adds, on the same form: dropping a file on it, the file's waveform with the
 * chosen section (decoded by the browser's own Web Audio; nothing is sent until "Find"), and a
 * progress bar while the file uploads and is analysed. The answer is followed as the browser
 * would: the results page, or the reason shown above the form.
 */
export function SoundsLikeForm({ limitMb, ttlDays, error }: { limitMb: number; ttlDays: number; error: string | null }) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [waveform, setWaveform] = useState<{ peaks: number[]; duration: number } | null>(null);
  const [section, setSection] = useState<Section>({ start: "", end: "" });
  const [dragging, setDragging] = useState(false);
  const { progress, message, submit } = useUpload(form, error);

  const showFile = async (file: File | undefined) => {
    setWaveform(null);
    if (!file || file.size > limitMb * 1024 * 1024 || typeof AudioContext === "undefined") return;
    const decoded = await decodePeaks(file);
    if (decoded) setWaveform(decoded);
  };

  return (
    <>
      {message ? (
        <p role="alert" id={`${id}-error`} className="rounded-xl border border-[#ff8a5c]/60 bg-[#ff8a5c]/10 px-4 py-3 text-sm">
          {message}
        </p>
      ) : null}
      <form
        ref={form}
        method="post"
        action="/catalog/sounds-like"
        encType="multipart/form-data"
        onSubmit={submit}
        onDragOver={(e) => (e.preventDefault(), setDragging(true))}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          if (input.current && e.dataTransfer.files.length) {
            input.current.files = e.dataTransfer.files;
            void showFile(e.dataTransfer.files[0]);
          }
        }}
        className={`card flex flex-col gap-5 p-5 sm:p-6 ${dragging ? "outline-2 outline-[#ffb38f] outline-dashed" : ""}`}
        data-sounds-like-form=""
      >
        <div className="flex flex-col gap-2">
          <label htmlFor={`${id}-audio`} className="font-semibold">
            Audio file
          </label>
          <input
            ref={input}
            id={`${id}-audio`}
            name="audio"
            type="file"
            required
            accept="audio/*,.mp3,.wav,.flac,.ogg,.opus,.m4a"
            onChange={(e) => void showFile(e.currentTarget.files?.[0])}
            aria-describedby={`${id}-audio-hint${message ? ` ${id}-error` : ""}`}
            className="rounded-xl border border-border bg-white/5 p-3 text-sm file:mr-3 file:rounded-full file:border-0 file:bg-white/15 file:px-4 file:py-2 file:text-fg"
          />
          <p id={`${id}-audio-hint`} className="text-sm text-muted">
            MP3, WAV, FLAC, OGG/Opus or M4A, up to {limitMb} MB (or drop it on this form). We compare its first 3 minutes unless you choose a section.
          </p>
        </div>
        {waveform ? <FileWaveform peaks={waveform.peaks} duration={waveform.duration} section={section} /> : null}
        <SectionFields section={section} onChange={setSection} />
        {progress !== null ? <UploadProgress id={id} progress={progress} /> : null}
        <button type="submit" className="btn-primary self-start" disabled={progress !== null}>
          <Upload className="size-4" aria-hidden="true" />
          Find similar tracks
        </button>
        <p className="text-sm text-muted">
          Your file is analysed and deleted at once: we keep only its fingerprint (a few hundred numbers describing how it sounds, overall and passage by passage), its
          length, tempo, key and waveform outline, and its file name, for {ttlDays} days, so the link to its results can be shared (see our{" "}
          <a href="/privacy" className="font-semibold text-[#ffb38f] underline underline-offset-4">
            privacy policy
          </a>
          ).
        </p>
      </form>
    </>
  );
}
