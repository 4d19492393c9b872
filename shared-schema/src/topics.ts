/** Broker topics (DESIGN.md §5). Build them here, never in place. */
export const topics = {
  modelUpdates: (accountId: string) => `account/${accountId}/_modelupdates`,
  uploadProgress: (accountId: string) => `account/${accountId}/_notify/upload`,
} as const;
