// Opens a URL in the person's browser when there is one to open: BROWSER (`none`: never), macOS's
// `open`, Windows' `start`, or `xdg-open` in a graphical Linux session. Never fails: without a
// browser (a server, an SSH session, CI) the printed URL is the way.
import { spawn } from "node:child_process";
import type { Env } from "@/env";

type BrowserConfig = Pick<Env, "BROWSER" | "DISPLAY" | "WAYLAND_DISPLAY">;

/** The command that would open `url`, or undefined when this machine has no browser to open. */
export function browserCommand(
  url: string,
  config: BrowserConfig,
  platform: NodeJS.Platform = process.platform,
): string[] | undefined {
  if (config.BROWSER === "none") return undefined;
  if (config.BROWSER) return [config.BROWSER, url];
  if (platform === "darwin") return ["open", url];
  if (platform === "win32") return ["cmd", "/c", "start", '""', url];
  return config.DISPLAY || config.WAYLAND_DISPLAY ? ["xdg-open", url] : undefined;
}

/** Whether a browser is being tried; a missing one (ENOENT) is ignored, the URL is printed anyway. */
export function openBrowser(url: string, config: BrowserConfig): boolean {
  const command = browserCommand(url, config);
  if (!command) return false;
  try {
    const child = spawn(command[0]!, command.slice(1), { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
