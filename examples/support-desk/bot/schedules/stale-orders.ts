import { defineSchedule } from "agentfold/schedules";

export default defineSchedule({
  cron: "*/30 * * * *",
  async run({ callTool }) {
    await callTool("lookup_order", { orderId: "A-1002" });
  },
});
