// midi-writer-js 3.2.1 ships types its package.json "exports" does not expose; this declares
// the part of its API bench:tempo's evaluation set uses (benchmarks/lib/tempo-set.ts).
declare module "midi-writer-js" {
  interface MidiEvent {
    name: string;
  }
  interface Track {
    addEvent(events: MidiEvent | MidiEvent[]): Track;
  }
  interface Writer {
    buildFile(): Uint8Array;
  }
  const MidiWriter: {
    Track: new () => Track;
    /** pitch: MIDI numbers or names; duration: "4", "8", or "T<ticks>"; tick: where it starts; velocity 1–100; channel 1–16. */
    NoteEvent: new (fields: { pitch: (number | string)[]; duration: string; tick?: number; velocity?: number; channel?: number }) => MidiEvent;
    /** channel: 0-based here, unlike NoteEvent's. */
    ProgramChangeEvent: new (fields: { instrument: number; channel?: number; delta?: number }) => MidiEvent;
    /** Placed `delta` ticks after the track's previous event. */
    TempoEvent: new (fields: { bpm: number; delta?: number }) => MidiEvent;
    Writer: new (tracks: Track | Track[]) => Writer;
  };
  export default MidiWriter;
}
