import { request } from "node:http";

export interface WireResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Name, value, name, value…: as sent, duplicates not merged. */
  rawHeaders: string[];
  body: Buffer;
}

/** One request with exactly the given Accept-Encoding; the body is returned as sent (still compressed). */
export function wire(
  url: string,
  acceptEncoding: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: init.method ?? "GET", headers: { "accept-encoding": acceptEncoding, ...init.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}
