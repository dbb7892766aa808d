// Who is signed in, for every page: `me` is null (signed out), or {name, balance, role}.
import { signal } from "./lib.js";
import { get, ApiError } from "./api.js";

export const me = signal(undefined); // undefined: not yet known

export async function refreshMe() {
  try {
    me.value = await get("/api/me");
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) me.value = null;
    else throw error;
  }
  return me.value;
}
