/**
 * `$SHARD_HOME/placements.json` (docs/placements.md): the named places a runtime may run besides
 * this machine. Shard stores no credentials here: SSH uses the user's own ssh config and agent,
 * a container engine its own login, a `command` template whatever tool it names.
 */
import { type Static, Type } from "@sinclair/typebox";

/** A placement's name: what `agent.create { placement }` and `AgentInfo.placement` carry. */
export const PLACEMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

/** The built-in placement: `shard agent` as a child of the daemon, today's behaviour. */
export const LOCAL_PLACEMENT = "local";

/** Environment for the remote runtime: names only from this set of characters (no secrets here). */
const EnvSchema = Type.Record(Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }), Type.String());

const common = {
  /** Live runtimes on this placement at most; default the daemon's `--max-runtimes`. */
  max_runtimes: Type.Optional(Type.Integer({ minimum: 1 })),
};

export const SshPlacementSchema = Type.Object(
  {
    kind: Type.Literal("ssh"),
    host: Type.String({ minLength: 1, maxLength: 255 }),
    user: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
    /** An ssh_config file passed as `ssh -F`; default the user's own (~/.ssh/config). */
    ssh_config: Type.Optional(Type.String({ minLength: 1 })),
    /** The `shard` binary on the host (`shard placement install` puts it here). */
    shard: Type.Optional(Type.String({ minLength: 1 })),
    /** `$SHARD_HOME` on the host; default the host user's ~/.shard. */
    home: Type.Optional(Type.String({ minLength: 1 })),
    env: Type.Optional(EnvSchema),
    ...common,
  },
  { additionalProperties: false },
);
export type SshPlacement = Static<typeof SshPlacementSchema>;

export const ContainerMountSchema = Type.Object(
  {
    source: Type.String({ minLength: 1 }),
    target: Type.String({ minLength: 1, pattern: "^/" }),
    readonly: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ContainerPlacementSchema = Type.Object(
  {
    kind: Type.Literal("container"),
    engine: Type.Union([Type.Literal("podman"), Type.Literal("docker")]),
    /** `run --rm -i` a new container from this image for each runtime generation… */
    image: Type.Optional(Type.String({ minLength: 1 })),
    /** …or `exec -i` into this running container. Exactly one of the two. */
    container: Type.Optional(Type.String({ minLength: 1 })),
    mounts: Type.Optional(Type.Array(ContainerMountSchema)),
    /** The `shard` binary inside the container; default `shard` on its PATH. */
    shard: Type.Optional(Type.String({ minLength: 1 })),
    env: Type.Optional(EnvSchema),
    ...common,
  },
  { additionalProperties: false },
);
export type ContainerPlacement = Static<typeof ContainerPlacementSchema>;

export const CommandPlacementSchema = Type.Object(
  {
    kind: Type.Literal("command"),
    /**
     * The argv that runs `shard agent` on stdio, ending in the binary and `agent`
     * (`["kubectl", "exec", "-i", "shard-0", "--", "shard", "agent"]`); the daemon appends the
     * agent's flags. The same argv with another subcommand in place of `agent` copies sessions.
     */
    argv: Type.Array(Type.String({ minLength: 1 }), { minItems: 2 }),
    ...common,
  },
  { additionalProperties: false },
);
export type CommandPlacement = Static<typeof CommandPlacementSchema>;

export const RemotePlacementSchema = Type.Union([
  SshPlacementSchema,
  ContainerPlacementSchema,
  CommandPlacementSchema,
]);
export type RemotePlacement = Static<typeof RemotePlacementSchema>;

/** A configured placement with its name. */
export type NamedPlacement = RemotePlacement & { name: string };
