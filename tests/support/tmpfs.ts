// Moved to scripts/lib/small-disk.ts (benchmarks use it too; scripts never import tests/).
export * from "../../scripts/lib/small-disk.ts";
