import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

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
  // One-way imports (bulletproof-react): shared code never reaches into features or routes,
  // features never import routes, and browser code never imports server-only modules.
  {
    files: ["app/lib/**", "app/components/**", "app/content/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["~/features/*", "~/routes/*", "../features/*", "../routes/*"], message: "shared code must not import features or routes" }] },
      ],
    },
  },
  {
    files: ["app/features/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["~/routes/*", "../../routes/*"], message: "features must not import routes" }] },
      ],
    },
  },
);
