import { defineAgent } from "agentfold";

export default defineAgent({
  name: "A2A agent",
  description: "Answers other agents' messages over the A2A protocol; one A2A context is one conversation.",
  hosting: { secretNames: ["A2A_TOKEN"] },
});
