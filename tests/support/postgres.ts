// Moved to scripts/lib/postgres-server.ts (benchmarks use it too; scripts never import tests/).
export * from "../../scripts/lib/postgres-server.ts";
