// The HTTP API (docs/server.md). Tokens go only in the Authorization header.

import { ServerError } from "./net.js";

/**
 * @param {string} path
 * @param {{method?: string, body?: any, tokens?: string[]}} [opts]
 * @returns {Promise<any>}
 */
export async function call(path, opts = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (opts.tokens && opts.tokens.length) headers.authorization = `Bearer ${opts.tokens.join(",")}`;
  /** @type {RequestInit} */
  const init = { method: opts.method ?? "GET", headers };
  if (opts.body !== undefined) init.body = JSON.stringify(opts.body);
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ServerError("offline", "");
  }
  let doc = null;
  try {
    doc = await res.json();
  } catch {
    doc = null;
  }
  if (!res.ok) {
    const e = doc?.error ?? {};
    throw new ServerError(String(e.code ?? "other"), String(e.message ?? res.statusText), e.ruling ?? null);
  }
  return doc;
}

/** @type {Promise<any> | null} */
let maps = null;

/** Both board sides, fetched once per page. */
export function boardMaps() {
  maps ??= call("/api/maps");
  return maps;
}
