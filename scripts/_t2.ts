import { encodeMp3 } from "../app/.server/catalog/sample/mp3.ts";
import { renderSampleTrack, SAMPLE_TRACKS, SAMPLE_AUDIO_RATE, SAMPLE_AUDIO_KBPS } from "../app/.server/catalog/sample/tracks.ts";
let r = 0, e = 0;
for (let i = 0; i < SAMPLE_TRACKS.length; i++) { let t = performance.now(); const pcm = renderSampleTrack(i); r += performance.now() - t; t = performance.now(); encodeMp3(pcm, SAMPLE_AUDIO_RATE, SAMPLE_AUDIO_KBPS); e += performance.now() - t; }
console.log({ render: Math.round(r), encode: Math.round(e), rate: SAMPLE_AUDIO_RATE });
