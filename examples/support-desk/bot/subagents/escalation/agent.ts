import { defineAgent } from "agentfold";

export default defineAgent({
  description: "Takes over angry customers and anything that mentions lawyers or chargebacks.",
});
