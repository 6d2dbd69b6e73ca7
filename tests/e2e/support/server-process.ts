// Moved to benchmarks/lib/site-process.ts (benchmarks use it too; scripts never import tests/).
export * from "../../../benchmarks/lib/site-process.ts";
