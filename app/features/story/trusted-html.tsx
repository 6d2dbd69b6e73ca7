import type { ElementType } from "react";
import { cn } from "~/lib/cn";

/**
 * Renders editorial HTML (the founder's letter, platform statements, editorial blocks).
 *
 * SECURITY: `html` must come ONLY from our own content modules in app/content, which are
 * trusted markup committed to the repository. Never pass request data, query strings,
 * loader data from upstream services or user input here: this is a raw innerHTML sink.
 */
export function TrustedHtml({
  html,
  className,
  as: Tag = "div",
}: {
  html: string;
  className?: string;
  as?: ElementType;
}) {
  return <Tag className={cn("prose-html", className)} dangerouslySetInnerHTML={{ __html: html }} />;
}
