// The view library, in one place: Preact with htm (tagged templates instead of JSX, so no build
// step) and signals. Pages import from here, never from the vendored files directly.
import { h, render, Fragment } from "preact";
import htm from "htm";

export { h, render, Fragment };
export { useState, useEffect, useRef, useMemo, useCallback, useReducer } from "preact/hooks";
export { signal, computed, effect, batch } from "@preact/signals";
export const html = htm.bind(h);
