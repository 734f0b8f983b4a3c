/**
 * The open agent's MCP servers in its header (docs/mcp.md): each one's name, state and tool
 * count; a failed one carries its last error (already scrubbed of secrets by the runtime) in
 * its title. On a phone only a count chip shows ("MCP 1/2": ready of all), so the header keeps
 * its one row; the list stays for screen readers.
 */
import { For, Show } from "solid-js";
import type { McpServerStatus } from "../../../../src/types/mcp-status.ts";

export function McpServers(props: { servers: McpServerStatus[] | undefined }) {
  const ready = () => props.servers?.filter((s) => s.state === "ready").length ?? 0;
  const failed = () => props.servers?.some((s) => s.state === "failed") === true;
  return (
    <Show when={props.servers?.length ? props.servers : undefined}>
      {(servers) => (
        <span class="agent-meta mcp-servers" data-testid="mcp-servers">
          <span
            class="mcp-count"
            data-testid="mcp-count"
            data-failed={failed() ? "true" : undefined}
            aria-hidden="true"
            title={servers().map(serverLine).join("\n")}
          >
            MCP {ready()}/{servers().length}
          </span>
          <span class="mcp-list">
            <For each={servers()}>
              {(server) => (
                <span
                  class="mcp-server"
                  data-testid="mcp-server"
                  data-name={server.name}
                  data-state={server.state}
                  title={serverLine(server)}
                >
                  {server.name}: {stateWords(server)}
                </span>
              )}
            </For>
          </span>
        </span>
      )}
    </Show>
  );
}

function stateWords(server: McpServerStatus): string {
  if (server.state === "ready") return `${server.tools} tool${server.tools === 1 ? "" : "s"}`;
  return server.state;
}

function serverLine(server: McpServerStatus): string {
  const what = `MCP server ${server.name}: ${server.state}, ${server.tools} tool${server.tools === 1 ? "" : "s"}`;
  return server.error === undefined ? what : `${what}\n${server.error}`;
}
