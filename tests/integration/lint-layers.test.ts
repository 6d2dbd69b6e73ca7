import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// Issue #17: the layout is enforced by lint (eslint.config.js). Each rule is shown to fire on a
// violation planted in a file of the layer it guards, and to stay quiet on the allowed form.

const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("lint rules that enforce the layout", () => {
  it("browser code may not import app/.server", async () => {
    for (const file of ["app/features/catalog/planted.tsx", "app/components/ui/planted.tsx", "app/lib/planted.ts", "app/enhance/planted.ts", "app/content/planted.ts"]) {
      expect(await restricted(file, 'import { loadConfig } from "~/.server/services";\nvoid loadConfig;\n'), file).toEqual([
        expect.stringContaining("browser code must not import app/.server"),
      ]);
      expect(await restricted(file, 'import { x } from "../../.server/catalog/index";\nvoid x;\n'), file).toHaveLength(1);
    }
    // a route module's loader or action may (React Router keeps it out of the browser bundle)
    expect(await restricted("app/routes/planted.tsx", 'import { services } from "~/.server/context";\nvoid services;\n')).toEqual([]);
  });

  it("product code and the tools may not import from tests/", async () => {
    for (const file of ["app/.server/planted.ts", "server/planted.ts", "commands/planted.ts", "benchmarks/planted.ts", "labs/planted.ts", "app/lib/planted.ts", "app/routes/planted.tsx"]) {
      expect(await restricted(file, 'import { waitFor } from "../tests/support/wait.ts";\nvoid waitFor;\n'), file).toEqual([
        expect.stringContaining("must not import from tests/"),
      ]);
    }
    // a unit test next to the code it tests may
    expect(await restricted("app/.server/planted.test.ts", 'import { waitFor } from "../../tests/support/wait.ts";\nvoid waitFor;\n')).toEqual([]);
  });

  it("product code may not import the commands, benchmarks or labs (ADR 0153)", async () => {
    const planted: [string, string][] = [
      ["app/.server/planted.ts", "../../commands/lib/vocabulary.ts"],
      ["server/planted.ts", "../benchmarks/lib/site-process.ts"],
      ["server.ts", "./labs/lib/meter-accents.ts"],
      ["app/routes/planted.tsx", "../../benchmarks/lib/proc.ts"],
      ["app/features/catalog/planted.tsx", "../../../labs/lib/meter-accents.ts"],
      ["app/lib/planted.ts", "../../commands/varnish.ts"],
    ];
    for (const [file, target] of planted) {
      expect(await restricted(file, `import { x } from "${target}";\nvoid x;\n`), file).toEqual([expect.stringContaining("product code must not import commands/, benchmarks/ or labs/")]);
    }
    // the tools may import each other and the product (a lab reuses the benchmarks' harness)
    expect(await restricted("labs/planted.ts", 'import { x } from "../benchmarks/lib/real-set.ts";\nimport { y } from "../app/.server/analysis/analyze.ts";\nvoid x, y;\n')).toEqual([]);
    expect(await restricted("benchmarks/planted.ts", 'import { x } from "../commands/varnish.ts";\nvoid x;\n')).toEqual([]);
  });

  it("a feature may import another feature only through its index", async () => {
    expect(await restricted("app/features/catalog/planted.tsx", 'import { ShortlistButton } from "~/features/shortlist/shortlist-button";\nvoid ShortlistButton;\n')).toEqual([
      expect.stringContaining("only through its index.ts"),
    ]);
    expect(await restricted("app/features/catalog/planted.tsx", 'import { ShortlistButton } from "~/features/shortlist";\nvoid ShortlistButton;\n')).toEqual([]);
    expect(await restricted("app/features/catalog/planted.tsx", 'import { x } from "~/features/catalog/cards";\nvoid x;\n')).toEqual([]);
  });

  it("app code links with the site's Link, not React Router's", async () => {
    for (const file of ["app/features/catalog/planted.tsx", "app/components/layout/planted.tsx", "app/routes/planted.tsx"]) {
      expect(await restricted(file, 'import { Link } from "react-router";\nvoid Link;\n'), file).toEqual([expect.stringContaining("use the site's Link")]);
      expect(await restricted(file, 'import { Link } from "~/components/ui/link";\nimport { useLocation } from "react-router";\nvoid Link, useLocation;\n'), file).toEqual([]);
    }
  });

  it("shared code may not import features or routes, and features may not import routes", async () => {
    expect(await restricted("app/lib/planted.ts", 'import { x } from "~/features/catalog/cards";\nvoid x;\n')).toEqual([expect.stringContaining("shared code must not import features or routes")]);
    expect(await restricted("app/features/catalog/planted.tsx", 'import { x } from "~/routes/catalog";\nvoid x;\n')).toEqual([expect.stringContaining("features must not import routes")]);
  });
});
