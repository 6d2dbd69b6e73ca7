// Moved to scripts/lib/fuzz-requests.ts (benchmarks use it too; scripts never import tests/).
export * from "../../scripts/lib/fuzz-requests.ts";
