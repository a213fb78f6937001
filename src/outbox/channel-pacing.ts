// Per-channel pacing: one post per channel per pass, spaced by the platform's pace, none while a Retry-After holds it.
import { channelLabel, type ChannelKey } from "../../db/channel-key.ts";

export function createChannelPacing(options: { gapMs: number; now: () => number }) {
  const { gapMs, now } = options;
  const lastPost = new Map<string, number>();
  /** Channels a platform rate-limited, and until when. */
  const heldUntil = new Map<string, number>();
  return {
    /**
     * A new pass over the outbox. Its `claim` says whether a channel may post now and, if so, counts the post; a
     * channel asked for again in the same pass is refused, so its messages go out one per pass, in order.
     */
    startPass(): (channel: ChannelKey) => boolean {
      const seen = new Set<string>();
      return (channel) => {
        const key = channelLabel(channel);
        const free = !seen.has(key) && now() - (lastPost.get(key) ?? 0) >= gapMs && (heldUntil.get(key) ?? 0) <= now();
        seen.add(key);
        if (free) lastPost.set(key, now());
        return free;
      };
    },
    /** The platform said when: the whole channel waits until then. */
    hold(channel: ChannelKey, until: number): void {
      heldUntil.set(channelLabel(channel), until);
    },
  };
}

export type ChannelPacing = ReturnType<typeof createChannelPacing>;
