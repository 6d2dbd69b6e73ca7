import fs from "node:fs";
import path from "node:path";
import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

// The layout the lint enforces (bulletproof-react's one-way imports, issue #17; the planted
// violations in tests/integration/lint-layers.test.ts prove each rule fires):
// - shared code (lib, components, content) never imports features or routes;
// - features never import routes, nor another feature's internals (only its index.ts);
// - browser code (features, components, lib, content, enhance) never imports app/.server:
//   server data reaches it through a route's loader or action;
// - product code and the tools never import from tests/ (shared helpers live in benchmarks/lib/);
// - product code (app/, server/) never imports the tools: commands/, benchmarks/, labs/ (ADR 0153).
const SERVER_ONLY = {
  regex: "(^|/)\\.server(/|$)",
  message: "browser code must not import app/.server: pass the data through a route's loader or action",
};
const TESTS = { regex: "(^|/)tests/", message: "product code and the tools must not import from tests/ (shared helpers live in benchmarks/lib/)" };
const TOOLS = {
  regex: "(^|/)(commands|benchmarks|labs)/",
  message: "product code must not import commands/, benchmarks/ or labs/ (ADR 0153): what the site runs lives in app/ and server/",
};
const SHARED_TO_FEATURES = {
  group: ["~/features/*", "~/routes/*", "../features/*", "../routes/*"],
  message: "shared code must not import features or routes",
};
const FEATURE_TO_ROUTES = { group: ["~/routes/*", "../../routes/*"], message: "features must not import routes" };
const otherFeatureInternals = (feature) => ({
  regex: `(^~/features/|/features/)(?!${feature}(/|$))[^/]+/`,
  message: `a feature imports another feature only through its index.ts (import "~/features/<name>"), never its files`,
});
// - app code links with the site's Link, never React Router's directly (ADR 0114, amended).
const ROUTER_LINK = {
  name: "react-router",
  importNames: ["Link"],
  message: "use the site's Link (~/components/ui/link): the same in the browser, React Router's markup without its hooks on the server",
};
const restrict = (...patterns) => ({ "no-restricted-imports": ["error", { patterns, paths: [ROUTER_LINK] }] });
// unit tests sit next to the code they test and may use the test helpers
const tests = ["**/*.test.ts", "**/*.test.tsx"];
const features = fs.readdirSync(path.join(import.meta.dirname, "app/features"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

export default tseslint.config(
  { ignores: ["build/", "build-*/", "bench-results/", "data/", ".react-router/", "node_modules/", "test-results/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  { files: ["app/.server/**", "app/routes/**", "app/*.{ts,tsx}", "server/**", "server.ts"], ignores: tests, rules: restrict(TESTS, TOOLS) },
  { files: ["commands/**", "benchmarks/**", "labs/**"], ignores: tests, rules: restrict(TESTS) },
  { files: ["app/lib/**", "app/components/**", "app/content/**"], ignores: tests, rules: restrict(SHARED_TO_FEATURES, SERVER_ONLY, TESTS, TOOLS) },
  { files: ["app/enhance/**"], ignores: tests, rules: restrict(SERVER_ONLY, TESTS, TOOLS) },
  ...features.map((feature) => ({
    files: [`app/features/${feature}/**`],
    ignores: tests,
    rules: restrict(FEATURE_TO_ROUTES, SERVER_ONLY, TESTS, TOOLS, otherFeatureInternals(feature)),
  })),
);
