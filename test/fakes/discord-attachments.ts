// Files on the fake Discord: multipart bodies (payload_json + files[n]), attachment objects, attachment:// embed images.
import { nextSnowflake, type Json } from "./discord-payloads.ts";

export interface RecordedFile {
  /** The form field, "files[0]" for the first file. */
  field: string;
  name: string;
  contentType: string;
  data: Buffer;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CDN = "https://cdn.discordapp.test/attachments";

/** Width and height from a PNG's IHDR chunk (the first chunk, right after the signature), or undefined. */
export function pngSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length < 24 || !data.subarray(0, 8).equals(PNG_SIGNATURE) || data.toString("latin1", 12, 16) !== "IHDR")
    return undefined;
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

/**
 * A multipart/form-data body as Discord reads it: the JSON in payload_json, each files[n] part a file.
 * Parsed by undici (the same parser fetch uses), so a malformed body fails as it would on a real server.
 */
export async function parseMultipart(
  bytes: Buffer,
  contentType: string,
): Promise<{ body: unknown; files: RecordedFile[] }> {
  const form = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
  let body: unknown;
  const files: RecordedFile[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === "string") {
      if (field === "payload_json") body = JSON.parse(value) as unknown;
      continue;
    }
    if (!/^files\[\d+\]$/.test(field)) throw new Error(`unexpected file field ${field}`);
    files.push({ field, name: value.name, contentType: value.type, data: Buffer.from(await value.arrayBuffer()) });
  }
  return { body, files };
}

/** The attachment objects Discord returns for uploaded files. */
export function attachmentsOf(files: readonly RecordedFile[], channelId: string): Json[] {
  return files.map((f) => {
    const id = nextSnowflake();
    const url = `${CDN}/${channelId}/${id}/${f.name}`;
    return {
      id,
      filename: f.name,
      size: f.data.length,
      url,
      proxy_url: url,
      content_type: f.contentType || "application/octet-stream",
      ...(pngSize(f.data) ?? {}),
    };
  });
}

/** Discord swaps an embed image's attachment://name for the uploaded file's URL; unknown names stay as sent. */
export function resolveEmbedImages(embeds: unknown, attachments: readonly Json[]): unknown {
  if (!Array.isArray(embeds)) return embeds;
  return embeds.map((e: unknown) => {
    if (typeof e !== "object" || e === null) return e;
    const image = (e as Json)["image"] as { url?: unknown } | undefined;
    const name =
      typeof image?.url === "string" && image.url.startsWith("attachment://")
        ? image.url.slice("attachment://".length)
        : undefined;
    const file = name ? attachments.find((a) => a["filename"] === name) : undefined;
    if (!file) return e;
    return {
      ...(e as Json),
      image: {
        url: file["url"],
        proxy_url: file["proxy_url"],
        width: file["width"],
        height: file["height"],
        content_type: file["content_type"],
      },
    };
  });
}
