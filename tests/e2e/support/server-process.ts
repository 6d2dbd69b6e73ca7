// Moved to scripts/lib/site-process.ts (benchmarks use it too; scripts never import tests/).
export * from "../../../scripts/lib/site-process.ts";
