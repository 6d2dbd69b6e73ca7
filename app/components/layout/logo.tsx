import { useId } from "react";
import { cn } from "~/lib/cn";

/** The brand mark: a beat line crossing a warm-to-violet tile. Decorative next to the name. */
export function LogoMark({ className }: { className?: string }) {
  const gradient = useId();
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={cn("size-8 shrink-0", className)}>
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#ff8a5c" />
          <stop offset="0.55" stopColor="#e23a7a" />
          <stop offset="1" stopColor="#8b5cf6" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill={`url(#${gradient})`} />
      <path
        d="M5 17h5l2.5-7 4 13 3-9 1.8 3H27"
        fill="none"
        stroke="#fff"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** Mark plus company name; the name is the link's accessible text. */
export function Logo({ name, className, nameClassName }: { name: string; className?: string; nameClassName?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2.5", className)}>
      <LogoMark />
      <span className={cn("text-[1.0625rem] font-bold tracking-tight whitespace-nowrap", nameClassName)}>{name}</span>
    </span>
  );
}
