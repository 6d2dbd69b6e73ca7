import type { ComponentProps } from "react";

/**
 * A link that opens in a new tab. rel="noopener noreferrer" keeps the new page from
 * reaching back into ours; the hidden suffix tells screen-reader users about the new tab.
 */
export function ExternalLink({ children, ...props }: Omit<ComponentProps<"a">, "target" | "rel">) {
  return (
    <a {...props} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
