// The HTTP API (docs/server.md). Tokens go only in the Authorization header. Answers
// are read by `parseJson`, so that no 64-bit integer is rounded on the way. Every
// request that changes something carries the session's CSRF token when the browser
// is signed in: the server refuses such a request with a session cookie but without
// it (docs/server.md, Accounts).

import { parseJson } from "./json.js";
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
  const method = opts.method ?? "GET";
  if (method !== "GET") {
    const token = await csrf();
    if (token) headers["x-csrf-token"] = token;
  }
  /** @type {RequestInit} */
  const init = { method, headers };
  if (opts.body !== undefined) init.body = JSON.stringify(opts.body);
  return (await answer(path, init)).doc;
}

/** @type {Promise<string|null> | null} */
let csrfToken = null;

/** The session's CSRF token (null when signed out), asked once per page. */
function csrf() {
  csrfToken ??= fetch("/api/account")
    .then(async (res) => (res.ok ? (await res.json()).csrf ?? null : null))
    .catch(() => null);
  return csrfToken;
}

/**
 * What signing in, up or out said the token is now.
 * @param {string|null} token
 */
export function setCsrf(token) {
  csrfToken = Promise.resolve(token);
}

/**
 * A request's answer: its bytes as the server sent them, and the document they hold.
 * @param {string} path
 * @param {RequestInit} init
 * @returns {Promise<{bytes: ArrayBuffer, doc: any}>}
 */
async function answer(path, init) {
  let res;
  let bytes;
  try {
    res = await fetch(path, init);
    bytes = await res.arrayBuffer();
  } catch {
    throw new ServerError("offline", "");
  }
  let doc = null;
  try {
    doc = parseJson(new TextDecoder().decode(bytes));
  } catch {
    doc = null;
  }
  if (!res.ok) {
    const e = doc?.error ?? {};
    throw new ServerError(String(e.code ?? "other"), String(e.message ?? res.statusText), e.ruling ?? null);
  }
  return { bytes, doc };
}

/**
 * An ended game's record: the bytes to download as they are (its seed may exceed what
 * a JavaScript number holds), and the document read from them for the moves.
 * @param {string} gameId
 */
export function fetchRecord(gameId) {
  return answer(`/api/games/${gameId}/record`, { method: "GET" });
}

/** @type {Promise<any> | null} */
let maps = null;

/** Both board sides, fetched once per page. */
export function boardMaps() {
  maps ??= call("/api/maps");
  return maps;
}
