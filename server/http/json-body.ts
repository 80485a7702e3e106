/** Request bodies: JSON only, 1 MB at most (the body-limit middleware in app.ts enforces the size). */
import type { Context } from 'hono';
import { HttpError } from '../errors';

export const MAX_BODY_BYTES = 1024 * 1024;

/** The parsed body, or undefined when it is empty (the SDK sends none for logUserInApp). */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'INVALID_JSON', 'The request body is not valid JSON');
  }
}

export async function readObject(c: Context): Promise<Record<string, unknown>> {
  const body = await readJson(c);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'BAD_REQUEST', 'The body must be a JSON object');
  }
  return body as Record<string, unknown>;
}
