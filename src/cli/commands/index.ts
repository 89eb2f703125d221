// Every `agentfold` command, in the order `agentfold help` lists them within their groups.
import type { Command } from "@/cli/command";
import { bootstrapCommands, deployCommandSpec } from "./admin";
import { evalCommandSpec } from "./eval";
import { evalNewCommandSpec } from "./eval-new";
import { helpCommand } from "./help";
import { infoCommandSpec } from "./info";
import { initCommandSpec } from "./init";
import { manifestCommandSpec, versionCommandSpec } from "./manifest";
import { secretCommands } from "./secret";
import { slackCommands } from "./slack";
import { startCommandSpec } from "./start";
import { validateCommandSpec } from "./validate";

export const commands: readonly Command[] = [
  startCommandSpec,
  initCommandSpec,
  validateCommandSpec,
  manifestCommandSpec,
  infoCommandSpec,
  versionCommandSpec,
  helpCommand(() => commands),
  evalCommandSpec,
  evalNewCommandSpec,
  ...secretCommands,
  ...slackCommands,
  ...bootstrapCommands,
  deployCommandSpec,
];
