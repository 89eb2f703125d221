import type { Metadata } from "next";
import { Playground } from "@/components/playground/playground";
import { ShareButton } from "@/components/playground/share-dialog";

type PageProps = { params: Promise<{ slug: string }>; searchParams: Promise<{ sessionId?: string | string[] }> };

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const { slug } = await params;
  return { title: `${slug} · Playground · Agentfold` };
}

export default async function PlaygroundPage({ params, searchParams }: PageProps) {
  const { slug } = await params;
  const { sessionId } = await searchParams;
  const initialSessionId = typeof sessionId === "string" && sessionId ? sessionId : undefined;
  // key: a different deep link is a different session view, not a patch of the current one.
  return (
    <Playground
      key={`${slug}/${initialSessionId ?? ""}`}
      slug={slug}
      initialSessionId={initialSessionId}
      toolbar={<ShareButton slug={slug} />}
    />
  );
}
