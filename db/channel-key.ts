// Where a command was given: the platform, the workspace (Slack team, Discord guild) and the channel.
export interface ChannelKey {
  platform: string;
  workspace: string;
  channel: string;
}

export function channelLabel(key: ChannelKey): string {
  return `${key.platform}:${key.workspace}:${key.channel}`;
}
