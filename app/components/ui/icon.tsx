import type { SVGProps } from "react";

/**
 * The site's icons: Lucide's drawings (ISC licence), each rendered as one `<svg>` whose children
 * are a string. Lucide's own React components make an element per path, which cost a catalog
 * track view some 0.35 ms of its server render (74 icons, ~200 elements; measured, issue #18,
 * ADR 0114), and ship Lucide's runtime to the browser. The markup is Lucide's, attribute for
 * attribute: the modules in icons/ are generated from lucide-react by commands/generate-icons.ts,
 * and icons/icons.test.tsx compares every icon with lucide-react's own rendering.
 */

export type IconProps = Omit<SVGProps<SVGSVGElement>, "ref" | "children" | "dangerouslySetInnerHTML">;
/** an icon component, for props and maps that take "any icon" */
export type IconComponent = (props: IconProps) => React.JSX.Element;

/** Lucide's class rule: "lucide lucide-<name> lucide-<alias>… <className>", each class once */
function classes(base: readonly string[], className: string | undefined): string {
  return [...new Set([...base, ...(className ?? "").split(/\s+/)].filter(Boolean))].join(" ");
}

/** Lucide's rule: an icon without a label or role is hidden from assistive technology */
function hasA11yProp(props: IconProps): boolean {
  for (const [name, value] of Object.entries(props)) if ((name.startsWith("aria-") || name === "role" || name === "title") && value != null) return true;
  return false;
}

/** an icon component drawing `inner` (SVG children markup) with Lucide's attributes and classes */
export function icon(name: string, aliases: readonly string[], inner: string): IconComponent {
  const html = { __html: inner };
  const base = ["lucide", `lucide-${name}`, ...aliases.map((alias) => `lucide-${alias}`)];
  function Icon({ className, ...props }: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={24}
        height={24}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        className={classes(base, className)}
        aria-hidden={hasA11yProp(props) ? undefined : "true"}
        {...props}
        dangerouslySetInnerHTML={html}
      />
    );
  }
  Icon.displayName = `Icon(${name})`;
  return Icon;
}
