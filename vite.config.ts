import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import path from "node:path";

// The SSR bundle's entry is server/app.ts (the Express app), so the React Router build,
// the config, the catalog index and the outbox live in one module graph (ADR 0001).
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  environments: {
    ssr: { build: { rollupOptions: { input: "./server/app.ts" } } },
    client: {
      build: {
        rollupOptions: {
          output: {
            // Every page needs React, React DOM and React Router: one chunk instead of a
            // handful of small ones saves requests on the critical path (measured with
            // npm run bench:lighthouse).
            codeSplitting: {
              groups: [
                {
                  name: "framework",
                  test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser|turbo-stream)[\\/]/,
                  priority: 20,
                },
                // ADR 0147: what a page loads only on demand keeps a file of its own, whoever
                // shares it: the toaster (sonner, mounted after hydration, app/lib/toast.ts) and the
                // catalog sheet's Radix dialog (loaded on the first interaction).
                // (A group also takes what its modules import: app code that imports cn and icons
                // in here would pull tailwind-merge in, and every page would import this file.)
                { name: "toaster", test: /node_modules[\\/]sonner[\\/]/, priority: 15 },
                {
                  name: "dialog",
                  test: /node_modules[\\/](@radix-ui[\\/]react-(dialog|dismissable-layer|focus-scope|focus-guards|portal|use-escape-keydown)|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-sidecar|use-callback-ref|aria-hidden|get-nonce|tslib)[\\/]/,
                  priority: 15,
                },
                // Radix's small parts (context, presence, Slot), shared by the dialog and the contact
                // page's tabs: not in the catalog's first load either.
                { name: "radix", test: /node_modules[\\/](@radix-ui|radix-ui)[\\/]/, priority: 14 },
                // Code two or more React routes share (the layout, icons, UI parts), in one file
                // rather than a dozen small ones: on HTTP/1.1 each file holds one of the
                // browser's six connections, ahead of the page's images (ADR 0083). The story
                // pages' content and features (privacy, platforms, the contact form's copy) are left
                // out: the catalog never runs them (ADR 0147); they share small chunks of their own.
                // So are the Button and the BackLink (Radix Slot): the catalog has none.
                {
                  name: "shared",
                  test: /node_modules[\\/]|[\\/]app[\\/](components(?![\\/]ui[\\/](button|back-link)\.tsx)|lib|content[\\/](site|navigation)\.ts$|features[\\/](catalog|shortlist)[\\/])/,
                  minShareCount: 2,
                  priority: 10,
                },
              ],
            },
          },
        },
      },
    },
  },
  // The document pages' script (app/enhance, ADR 0083) is built through Vite's worker
  // pipeline: one self-contained ES module, loaded with <script type="module">.
  worker: { format: "es" },
  plugins: [tailwindcss(), reactRouter()],
});
