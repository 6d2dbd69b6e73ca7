// Moved to benchmarks/lib/postgres-server.ts (benchmarks use it too; scripts never import tests/).
export * from "../../benchmarks/lib/postgres-server.ts";
