import { defineEval, includes } from "agentfold/evals";

// The bracketed directives script the offline model (local:scripted), which the platform uses
// when no provider is configured; with a real model, send the customer's words alone.
export default defineEval({
  tags: ["refunds", "smoke"],
  cases: [
    {
      id: "asks-approval",
      description: "A refund request looks the order up and parks the refund for a person's approval",
      test: async (t) => {
        await t.send(
          'Please refund order A-1002, it arrived broken. [call lookup_order {"orderId":"A-1002"}] [call issue_refund {"orderId":"A-1002","reason":"arrived broken"}]',
        );
        t.calledTool("lookup_order");
        t.calledTool("issue_refund");
        // Evals run unattended: a call that needs approval is refused, never run.
        const decided = t.events.find((event) => event.type === "action.approval_resolved");
        t.check(decided?.data.decision, includes("denied"));
        t.succeeded();
      },
    },
    {
      id: "explains-timing",
      description: "The answer says how long a refund takes",
      test: async (t) => {
        await t.send("How long does a refund take? [say: Refunds reach your card within 5 business days.]");
        t.succeeded();
        t.check(t.reply, includes(/\d+ business days/));
        t.notCalledTool("issue_refund");
      },
    },
  ],
});
