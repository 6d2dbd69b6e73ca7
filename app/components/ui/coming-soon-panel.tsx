import { Clock } from "~/components/ui/icons/clock";

/**
 * The panel a page shows where its content is not open yet (a partner directory without
 * partners, a Web3 topic that is coming soon): a clock, an optional heading and the text.
 */
export function ComingSoonPanel({ label, heading, children }: { label: string; heading?: string; children: React.ReactNode }) {
  return (
    <section aria-label={label} className="card mt-10 flex flex-col items-center px-6 py-16 text-center">
      <span aria-hidden="true" className="mb-5 flex size-14 items-center justify-center rounded-2xl bg-[#8b5cf6]/20 text-[#d9c9ff]">
        <Clock className="size-7" />
      </span>
      {heading && <h2 className="section-title">{heading}</h2>}
      {children}
    </section>
  );
}
