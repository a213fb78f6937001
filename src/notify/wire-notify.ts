// Wiring of notice routing: each channel's and person's /rl notify settings, and the router the run's transitions and
// the digests ask where a notice goes.
import { createNotifySettingsRepo, type NotifySettingsRepo } from "../../db/notify-settings.ts";
import type { Db } from "../../db/open-database.ts";
import type { FeatureSlice } from "../feature-slice.ts";
import { createNoticeRouter, type NoticeRouter } from "./notice-router.ts";

export interface WiredNotify extends FeatureSlice<{ notify: NotifySettingsRepo }> {
  router: NoticeRouter;
}

export function wireNotify(needs: { db: Db }): WiredNotify {
  const notify = createNotifySettingsRepo(needs.db);
  return { services: { notify }, router: createNoticeRouter(notify) };
}
