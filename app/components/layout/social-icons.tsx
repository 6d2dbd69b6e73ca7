import type { SocialLink } from "~/content/site";

// lucide dropped brand icons; these are simple single-colour glyphs drawn for the footer.
const paths: Record<SocialLink["icon"], string> = {
  linkedin:
    "M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5ZM3 9.75h4V21H3V9.75Zm6.5 0h3.8v1.6h.06c.53-.95 1.83-1.95 3.77-1.95 4.03 0 4.77 2.5 4.77 5.76V21h-4v-5.1c0-1.22-.02-2.78-1.76-2.78-1.76 0-2.03 1.33-2.03 2.7V21h-4V9.75Z",
  twitter:
    "M17.75 3h3.07l-6.7 7.62L22 21h-6.17l-4.83-6.3L5.48 21H2.4l7.17-8.15L2 3h6.32l4.37 5.76L17.75 3Zm-1.08 16.2h1.7L7.4 4.73H5.57L16.67 19.2Z",
  instagram:
    "M12 7.3a4.7 4.7 0 1 0 0 9.4 4.7 4.7 0 0 0 0-9.4Zm0 7.75a3.05 3.05 0 1 1 0-6.1 3.05 3.05 0 0 1 0 6.1ZM17.9 7.1a1.1 1.1 0 1 1-2.2 0 1.1 1.1 0 0 1 2.2 0ZM7.6 2.5h8.8A5.1 5.1 0 0 1 21.5 7.6v8.8a5.1 5.1 0 0 1-5.1 5.1H7.6a5.1 5.1 0 0 1-5.1-5.1V7.6A5.1 5.1 0 0 1 7.6 2.5Zm0 1.7a3.4 3.4 0 0 0-3.4 3.4v8.8a3.4 3.4 0 0 0 3.4 3.4h8.8a3.4 3.4 0 0 0 3.4-3.4V7.6a3.4 3.4 0 0 0-3.4-3.4H7.6Z",
  facebook:
    "M13.5 21.5v-8h2.7l.4-3.2h-3.1V8.3c0-.92.26-1.55 1.58-1.55h1.68V3.9a22 22 0 0 0-2.45-.13c-2.43 0-4.09 1.48-4.09 4.2v2.34H7.5v3.2h2.72v8h3.28Z",
};

export function SocialIcon({ icon }: { icon: SocialLink["icon"] }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="size-[18px]" fill="currentColor">
      <path d={paths[icon]} />
    </svg>
  );
}
