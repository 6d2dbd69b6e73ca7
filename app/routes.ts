import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

// product-rules §2 route table, in its order. Everything renders inside the common layout.
export default [
  route("sitemap.xml", "routes/sitemap.ts"),
  // Issue #11: the files of the sitemap index once there are more than 50,000 URLs.
  route("sitemaps/:file", "routes/sitemap-file.ts"),
  route("robots.txt", "routes/robots.ts"),
  layout("routes/_layout.tsx", [
    index("routes/home.tsx"),
    route("catalog", "routes/catalog.tsx"),
    // Issue #19: search by a reference file (DESIGN.md §3c); before the item pages' pattern.
    route("catalog/sounds-like", "routes/catalog.sounds-like.tsx"),
    // Issue #11: each album, single and film has a page of its own (DESIGN.md §3b).
    route("catalog/:kind/:id/:slug?", "routes/catalog-item.tsx"),
    route("mission", "routes/mission.tsx"),
    route("board", "routes/board.tsx"),
    route("innovation", "routes/innovation.tsx"),
    route("ai-brands", "routes/ai-brands.tsx"),
    route("investors", "routes/investors.tsx"),
    route("podcasts", "routes/podcasts.tsx"),
    // Issue #11: the accessibility statement, linked from the footer (DESIGN.md §3b).
    route("accessibility", "routes/accessibility.tsx"),
    // Issue #16: the privacy policy and the terms of use, linked from the footer and the forms.
    route("privacy", "routes/privacy.tsx"),
    route("terms", "routes/terms.tsx"),
    route("partners", "routes/partners.tsx"),
    route("partners/:category", "routes/partners.$category.tsx"),
    route("web3", "routes/web3.tsx"),
    route("web3/:category", "routes/web3.$category.tsx"),
    route("contact", "routes/contact.tsx"),
    // Issue #11: the visitor's shortlist; `?items=` a shared one (DESIGN.md §3b).
    route("shortlist", "routes/shortlist.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
