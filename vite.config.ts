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
                // Code two or more React routes share (the layout, icons, UI parts), in one file
                // rather than a dozen small ones: on HTTP/1.1 each file holds one of the
                // browser's six connections, ahead of the page's images (ADR 0083).
                {
                  name: "shared",
                  test: /node_modules[\\/]|[\\/]app[\\/](components|lib|content|features)[\\/]/,
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
