// Refunds are remembered in the agent's kv, shared by every session: `refunds/<order id>` holds
// the order's refund history. A compare-and-set keeps two refunds at once from losing one.
import type { KvStore } from "agentfold";

export type Refund = { amount: number; reason: string; at: string; approvedBy: unknown };

const key = (orderId: string) => `refunds/${orderId}`;

export async function refundsOf(kv: KvStore, orderId: string): Promise<Refund[]> {
  return ((await kv.get(key(orderId))) as Refund[] | undefined) ?? [];
}

export async function recordRefund(kv: KvStore, orderId: string, refund: Refund): Promise<number> {
  for (;;) {
    const current = await kv.entry(key(orderId));
    const history = [...((current?.value as Refund[] | undefined) ?? []), refund];
    try {
      await kv.put(key(orderId), history, { ifVersion: current?.version ?? 0 });
      return history.length;
    } catch (error) {
      if ((error as { code?: string }).code !== "conflict") throw error;
    }
  }
}
