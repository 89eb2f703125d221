import { describe, expect, it } from "vitest";
import { browserCommand } from "./open-browser";

const url = "https://agents.example.com/cli-login?code=BCDF-GHJK";

describe("opening a browser for agentfold login", () => {
  it("opens none on a machine with no graphical session, or when BROWSER=none", () => {
    expect(browserCommand(url, {}, "linux")).toBeUndefined();
    expect(browserCommand(url, { BROWSER: "none", DISPLAY: ":0" }, "linux")).toBeUndefined();
    expect(browserCommand(url, { BROWSER: "none" }, "darwin")).toBeUndefined();
  });

  it("uses BROWSER, else the platform's opener", () => {
    expect(browserCommand(url, { BROWSER: "firefox" }, "linux")).toEqual(["firefox", url]);
    expect(browserCommand(url, { DISPLAY: ":0" }, "linux")).toEqual(["xdg-open", url]);
    expect(browserCommand(url, { WAYLAND_DISPLAY: "wayland-0" }, "linux")).toEqual(["xdg-open", url]);
    expect(browserCommand(url, {}, "darwin")).toEqual(["open", url]);
  });
});
