import { site } from "~/content/site";

export function SiteFooter() {
  return <footer>{site.tagline}</footer>;
}
