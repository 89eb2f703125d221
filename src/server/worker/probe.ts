// The worker's health probe for a container runtime: exits 0 when the worker on this host answers
// its /health over HTTP/2 (Kubernetes' and Compose's HTTP probes speak only HTTP/1.1).
import { env } from "@/env";
import { isWorkerHealthy } from "./health";

process.exit((await isWorkerHealthy(`http://127.0.0.1:${env().WORKER_PORT}`)) ? 0 : 1);
