import type { Channel } from "../../../lib/catalog/types.ts";
import type { Logger } from "../../logger.ts";
import { reshapeChannels } from "../reshape.ts";
import { rawChannelSchema } from "../schemas.ts";
import { isHttpSource } from "./read.ts";
import { readJsonIfChanged, UNCHANGED, validList, type RequestOptions, type SyncSource } from "./source.ts";

/** YouTube channels (CHANNELS_URL, or the sample's channels.json; product-rules §3 "Channel"). */
export function channelsSource(opts: { location: string; request: RequestOptions; log: Logger }): SyncSource<Channel[]> {
  const { location, request, log } = opts;
  return {
    name: "channels",
    location,
    local: !isHttpSource(location),
    empty: () => [],
    async load(ctx) {
      const read = await readJsonIfChanged(location, ctx, request);
      if (!read) return UNCHANGED;
      return { data: reshapeChannels(validList(log, "channels", read.raw, rawChannelSchema, location)), stamp: read.stamp };
    },
    count: (list) => list.length,
  };
}
