// Moved to benchmarks/lib/small-disk.ts (benchmarks use it too; scripts never import tests/).
export * from "../../benchmarks/lib/small-disk.ts";
