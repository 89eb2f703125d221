// /cli-login?code=ABCD-EFGH — where a signed-in member approves an `agentfold login`
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { CliLoginApproval } from "@/components/cli-login/cli-login-approval";
import { readSessionUserId } from "@/server/auth/dashboard-session";

export const dynamic = "force-dynamic";

export default async function Page({ searchParams }: { searchParams: Promise<{ code?: string }> }) {
  const code = (await searchParams).code ?? "";
  if (!(await readSessionUserId(await headers())))
    redirect(`/signin?next=${encodeURIComponent(`/cli-login?code=${code}`)}`);
  return <CliLoginApproval code={code} />;
}
