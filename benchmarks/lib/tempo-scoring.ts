// How bench:tempo and its labs (tempo-lab.ts, meter-lab.ts) score a tempo against the notated
// beat (issue #28, ADR 0105): accuracy 1 within 4 % of it; accuracy 2 within 4 % of it or of
// twice, half, three times or a third of it; a wrong answer named by its ratio to the beat.

export const TOLERANCE = 0.04;

export const within = (bpm: number, truth: number) => Math.abs(bpm - truth) <= TOLERANCE * truth;
export const acc1 = (bpm: number | null, truth: number) => bpm !== null && within(bpm, truth);
export const acc2 = (bpm: number | null, truth: number) => bpm !== null && [1, 2, 0.5, 3, 1 / 3].some((f) => within(bpm, truth * f));

/** The kind of a wrong tempo: the ratio of the answer to the notated beat. */
export function errorKind(bpm: number, truth: number): string {
  const kinds: [string, number[]][] = [
    ["half", [0.5]],
    ["double", [2]],
    ["2:3", [2 / 3]],
    ["3:2", [1.5]],
    ["third/triple", [1 / 3, 3]],
    ["4:3/5:4", [4 / 3, 3 / 4, 5 / 4, 4 / 5]],
  ];
  for (const [name, ratios] of kinds) if (ratios.some((f) => within(bpm, truth * f))) return name;
  return "other";
}
