import { Link } from "react-router";
import { site } from "~/content/site";

export function SiteHeader() {
  return (
    <header className="fixed inset-x-0 top-0 z-40 h-[var(--header-height)]">
      <Link to="/">{site.companyName}</Link> <Link to="/contact">Contact Us</Link>
    </header>
  );
}
