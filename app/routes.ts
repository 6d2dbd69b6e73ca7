import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

// Spec §2 route table, in its order. Everything renders inside the common layout.
export default [
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  layout("routes/_layout.tsx", [
    index("routes/home.tsx"),
    route("catalog", "routes/catalog.tsx"),
    route("mission", "routes/mission.tsx"),
    route("board", "routes/board.tsx"),
    route("innovation", "routes/innovation.tsx"),
    route("ai-brands", "routes/ai-brands.tsx"),
    route("investors", "routes/investors.tsx"),
    route("podcasts", "routes/podcasts.tsx"),
    route("partners", "routes/partners.tsx"),
    route("partners/:category", "routes/partners.$category.tsx"),
    route("web3", "routes/web3.tsx"),
    route("web3/:category", "routes/web3.$category.tsx"),
    route("contact", "routes/contact.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
] satisfies RouteConfig;
