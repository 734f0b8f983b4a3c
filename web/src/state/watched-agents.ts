/**
 * Which agents this page is attached to, and when each was last looked at. The selected agent
 * stays attached; one not viewed for `IDLE_DETACH_MS` is detached and its snapshot released,
 * so a long session that opened many agents holds only the few in use (memory stays bounded).
 */
export const IDLE_DETACH_MS = 5 * 60_000;

export class WatchedAgents {
  private readonly lastViewed = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  watch(agentId: string): void {
    this.lastViewed.set(agentId, this.now());
  }

  /** Called while an agent is on screen, so it never counts as idle. */
  viewed(agentId: string): void {
    if (this.lastViewed.has(agentId)) this.lastViewed.set(agentId, this.now());
  }

  forget(agentId: string): void {
    this.lastViewed.delete(agentId);
  }

  has(agentId: string): boolean {
    return this.lastViewed.has(agentId);
  }

  ids(): string[] {
    return [...this.lastViewed.keys()];
  }

  /** Watched agents other than `keep` not viewed for `IDLE_DETACH_MS`. */
  idle(keep: string | undefined): string[] {
    const cutoff = this.now() - IDLE_DETACH_MS;
    return this.ids().filter((id) => id !== keep && (this.lastViewed.get(id) ?? 0) < cutoff);
  }
}
