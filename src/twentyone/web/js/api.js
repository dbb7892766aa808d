// The server's API: JSON over HTTP under /api, and WebSockets. The browser signs in with the
// session cookie (HttpOnly: scripts never see it). Every refusal is {"error": "..."}.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function api(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (response.status === 204) return null;
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { error: text };
    }
  }
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || `${response.status} ${response.statusText}`);
  }
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body ?? {});
export const put = (path, body) => api("PUT", path, body ?? {});
export const del = (path) => api("DELETE", path);

// A WebSocket on this server (ws: or wss: as the page), reconnecting with back-off. onMessage
// gets each parsed message; the server sends the whole current state first on every connect.
export function stream(path, onMessage, onStatus = () => {}) {
  let socket = null;
  let closed = false;
  let delay = 250;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}${path}`);
    socket.onopen = () => {
      delay = 250;
      onStatus("open");
    };
    socket.onmessage = (event) => onMessage(JSON.parse(event.data));
    socket.onclose = () => {
      onStatus("closed");
      if (!closed) setTimeout(open, (delay = Math.min(delay * 2, 5000)));
    };
  };
  open();
  return {
    send: (message) => socket && socket.readyState === 1 && socket.send(JSON.stringify(message)),
    close: () => {
      closed = true;
      socket && socket.close();
    },
  };
}
