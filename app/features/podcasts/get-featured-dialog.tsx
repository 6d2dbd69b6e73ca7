import { ArrowUpRight } from "~/components/ui/icons/arrow-up-right";
import { Mic } from "~/components/ui/icons/mic";
import { X } from "~/components/ui/icons/x";
import type { PodcastShow } from "~/content/podcasts";
import { buttonVariants } from "~/components/ui/button";

interface Props {
  shows: PodcastShow[];
  buttonLabel: string;
  title: string;
  description: string;
}

const DIALOG_ID = "get-featured-dialog";

/**
 * product-rules §4 "Podcasts dialog": choosing a show opens its booking link in a new tab and closes
 * the dialog. Each choice is a real link (target=_blank), so it works with Enter, middle-click
 * and assistive tech.
 *
 * ADR 0083: /podcasts is a document page, so this is the platform's <dialog>, opened by an
 * invoker command (`commandfor`), with app/enhance/dialog.ts as the fallback for browsers
 * without one and for closing on a choice or a backdrop click. The platform moves focus to
 * the Close button (autofocus: opening never lands on a link that Enter would follow by
 * accident), keeps Tab inside, closes on Esc and returns focus to "Get Featured".
 */
export function GetFeaturedDialog({ shows, buttonLabel, title, description }: Props) {
  return (
    <>
      <button
        type="button"
        className={buttonVariants({ size: "lg" })}
        aria-haspopup="dialog"
        {...{ commandfor: DIALOG_ID, command: "show-modal" }}
      >
        <Mic aria-hidden="true" />
        {buttonLabel}
      </button>
      <dialog
        id={DIALOG_ID}
        data-modal
        aria-labelledby={`${DIALOG_ID}-title`}
        aria-describedby={`${DIALOG_ID}-description`}
        className="site-dialog card m-auto max-h-[90dvh] w-[calc(100%-2rem)] max-w-lg gap-4 overflow-y-auto bg-surface p-6 text-fg shadow-2xl open:grid"
      >
        {/* First in the dialog, so Tab goes Close → the shows; shown top right. A form with
            method="dialog" closes it without any script. */}
        <form method="dialog" className="absolute top-4 right-4">
          <button type="submit" autoFocus className="rounded-full p-1.5 text-muted hover:bg-white/10 hover:text-fg">
            <X className="size-5" aria-hidden="true" />
            <span className="sr-only">Close</span>
          </button>
        </form>
        <h2 id={`${DIALOG_ID}-title`} className="pr-8 text-xl font-bold">
          {title}
        </h2>
        <p id={`${DIALOG_ID}-description`} className="text-sm text-muted">
          {description}
        </p>
        <ul className="mt-2 grid gap-3">
          {shows.map((show) => (
            <li key={show.slug}>
              <a
                href={show.bookingLink}
                target="_blank"
                rel="noopener noreferrer"
                className="group flex items-center gap-4 rounded-2xl border border-border bg-white/[0.03] p-3 transition-colors hover:border-[#4a4a66] hover:bg-white/[0.07]"
              >
                <span
                  aria-hidden="true"
                  className="flex size-14 shrink-0 items-center justify-center rounded-xl"
                  style={{ backgroundImage: `linear-gradient(135deg, ${show.color1}, ${show.color2})` }}
                >
                  <img src={show.logo} alt="" width={40} height={40} className="size-10" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block font-semibold">{show.title}</span>
                  <span className="block text-sm text-muted">Book a recording slot</span>
                </span>
                <ArrowUpRight aria-hidden="true" className="size-5 shrink-0 text-muted transition-transform group-hover:-translate-y-0.5 group-hover:translate-x-0.5" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
      </dialog>
    </>
  );
}
