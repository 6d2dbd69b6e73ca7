import { footerColumns, legalLinks, mainNavigation, type NavigationItem } from "~/content/navigation";
import { site } from "~/content/site";
import { Logo } from "./logo";
import { SiteLink } from "./site-link";
import { SocialIcon } from "./social-icons";

function FooterLink({ item }: { item: NavigationItem }) {
  const className = "footer-link";
  // mailto: links are plain anchors; site paths go through SiteLink.
  return item.href.startsWith("/") ? (
    <SiteLink to={item.href} className={className}>
      {item.name}
    </SiteLink>
  ) : (
    <a href={item.href} className={className}>
      {item.name}
    </a>
  );
}

/** product-rules §2 "Footer". */
export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer" data-behind-menu>
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="grid grid-cols-2 gap-x-6 gap-y-12 py-14 sm:py-16 md:grid-cols-3 lg:grid-cols-[1.5fr_1fr_1fr_1fr] lg:gap-10">
          <div className="col-span-2 max-w-sm md:col-span-3 lg:col-span-1">
            <SiteLink to="/" className="inline-block rounded-lg" aria-label={`${site.companyName} home`}>
              <Logo name={site.companyName} />
            </SiteLink>
            <p className="mt-4 text-sm leading-relaxed text-muted">{site.tagline}</p>
            <ul className="mt-6 flex gap-2" aria-label="Social networks">
              {site.social.map((social) => (
                <li key={social.href}>
                  <a
                    href={social.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${social.name} (opens in a new tab)`}
                    className="social-link"
                  >
                    <SocialIcon icon={social.icon} />
                  </a>
                </li>
              ))}
            </ul>
          </div>
          {footerColumns.map((column) => (
            <div key={column.title}>
              <h2 className="footer-heading">{column.title}</h2>
              <ul className="mt-4 space-y-1">
                {column.links.map((item) => (
                  <li key={item.name}>
                    <FooterLink item={item} />
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        {/* Without JavaScript the menu toggle cannot open the menu, so the ten menu links are
            listed here instead (the toggle is hidden by the <noscript> style in the layout). */}
        <noscript>
          <nav aria-label="Site" className="border-t border-border py-6">
            <ul className="flex flex-wrap gap-x-5 gap-y-1">
              {mainNavigation.map((item) => (
                <li key={item.href}>
                  <a href={item.href} className="footer-link">
                    {item.name}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </noscript>
        <div className="flex flex-col gap-3 border-t border-border py-6 text-sm text-muted sm:flex-row sm:items-center sm:justify-between">
          <p suppressHydrationWarning>
            © {year} {site.companyName} All rights reserved.
          </p>
          {/* wraps on the narrowest phones: three links since the accessibility statement (issue #11) */}
          <ul className="flex flex-wrap gap-x-5 gap-y-2">
            {legalLinks.map((item) => (
              <li key={item.href}>
                <FooterLink item={item} />
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
