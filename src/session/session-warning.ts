/** Non-fatal events of opening a session, reported so nothing is lost silently. */
export interface SessionWarning {
  kind: "torn_tail_truncated" | "stale_lock_taken_over" | "session_skipped";
  message: string;
}

export type WarningSink = (warning: SessionWarning) => void;

/** Without a sink warnings go to stderr, which the runtime's supervisor keeps in the agent log. */
export const logWarning: WarningSink = (warning) => {
  console.warn(`[session] ${warning.kind}: ${warning.message}`);
};
