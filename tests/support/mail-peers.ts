// Moved to scripts/lib/mail-peers.ts (benchmarks use it too; scripts never import tests/).
export * from "../../scripts/lib/mail-peers.ts";
