import { Upload } from "lucide-react";
import { useId } from "react";
import { data, Link } from "react-router";
import type { Route } from "./+types/catalog.sounds-like";
import { requestInfo, services } from "~/.server/context";
import { seo } from "~/lib/seo";

/**
 * /catalog/sounds-like (issue #19, DESIGN.md §3c): search the catalog by a file of one's own
 * (a temp track, a demo). A plain multipart form posted to the same path (server/sounds-like.ts
 * answers it: a 303 to the `like=` view, or this page again with the reason and its status),
 * so it works without JavaScript. The file is analysed and deleted; only its fingerprint is kept.
 */
export function loader({ context }: Route.LoaderArgs) {
  const { config } = services(context);
  const { uploadError } = requestInfo(context);
  const payload = {
    error: uploadError?.message ?? null,
    limitMb: Math.round(config.UPLOAD_LIMIT_BYTES / (1024 * 1024)),
    ttlDays: config.REFERENCE_TTL_DAYS,
  };
  return uploadError ? data(payload, { status: uploadError.status, headers: { "Cache-Control": "no-store" } }) : payload;
}

/** A refusal's status (413, 415, 429, …) and its Retry-After reach the document. */
export const headers: Route.HeadersFunction = ({ parentHeaders, loaderHeaders }) => {
  const merged = new Headers(parentHeaders);
  loaderHeaders.forEach((value, name) => merged.set(name, value));
  return merged;
};

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({ title: "Sounds like this", description: "Find catalog tracks that sound like a file of your own: a temp track, a demo, a reference.", path: "/catalog/sounds-like" }, matches);

export default function SoundsLikeRoute({ loaderData }: Route.ComponentProps) {
  const { error, limitMb, ttlDays } = loaderData;
  const id = useId();
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 px-5 pt-10 pb-20 sm:px-8 sm:pt-14">
      <header className="flex flex-col gap-2">
        <p className="text-sm font-semibold tracking-[0.2em] text-[#ffb38f] uppercase">Sync-ready catalog</p>
        <h1 className="page-title">Sounds like this</h1>
        <p className="max-w-prose text-muted">
          Start from a sound: the temp track in your edit, a demo the director loves. Upload it and we list the catalog tracks closest to it,
          each with the reason it matched.
        </p>
      </header>
      {error ? (
        <p role="alert" id={`${id}-error`} className="rounded-xl border border-[#ff8a5c]/60 bg-[#ff8a5c]/10 px-4 py-3 text-sm">
          {error}
        </p>
      ) : null}
      <form method="post" action="/catalog/sounds-like" encType="multipart/form-data" className="card flex flex-col gap-5 p-5 sm:p-6" data-sounds-like-form="">
        <div className="flex flex-col gap-2">
          <label htmlFor={`${id}-audio`} className="font-semibold">
            Audio file
          </label>
          <input
            id={`${id}-audio`}
            name="audio"
            type="file"
            required
            accept="audio/*,.mp3,.wav,.flac,.ogg,.opus,.m4a"
            aria-describedby={`${id}-audio-hint${error ? ` ${id}-error` : ""}`}
            className="rounded-xl border border-border bg-white/5 p-3 text-sm file:mr-3 file:rounded-full file:border-0 file:bg-white/15 file:px-4 file:py-2 file:text-fg"
          />
          <p id={`${id}-audio-hint`} className="text-sm text-muted">
            MP3, WAV, FLAC, OGG/Opus or M4A, up to {limitMb} MB. We compare its first 3 minutes unless you choose a section.
          </p>
        </div>
        <fieldset className="flex flex-col gap-2">
          <legend className="font-semibold">Section (optional)</legend>
          <div className="flex flex-wrap gap-4">
            <label className="flex items-center gap-2 text-sm">
              Start
              <input name="start" type="number" min="0" step="0.1" inputMode="decimal" className="w-28 rounded-lg border border-border bg-white/5 px-3 py-2" />
              seconds
            </label>
            <label className="flex items-center gap-2 text-sm">
              End
              <input name="end" type="number" min="0" step="0.1" inputMode="decimal" className="w-28 rounded-lg border border-border bg-white/5 px-3 py-2" />
              seconds
            </label>
          </div>
        </fieldset>
        <button type="submit" className="btn-primary self-start">
          <Upload className="size-4" aria-hidden="true" />
          Find similar tracks
        </button>
        <p className="text-sm text-muted">
          Your file is analysed and deleted at once: we keep only its fingerprint (a few dozen numbers describing how it sounds), for {ttlDays}{" "}
          days, so the link to its results can be shared.
        </p>
      </form>
      <p className="text-sm text-muted">
        Or start from a track of ours:{" "}
        <Link to="/catalog?view=tracks" className="underline underline-offset-4">
          browse the tracks
        </Link>{" "}
        and choose “More like this”.
      </p>
    </div>
  );
}
