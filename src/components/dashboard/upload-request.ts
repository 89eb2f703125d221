// Sends an agent archive with upload progress (fetch cannot report it; XMLHttpRequest can).
import type { Diagnostic } from "@/agents/loader/diagnostics";

export type UploadedVersion = {
  number: number;
  status: "ready" | "invalid";
  isActive: boolean;
  diagnostics: Diagnostic[];
  fileCount: number;
  slug: string;
};

export function uploadArchive(options: {
  slug: string;
  teamSlug: string;
  archive: Blob;
  onProgress: (fraction: number) => void;
}): Promise<UploadedVersion> {
  const { slug, teamSlug, archive, onProgress } = options;
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(
      "POST",
      `/v1/agents/${encodeURIComponent(slug)}/versions?team=${encodeURIComponent(teamSlug)}&activate=false`,
    );
    request.setRequestHeader("content-type", "application/octet-stream");
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onload = () => {
      let body: { ok?: boolean; version?: UploadedVersion; message?: string } = {};
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // not JSON: reported below with the status
      }
      if (request.status === 200 && body.version) resolve(body.version);
      else reject(new Error(body.message ?? `the upload failed (HTTP ${request.status}); try again`));
    };
    request.onerror = () =>
      reject(new Error("the upload could not reach the server; check the connection and try again"));
    request.send(archive);
  });
}
