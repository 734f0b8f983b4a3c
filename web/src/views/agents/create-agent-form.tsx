/**
 * Creates an agent in a working directory (the daemon checks the path and owns the process),
 * optionally with a name, a model and a mode. The choices are the catalogs the selected agent's
 * runtime lists — the daemon has no catalog of its own — so with no agent open the daemon's
 * defaults apply. The cwd starts as the selected agent's. With placements configured, a picker
 * says where it runs (placement-picker.tsx); the cwd is then a path on that placement.
 */
import { createEffect, createSignal, For, Show } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";
import type { Catalogs } from "../pickers/catalogs.ts";
import { PlacementPicker, usePlacements } from "./placement-picker.tsx";

export function CreateAgentForm(props: { room: ControlRoom; catalogs: Catalogs; onCreated?: () => void }) {
  const [cwd, setCwd] = createSignal("");
  const [name, setName] = createSignal("");
  const [model, setModel] = createSignal("");
  const [mode, setMode] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  const [placement, setPlacement] = createSignal("local");
  const placements = usePlacements(props.room);
  createEffect(() => {
    const selected = props.room.selected();
    const info = selected === undefined ? undefined : props.room.agents[selected]?.info;
    if (info !== undefined && cwd() === "") setCwd(info.cwd);
  });
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const dir = cwd().trim();
    if (dir === "") return;
    setBusy(true);
    await props.room.run(async () => {
      const data = await props.room.connection.call({
        type: "agent.create",
        cwd: dir,
        ...(name().trim() !== "" ? { name: name().trim() } : {}),
        ...(model() !== "" ? { model: model() } : {}),
        ...(mode() !== "" ? { mode: mode() } : {}),
        ...(placement() !== "local" ? { placement: placement() } : {}),
      });
      setName("");
      props.room.select(data.agent_id);
      props.onCreated?.();
    });
    void placements.refetch();
    setBusy(false);
  };
  return (
    <form class="create-agent" data-testid="create-agent" onSubmit={submit}>
      <input
        name="cwd"
        placeholder="/path/to/project"
        aria-label="working directory"
        value={cwd()}
        onInput={(e) => setCwd(e.currentTarget.value)}
        autocomplete="off"
        spellcheck={false}
      />
      <input
        name="name"
        placeholder="name (optional)"
        aria-label="agent name"
        value={name()}
        onInput={(e) => setName(e.currentTarget.value)}
        autocomplete="off"
        spellcheck={false}
      />
      <div class="create-agent-options">
        <Show when={props.catalogs.models.latest}>
          {(catalog) => (
            <select
              aria-label="model for the new agent"
              data-testid="create-model"
              onChange={(e) => setModel(e.currentTarget.value)}
            >
              <option value="">default model</option>
              {/* Only models a provider can serve: a new agent must be able to answer. */}
              <For each={catalog().models.filter((m) => m.unavailable === undefined)}>
                {(m) => <option value={m.id}>{m.id}</option>}
              </For>
            </select>
          )}
        </Show>
        <Show when={props.catalogs.modes.latest}>
          {(catalog) => (
            <select
              aria-label="mode for the new agent"
              data-testid="create-mode"
              onChange={(e) => setMode(e.currentTarget.value)}
            >
              <option value="">default mode</option>
              <For each={catalog().modes}>{(m) => <option value={m.name}>{m.name}</option>}</For>
            </select>
          )}
        </Show>
        <PlacementPicker
          placements={placements.list()}
          value={placement()}
          onChange={setPlacement}
          onFocus={() => void placements.refetch()}
        />
        <button type="submit" disabled={busy() || cwd().trim() === ""}>
          New agent
        </button>
      </div>
    </form>
  );
}
