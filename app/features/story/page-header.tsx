import type { ReactNode } from "react";
import { cn } from "~/lib/cn";

/** The top of every company-story page: optional eyebrow, the page's single h1, a lead. */
export function PageHeader({
  eyebrow,
  title,
  subtitle,
  children,
  className,
}: {
  eyebrow?: string;
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <header className={cn("relative mx-auto max-w-6xl px-5 pt-14 pb-10 text-center sm:px-8 sm:pt-20 sm:pb-14", className)}>
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 mx-auto h-64 max-w-3xl rounded-full bg-[radial-gradient(closest-side,rgb(226_58_122/0.22),transparent)] blur-2xl"
      />
      {eyebrow ? (
        <p className="mb-4 text-xs font-semibold tracking-[0.2em] text-[#ffb38f] uppercase">{eyebrow}</p>
      ) : null}
      <h1 className="page-title text-balance">
        <span className="text-gradient">{title}</span>
      </h1>
      {subtitle ? <div className="mx-auto mt-5 max-w-2xl text-[1.0625rem] text-pretty text-muted sm:text-xl">{subtitle}</div> : null}
      {children}
    </header>
  );
}

/** A titled page section; the heading labels the region for assistive technology. */
export function StorySection({
  id,
  title,
  lead,
  children,
  className,
  headingClassName,
}: {
  id: string;
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  className?: string;
  headingClassName?: string;
}) {
  const headingId = `${id}-title`;
  return (
    <section id={id} aria-labelledby={headingId} className={cn("mx-auto max-w-6xl px-5 py-12 sm:px-8 sm:py-16", className)}>
      <div className="mb-8 max-w-3xl sm:mb-10">
        <h2 id={headingId} className={cn("section-title text-balance", headingClassName)}>
          {title}
        </h2>
        {lead ? <div className="mt-3 text-base text-pretty text-muted sm:text-lg">{lead}</div> : null}
      </div>
      {children}
    </section>
  );
}
