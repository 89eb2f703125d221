// A tiny in-memory order book shared by the tools (the `lib/` convention).
export type Order = { id: string; customer: string; total: number; status: "paid" | "shipped" | "refunded" };

const orders = new Map<string, Order>([
  ["A-1001", { id: "A-1001", customer: "ada@example.com", total: 42.5, status: "shipped" }],
  ["A-1002", { id: "A-1002", customer: "lin@example.com", total: 18, status: "paid" }],
]);

export function findOrder(id: string): Order | undefined {
  return orders.get(id);
}

export function markRefunded(id: string): Order | undefined {
  const order = orders.get(id);
  if (order) order.status = "refunded";
  return order;
}
