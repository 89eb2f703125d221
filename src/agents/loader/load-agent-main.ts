// Loads an agent folder in a process of its own and prints the result as JSON on stdout:
//   node --import tsx src/agents/loader/load-agent-main.ts '{"folderDir":…,"folderName":…,"outDir":…}'
// The web app runs uploads through it, so esbuild and the sandbox are driven from plain Node,
// never from inside the Next.js server bundle.
import { loadAgentFolder } from "./load-agent";

const options = JSON.parse(process.argv[2] ?? "{}") as Parameters<typeof loadAgentFolder>[0];
const loaded = await loadAgentFolder(options);
process.stdout.write(JSON.stringify(loaded));
