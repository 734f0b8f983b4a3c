/** Creates an agent in a working directory (the daemon checks the path and owns the process). */
import { createSignal } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";

export function CreateAgentForm(props: { room: ControlRoom }) {
  const [cwd, setCwd] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const dir = cwd().trim();
    if (dir === "") return;
    setBusy(true);
    await props.room.run(async () => {
      const data = await props.room.connection.call({ type: "agent.create", cwd: dir });
      if (
        typeof data === "object" &&
        data !== null &&
        "agent_id" in data &&
        typeof data.agent_id === "string"
      ) {
        props.room.select(data.agent_id);
      }
    });
    setBusy(false);
  };
  return (
    <form class="create-agent" onSubmit={submit}>
      <input
        name="cwd"
        placeholder="/path/to/project"
        aria-label="working directory"
        value={cwd()}
        onInput={(e) => setCwd(e.currentTarget.value)}
        autocomplete="off"
        spellcheck={false}
      />
      <button type="submit" disabled={busy() || cwd().trim() === ""}>
        New agent
      </button>
    </form>
  );
}
