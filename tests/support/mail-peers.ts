// Moved to benchmarks/lib/mail-peers.ts (benchmarks use it too; scripts never import tests/).
export * from "../../benchmarks/lib/mail-peers.ts";
