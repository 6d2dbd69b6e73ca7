import { ArrowUpRight, Mic } from "lucide-react";
import { useState } from "react";
import type { PodcastShow } from "~/content/podcasts";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "~/components/ui/dialog";

interface Props {
  shows: PodcastShow[];
  buttonLabel: string;
  title: string;
  description: string;
}

/**
 * Spec §4 "Podcasts dialog": choosing a show opens its booking link in a new tab and closes
 * the dialog. Each choice is a real link (target=_blank), so it works with Enter, middle-click
 * and assistive tech; its click handler only closes the dialog. Radix returns focus to
 * "Get Featured" on close.
 */
export function GetFeaturedDialog({ shows, buttonLabel, title, description }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="lg">
          <Mic aria-hidden="true" />
          {buttonLabel}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
        <ul className="mt-2 grid gap-3">
          {shows.map((show) => (
            <li key={show.slug}>
              <a
                href={show.bookingLink}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => setOpen(false)}
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
      </DialogContent>
    </Dialog>
  );
}
