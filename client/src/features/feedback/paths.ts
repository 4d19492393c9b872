import type { TicketBoard } from '@plant/shared-schema';

/** The feedback centre's paths (spec 000 §2: /app/feedback with its three boards). */
export const feedbackPaths = {
  board: (board: TicketBoard) => `/app/feedback/${board}`,
  ticket: (board: TicketBoard, id: string) => `/app/feedback/${board}/${encodeURIComponent(id)}`,
};
