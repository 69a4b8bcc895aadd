// Who is here, as a dot: at the table now, online elsewhere (the lobby, another
// table), or away. The server works it out across its processes (docs/server.md,
// Presence); a page only draws it, with its words for screen readers and a title.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {"here"|"online"|"away"} Presence */

/**
 * A seat's presence, from its meta: the server's, else (an older server) whether a
 * client holding it is connected.
 * @param {{presence?: Presence|null, connected?: boolean, kind?: string}} meta
 * @returns {Presence|null}
 */
export function presenceOf(meta) {
  if (meta.kind === "bot") return null;
  if (meta.presence) return meta.presence;
  return meta.connected ? "here" : "away";
}

/**
 * The dot: coloured by presence, named in words.
 * @param {Presence|null|undefined} presence
 */
export function presenceDot(presence) {
  if (!presence) return null;
  const label = t(`presence.${presence}`);
  return h("span", {
    class: `dot ${presence}${presence === "away" ? "" : " on"}`,
    role: "img", "aria-label": label, title: label, "data-presence": presence,
  });
}
