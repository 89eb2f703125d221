// Every `agentfold` command, in the order `agentfold help` lists them within their groups.
import type { Command } from "@/cli/command";
import { bootstrapCommands } from "./admin";
import { deployCommandSpec } from "./deploy";
import { loginCommands } from "./login";
import { tokenCommands } from "./token";
import { devCommandSpec } from "./dev";
import { evalCommandSpec } from "./eval";
import { evalNewCommandSpec } from "./eval-new";
import { helpCommand } from "./help";
import { infoCommandSpec } from "./info";
import { initCommandSpec } from "./init";
import { manifestCommandSpec, versionCommandSpec } from "./manifest";
import { secretCommands } from "./secret";
import { slackCommands } from "./slack";
import { startCommandSpec } from "./start";
import { callCommandSpec } from "./call";
import { chatCommandSpec } from "./chat";
import { runCommandSpec } from "./run";
import { trajectoryCommandSpec } from "./trajectory";
import { validateCommandSpec } from "./validate";

export const commands: readonly Command[] = [
  startCommandSpec,
  devCommandSpec,
  initCommandSpec,
  validateCommandSpec,
  manifestCommandSpec,
  infoCommandSpec,
  versionCommandSpec,
  helpCommand(() => commands),
  chatCommandSpec,
  runCommandSpec,
  callCommandSpec,
  trajectoryCommandSpec,
  evalCommandSpec,
  evalNewCommandSpec,
  ...secretCommands,
  ...slackCommands,
  ...loginCommands,
  deployCommandSpec,
  ...tokenCommands,
  ...bootstrapCommands,
];
