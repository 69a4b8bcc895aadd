// The treasure as a small picture for the rules' scoring example (as the board draws it).

import { s } from "../shared/dom.js";

export function treasureIcon() {
  return s("svg", { viewBox: "-7 -7 14 14", width: 20, height: 20, class: "icon", "aria-hidden": "true" },
    s("path", { d: "M0 -6 L6 0 L0 6 L-6 0 Z", fill: "#f2c230", stroke: "#7a5200", "stroke-width": 1.2 }));
}
