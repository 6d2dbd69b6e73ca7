// Moved to benchmarks/lib/fuzz-requests.ts (benchmarks use it too; scripts never import tests/).
export * from "../../benchmarks/lib/fuzz-requests.ts";
