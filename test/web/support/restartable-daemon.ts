/**
 * Daemons a browser test kills and starts again on the same home and port, as a user restarting
 * `shard daemon` would: the page must find the new one where the old one was.
 */
import { afterEach } from "bun:test";
import { DaemonProcess } from "../../daemon/support/daemon-harness.ts";
import { builtWebDir } from "./web-build.ts";

/** A port that was free a moment ago: the restarted daemon must come back on the same one. */
export function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/** Registers the clean-up; the returned function starts a daemon on `home` and `port`. */
export function useRestartableDaemons(): (home: string, port: number) => Promise<DaemonProcess> {
  const daemons: DaemonProcess[] = [];
  afterEach(async () => {
    // The whole process group: a killed daemon's runtimes too.
    await Promise.all(daemons.splice(0).map((daemon) => daemon.stop()));
  });
  return async (home, port) => {
    const daemon = new DaemonProcess(home, ["--port", String(port)], ["daemon"], {
      env: { SHARD_WEB_DIR: await builtWebDir() },
    });
    daemons.push(daemon);
    await daemon.url();
    return daemon;
  };
}
