/**
 * Which connection created which ephemeral agent (`agent.create` with `ephemeral: true`,
 * docs/protocol-additions.md §15): when that connection closes, its agents are deleted.
 */
export class EphemeralAgents {
  private readonly byClient = new Map<string, Set<string>>();

  own(clientId: string, agentId: string): void {
    let owned = this.byClient.get(clientId);
    if (!owned) {
      owned = new Set();
      this.byClient.set(clientId, owned);
    }
    owned.add(agentId);
  }

  /** The agents `clientId` created, now nobody's: the caller deletes them. */
  release(clientId: string): string[] {
    const owned = this.byClient.get(clientId);
    this.byClient.delete(clientId);
    return owned ? [...owned] : [];
  }

  /** The agent was deleted some other way. */
  drop(agentId: string): void {
    for (const [clientId, owned] of this.byClient) {
      owned.delete(agentId);
      if (owned.size === 0) this.byClient.delete(clientId);
    }
  }
}
