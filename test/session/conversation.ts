/** A realistic conversation for compaction, recall and fork tests. */
import type { SessionStore } from "../../src/contracts/session-store.ts";
import { assistantText, toolResult, userText } from "./helpers.ts";

const pad = (n: number) => ` ${"lorem ipsum ".repeat(n)}`;

/** Appends one "turn": a request, parallel read + bash calls, an edit, and a closing plan. */
export function appendTurn(store: SessionStore, turn: number, padding = 40): void {
  store.append(userText(`Request ${turn}: fix the parser in src/p${turn}.ts${pad(padding)}`));
  store.append(
    assistantText(`Looking at turn ${turn}.`, [
      { id: `r${turn}`, name: "read", args: { path: `src/p${turn}.ts` } },
      { id: `b${turn}`, name: "bash", args: { command: `bun test p${turn}` } },
    ]),
  );
  store.append(toolResult(`r${turn}`, `file ${turn}${pad(padding)}`));
  store.append(toolResult(`b${turn}`, `1 fail${pad(padding)}`, { exit_code: 1, is_error: true }));
  store.append(
    assistantText("", [
      { id: `e${turn}`, name: "edit", args: { path: `src/p${turn}.ts`, old: "a", new: "b" } },
    ]),
  );
  store.append(toolResult(`e${turn}`, "edited"));
  store.append(assistantText(`Plan after turn ${turn}: the parser now handles case ${turn}.${pad(padding)}`));
}
