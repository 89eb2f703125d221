import { defineSkill } from "agentfold/skills";

const carriers = ["PostNord", "DHL", "UPS"];

export default defineSkill({
  description: "Which carriers we use and their delivery times",
  markdown: `We ship with ${carriers.join(", ")}. Domestic delivery takes 1–3 days.`,
});
